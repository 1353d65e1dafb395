/* tl-render-blocks.c — the blocks, timeline and blocks-and-timeline views. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tl-error.h"
#include "view/tl-block-stats.h"
#include "paint/tl-blocks-arrange.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-colorbar.h"
#include "paint/tl-paint-timeline.h"
#include "view/tl-render-runs.h"

void
tl_blocks_grid_clear (TlBlocksGrid *g)
{
  g_clear_pointer (&g->title, g_free);
  g_clear_pointer (&g->caption, g_free);
  g_clear_pointer (&g->plan, tl_plan_view_free);
}

/* FALSE with error where the launch asked for ran no block */
static gboolean
check_launch (const TlKernelRun *run, const TlBlocksModel *model, gint launch, GError **error)
{
  if (launch < 0 || tl_blocks_model_find (model, 0, 0) >= 0)
    return TRUE;
  for (gsize i = 0; i < run->n_blocks; i++)
    if (run->blocks[i].launch == (guint32) launch)
      return TRUE;
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
               _("kernel “%s” has no blocks in launch %d"), run->kernel_id, launch);
  return FALSE;
}

gboolean
tl_blocks_grid_fill (TlBlocksGrid *g, const TlRenderInput *input, const TlRenderOptions *o, GError **error)
{
  *g = (TlBlocksGrid) {0};
  g_autoptr (GPtrArray) runs = tl_render_select_runs (input->record, o->kernels, TL_RENDER_NEED_BLOCKS_OR_PLAN, FALSE, error);
  if (runs == NULL)
    return FALSE;
  const TlKernelRun *run = runs->pdata[0];
  TlBlocksModel *model = &g->model;

  tl_blocks_model_init (model);
  if (o->color && !tl_blocks_color_from_name (o->color, &model->color))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the blocks view colours by “duration” or “start”, not “%s”"), o->color);
      return FALSE;
    }
  model->blocks = run->blocks;
  model->n_blocks = run->n_blocks;
  model->launch = o->launch;
  model->highlight_x = o->tile_x;
  model->highlight_y = o->tile_y;
  model->tile_m = run->block_tile_m;
  model->tile_n = run->block_tile_n;
  const TlJob *job = input->record->job;
  if (job && run->block_tile_m > 0 && run->block_tile_n > 0)
    {
      model->grid_x = (guint) ((job->n + run->block_tile_n - 1) / run->block_tile_n);
      model->grid_y = (guint) ((job->m + run->block_tile_m - 1) / run->block_tile_m);
    }
  g->title = tl_render_kernel_title (run);
  g->caption = job ? g_strdup_printf (_("C is %zu×%zu"), job->m, job->n) : NULL;
  model->title = g->title;
  model->caption = g->caption;
  g->plan = job ? tl_plan_view_new_for_record (input->record, run) : NULL;
  model->plan = g->plan;
  if (g->plan && model->tile_m == 0)
    {
      model->tile_m = g->plan->tile_m;
      model->tile_n = g->plan->tile_n;
    }
  return check_launch (run, model, o->launch, error);
}

gboolean
tl_render_draw_blocks (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                       const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "blocks", error))
    return FALSE;
  TlBlocksGrid grid;
  gboolean ok = tl_blocks_grid_fill (&grid, input, o, error);
  if (ok)
    tl_paint_blocks (cr, &grid.model, style, w, h);
  tl_blocks_grid_clear (&grid);
  return ok;
}

/* The timeline's tracks: kernels of one record, or one kernel of each
 * stacked record. */
static gboolean
timeline_runs (const TlRenderInput *input, const char *kernels, GPtrArray *runs,
               GPtrArray *records, GError **error)
{
  if (input->n_more == 0)
    {
      g_autoptr (GPtrArray) sel = tl_render_select_runs (input->record, kernels, TL_RENDER_NEED_BLOCKS, FALSE, error);
      if (sel == NULL)
        return FALSE;
      for (guint i = 0; i < sel->len; i++)
        {
          g_ptr_array_add (runs, sel->pdata[i]);
          g_ptr_array_add (records, input->record);
        }
      return TRUE;
    }

  guint n_rec = input->n_more + 1;
  g_auto (GStrv) ids = kernels && *kernels ? g_strsplit (kernels, ",", -1) : NULL;
  guint n_ids = ids ? g_strv_length (ids) : 0;
  if (n_ids > 1 && n_ids != n_rec)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("%u run records are stacked: give one kernel for all or one per record, "
                     "not %u"), n_rec, n_ids);
      return FALSE;
    }
  for (guint r = 0; r < n_rec; r++)
    {
      const TlRunRecord *rec = r == 0 ? input->record : input->more[r - 1];
      const char *id = n_ids == 0 ? NULL : g_strstrip (ids[n_ids == 1 ? 0 : r]);
      g_autoptr (GPtrArray) sel = tl_render_select_runs (rec, id, TL_RENDER_NEED_BLOCKS, FALSE, error);
      if (sel == NULL)
        {
          if (error && *error)
            g_prefix_error (error, _("run record %u: "), r + 1);
          return FALSE;
        }
      g_ptr_array_add (runs, sel->pdata[0]);
      g_ptr_array_add (records, (gpointer) rec);
    }
  return TRUE;
}

static char *
track_label (const TlRunRecord *record, const TlKernelRun *run, gboolean stacked)
{
  g_autofree char *title = tl_render_kernel_title (run);
  if (!stacked)
    return g_steal_pointer (&title);
  /* which record: the problem and where it ran */
  const char *where = run->backend == TL_BACKEND_GPU && record->has_device && record->device.name[0]
                        ? record->device.name
                      : record->machine.cpu_model ? record->machine.cpu_model : "";
  if (record->job)
    return g_strdup_printf ("%s · %zu×%zu×%zu · %s", title, record->job->m, record->job->k,
                            record->job->n, where);
  return g_strdup_printf ("%s · %s", title, where);
}

/* Each track's blocks, statistics and label; FALSE with error when a
 * run has no blocks in the launch asked for. */
static gboolean
fill_tracks (const TlRenderInput *input, const TlRenderOptions *o, GPtrArray *runs, GPtrArray *records,
             TlTimelineTrack *tracks, TlBlockStats **stats, char **labels, GError **error)
{
  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *run = runs->pdata[i];
      const TlRunRecord *rec = records->pdata[i];
      stats[i] = tl_block_stats_new_for_run (rec, run, o->launch, error);
      if (stats[i] == NULL)
        return FALSE;
      if (stats[i]->n_blocks == 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("kernel “%s” has no blocks in launch %d"), run->kernel_id, o->launch);
          return FALSE;
        }
      labels[i] = track_label (rec, run, input->n_more > 0);
      tracks[i].label = labels[i];
      tracks[i].kernel_id = run->kernel_id;
      tracks[i].blocks = run->blocks;
      tracks[i].n_blocks = run->n_blocks;
      tracks[i].stats = stats[i];
      tracks[i].unit_label = tl_block_unit_label (run->block_unit);
    }
  return TRUE;
}

/* the tile's block in the first track that has it */
static void
highlight_tile (TlTimelineModel *model, const TlRenderOptions *o)
{
  for (guint i = 0; i < model->n_tracks && o->tile_x >= 0 && o->tile_y >= 0; i++)
    {
      TlBlocksModel bm;
      tl_blocks_model_init (&bm);
      bm.blocks = model->tracks[i].blocks;
      bm.n_blocks = model->tracks[i].n_blocks;
      bm.launch = o->launch;
      gssize b = tl_blocks_model_find (&bm, (guint) o->tile_x, (guint) o->tile_y);
      if (b >= 0)
        {
          model->highlight_track = (gint) i;
          model->highlight_block = b;
          return;
        }
    }
}

gboolean
tl_render_draw_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                         const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "timeline", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  if (!timeline_runs (input, o->kernels, runs, records, error))
    return FALSE;
  if (runs->len > TL_TIMELINE_MAX_TRACKS)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the timeline stacks at most %d kernels, %u were asked for"),
                   TL_TIMELINE_MAX_TRACKS, runs->len);
      return FALSE;
    }

  TlTimelineModel model;
  TlTimelineTrack tracks[TL_TIMELINE_MAX_TRACKS] = { 0 };
  TlBlockStats *stats[TL_TIMELINE_MAX_TRACKS] = { 0 };
  char *labels[TL_TIMELINE_MAX_TRACKS] = { 0 };

  tl_timeline_model_init (&model);
  model.own_time_scale = o->own_time_scale;
  if (o->color && !tl_timeline_color_from_name (o->color, &model.color))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the timeline colours by “duration” or “wave”, not “%s”"), o->color);
      return FALSE;
    }
  gboolean ok = fill_tracks (input, o, runs, records, tracks, stats, labels, error);
  if (ok)
    {
      model.tracks = tracks;
      model.n_tracks = runs->len;
      highlight_tile (&model, o);
      tl_paint_timeline (cr, &model, style, w, h);
    }
  for (guint i = 0; i < TL_TIMELINE_MAX_TRACKS; i++)
    {
      tl_block_stats_free (stats[i]);
      g_free (labels[i]);
    }
  return ok;
}

/* ---- the grid above the timelines, or beside them (tl-blocks-arrange.h) ---- */

/* The narrowest timeline that still reads: its summary lines whole in
 * their short forms ("min 17.0 µs · median 30.7 µs · max 41.8 µs · span
 * 135 µs", some 28 characters' widths), the colour bar beside. */
static double
timeline_min_width (const TlPaintStyle *style)
{
  return TL_PX (style, style->font_size) * 30 + tl_paint_colorbar_preferred_width (style);
}

/* the area the grid's cells get in a w × h box; 0 where they come out
 * too small to point at or to tell apart (a thumbnail under its titles) */
static double
grid_cells_area (const TlBlocksModel *grid, const TlPaintStyle *style, double w, double h)
{
  if (w < 1 || h < 1)
    return 0;
  TlBlocksLayout lay;
  tl_paint_blocks_layout (grid, style, w, h, &lay);
  double least = TL_PX (style, 5);
  return lay.cell_w >= least && lay.cell_h >= least ? lay.plot_w * lay.plot_h : 0;
}

/* The smallest height in [low, high] at which the grid's plot is as tall
 * as it gets for target (its cells stop growing once they fill the width) */
static double
grid_height_for_plot (const TlBlocksModel *grid, const TlPaintStyle *style, double width,
                      double target, double low, double high)
{
  TlBlocksLayout lay;
  tl_paint_blocks_layout (grid, style, width, high, &lay);
  double want = MIN (target, lay.plot_h) - 0.5;
  while (high - low > 1)
    {
      double mid = floor ((low + high) / 2);
      tl_paint_blocks_layout (grid, style, width, mid, &lay);
      if (lay.plot_h >= want)
        high = mid;
      else
        low = mid;
    }
  return high;
}

double
tl_blocks_grid_share (guint n_tracks, gboolean presentation)
{
  return n_tracks > 1 && !presentation ? 0.4 : 0.5;
}

void
tl_blocks_arrange (const TlBlocksModel *grid, guint n_tracks, const TlPaintStyle *style,
                   gboolean presentation, double width, double height, TlBlocksArrangement *out)
{
  g_return_if_fail (grid != NULL && style != NULL && out != NULL);

  double needed = tl_paint_timeline_min_height (style, n_tracks, FALSE);
  out->beside = FALSE;
  out->grid_hidden = FALSE;
  out->split = round (height * tl_blocks_grid_share (n_tracks, presentation));
  if (height - out->split >= needed)
    {
      /* the timelines have room to spare: in a window the grid grows
       * until its plot is TL_BLOCKS_GRID_PLOT_SHARE of the height (or
       * fills its width); presented, the two pictures keep half each */
      double most = presentation ? out->split : height - needed;
      TlBlocksLayout lay;
      tl_paint_blocks_layout (grid, style, width, out->split, &lay);
      if (lay.plot_h < TL_BLOCKS_GRID_PLOT_SHARE * height && most > out->split)
        out->split = grid_height_for_plot (grid, style, width, TL_BLOCKS_GRID_PLOT_SHARE * height,
                                           out->split, most);
      return;
    }

  /* not room for both at their usual shares: the timelines keep their
   * height, the grid takes the bigger of what is left above or beside */
  double above = MAX (height - needed, 0);
  double beside = width - MAX (timeline_min_width (style), round (width * 0.55));
  double area_above = grid_cells_area (grid, style, width, above);
  double area_beside = grid_cells_area (grid, style, beside, height);
  out->beside = area_beside > area_above;
  out->split = out->beside ? beside : above;
  /* neither leaves a grid to read (two kernels presented at 1024×768):
   * the timelines take the page */
  out->grid_hidden = area_beside <= 0 && area_above <= 0;
  if (out->grid_hidden)
    out->split = 0;
}

/* The Blocks page as on screen: the first kernel's tile grid above the
 * timeline of every kernel asked for, or beside it where the timelines
 * would not be readable under it (tl-blocks-arrange.h). */
gboolean
tl_render_draw_blocks_and_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                    const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "blocks-and-timeline", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  if (!timeline_runs (input, o->kernels, runs, records, error))
    return FALSE;
  TlRenderOptions grid_o = *o, timeline = *o;
  grid_o.kernels = ((const TlKernelRun *) runs->pdata[0])->kernel_id;
  timeline.color = o->timeline_color;
  TlBlocksGrid grid;
  if (!tl_blocks_grid_fill (&grid, input, &grid_o, error))
    {
      tl_blocks_grid_clear (&grid);
      return FALSE;
    }

  TlBlocksArrangement a;
  tl_blocks_arrange (&grid.model, runs->len, style, o->presentation, w, h, &a);
  double gw = a.beside ? a.split : w, gh = a.beside ? h : a.split;
  if (!a.grid_hidden)
    {
      cairo_save (cr);
      cairo_rectangle (cr, 0, 0, gw, gh);
      cairo_clip (cr);
      tl_paint_blocks (cr, &grid.model, style, gw, gh);
      cairo_restore (cr);
    }
  tl_blocks_grid_clear (&grid);

  cairo_save (cr);
  cairo_translate (cr, a.beside ? gw : 0, a.beside ? 0 : gh);
  cairo_rectangle (cr, 0, 0, a.beside ? w - gw : w, a.beside ? h : h - gh);
  cairo_clip (cr);
  gboolean ok = tl_render_draw_timeline (cr, input, &timeline, style, a.beside ? w - gw : w,
                                         a.beside ? h : h - gh, error);
  cairo_restore (cr);
  return ok;
}
