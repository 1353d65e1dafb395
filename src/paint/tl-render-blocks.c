/* tl-render-blocks.c — the blocks, timeline and blocks-and-timeline views. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
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

/* A grid of run's tiles: what tl_blocks_grid_fill makes of a kernel,
 * titled by title (taken). */
static gboolean
grid_fill_run (TlBlocksGrid *g, const TlRunRecord *record, const TlKernelRun *run, char *title,
               const TlRenderOptions *o, GError **error)
{
  *g = (TlBlocksGrid) {0};
  TlBlocksModel *model = &g->model;

  tl_blocks_model_init (model);
  g->title = title;
  model->title = g->title;
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
  const TlJob *job = record->job;
  if (job && run->block_tile_m > 0 && run->block_tile_n > 0)
    {
      model->grid_x = (guint) ((job->n + run->block_tile_n - 1) / run->block_tile_n);
      model->grid_y = (guint) ((job->m + run->block_tile_m - 1) / run->block_tile_m);
    }
  g->caption = job ? g_strdup_printf (_("C is %zu×%zu"), job->m, job->n) : NULL;
  model->caption = g->caption;
  g->plan = job ? tl_plan_view_new_for_record (record, run) : NULL;
  model->plan = g->plan;
  if (g->plan && model->tile_m == 0)
    {
      model->tile_m = g->plan->tile_m;
      model->tile_n = g->plan->tile_n;
    }
  return check_launch (run, model, o->launch, error);
}

gboolean
tl_blocks_grid_fill (TlBlocksGrid *g, const TlRenderInput *input, const TlRenderOptions *o, GError **error)
{
  *g = (TlBlocksGrid) {0};
  g_autoptr (GPtrArray) runs = tl_render_select_runs (input->record, o->kernels, TL_RENDER_NEED_BLOCKS_OR_PLAN, FALSE, error);
  if (runs == NULL)
    return FALSE;
  const TlKernelRun *run = runs->pdata[0];
  return grid_fill_run (g, input->record, run, tl_render_kernel_title (run), o, error);
}

/* The timeline's tracks: kernels of one record, or one kernel of each
 * stacked record. */
static gboolean
timeline_runs (const TlRenderInput *input, const char *kernels, int need, GPtrArray *runs,
               GPtrArray *records, GError **error)
{
  if (input->n_more == 0)
    {
      g_autoptr (GPtrArray) sel = tl_render_select_runs (input->record, kernels, need, FALSE, error);
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
      g_autoptr (GPtrArray) sel = tl_render_select_runs (rec, id, need, FALSE, error);
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

/* where a stacked record's run ran: its GPU or its CPU */
static const char *
record_where (const TlRunRecord *record, const TlKernelRun *run)
{
  return run->backend == TL_BACKEND_GPU && record->has_device && record->device.name[0]
           ? record->device.name
         : record->machine.cpu_model ? record->machine.cpu_model : "";
}

static char *
track_label (const TlRunRecord *record, const TlKernelRun *run, gboolean stacked)
{
  g_autofree char *title = tl_render_kernel_title (run);
  if (!stacked)
    return g_steal_pointer (&title);
  /* which record: the problem and where it ran */
  const char *where = record_where (record, run);
  if (record->job)
    return g_strdup_printf ("%s · %zu×%zu×%zu · %s", title, record->job->m, record->job->k,
                            record->job->n, where);
  return g_strdup_printf ("%s · %s", title, where);
}

/* ---- one grid per kernel, side by side (tl-blocks-arrange.h) ---- */

/* "05 seed 3k …", as Compare and Roofline name a kernel; a stacked
 * record's says where it ran */
static char *
grid_title (const TlRunRecord *record, const TlKernelRun *run, gboolean stacked)
{
  g_autofree char *name = tl_kernel_display_name (run->info, run->kernel_id);
  if (!stacked)
    return g_steal_pointer (&name);
  return g_strdup_printf ("%s · %s", name, record_where (record, run));
}

/* Grids that compare times colour them on one scale, as the timelines
 * below keep one time scale: the same colour is the same microseconds. */
static void
share_color_scale (TlBlocksGrid *grids, guint n)
{
  double lo = INFINITY, hi = -INFINITY;
  guint timed = 0;
  for (guint i = 0; i < n; i++)
    {
      double a, b;
      if (tl_blocks_model_value_range (&grids[i].model, &a, &b))
        {
          lo = MIN (lo, a);
          hi = MAX (hi, b);
          timed++;
        }
    }
  for (guint i = 0; i < n && timed > 1; i++)
    if (grids[i].model.n_blocks > 0)
      {
        grids[i].model.scale_shared = TRUE;
        grids[i].model.scale_lo = lo;
        grids[i].model.scale_hi = hi;
      }
  /* one bar for the one scale, right of the last grid: the others get
   * its width for their cells */
  for (guint i = 0; i + 1 < n && timed == n; i++)
    grids[i].model.show_colorbar = FALSE;
}

void
tl_blocks_grids_clear (TlBlocksGrid *grids, guint n)
{
  for (guint i = 0; i < n; i++)
    tl_blocks_grid_clear (&grids[i]);
}

guint
tl_blocks_grids_fill (TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS], const TlRenderInput *input,
                      const TlRenderOptions *o, GError **error)
{
  memset (grids, 0, sizeof (TlBlocksGrid) * TL_BLOCKS_MAX_GRIDS);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  if (!timeline_runs (input, o->kernels, TL_RENDER_NEED_BLOCKS_OR_PLAN, runs, records, error))
    return 0;
  guint n = MIN (runs->len, TL_BLOCKS_MAX_GRIDS);
  for (guint i = 0; i < n; i++)
    {
      const TlKernelRun *run = runs->pdata[i];
      const TlRunRecord *rec = records->pdata[i];
      char *title = n > 1 ? grid_title (rec, run, input->n_more > 0) : tl_render_kernel_title (run);
      if (!grid_fill_run (&grids[i], rec, run, title, o, error))
        {
          tl_blocks_grids_clear (grids, i + 1);
          return 0;
        }
    }
  if (n > 1 && !o->own_time_scale)
    share_color_scale (grids, n);
  return n;
}

void
tl_blocks_grid_column (const TlBlocksGrid *grids, guint n, guint i, const TlPaintStyle *style, double width,
                       double *x, double *w)
{
  g_return_if_fail (n > 0 && i < n);
  /* the one colour bar of grids on one scale goes with the last column */
  double bar = 0;
  if (n > 1 && !grids[0].model.show_colorbar && grids[n - 1].model.show_colorbar)
    tl_paint_colorbar_reserve (style, TRUE, &bar);
  double each = (width - bar) / n;
  *x = round (each * i);
  *w = round (each * (i + 1) + (i + 1 == n ? bar : 0)) - *x;
}

/* the area the grid's cells get in a w × h box; 0 where they come out
 * under least pixels, too small to point at or to tell apart (a
 * thumbnail under its titles) */
static double
grid_cells_area (const TlBlocksModel *grid, const TlPaintStyle *style, double w, double h, double least)
{
  if (w < 1 || h < 1)
    return 0;
  TlBlocksLayout lay;
  tl_paint_blocks_layout (grid, style, w, h, &lay);
  return lay.cell_w >= least && lay.cell_h >= least ? lay.plot_w * lay.plot_h : 0;
}

/* Where grid i of n is drawn side by side in a width × height area: its
 * column, its model there with the plots' tops lined up (a title may wrap
 * to a line more in one of them). */
typedef struct
{
  TlBlocksModel model;
  double x, w;
} GridCell;

static void
grid_cell (const TlBlocksGrid *grids, guint n, guint i, const TlPaintStyle *style, double width,
           double height, GridCell *out)
{
  double top = 0;
  for (guint j = 0; j < n && n > 1; j++)
    {
      TlBlocksLayout lay;
      tl_blocks_grid_column (grids, n, j, style, width, &out->x, &out->w);
      tl_paint_blocks_layout (&grids[j].model, style, out->w, height, &lay);
      top = MAX (top, lay.plot_y);
    }
  out->model = grids[i].model;
  out->model.plot_top = top;
  tl_blocks_grid_column (grids, n, i, style, width, &out->x, &out->w);
}

/* the smallest grid's cells; 0 where one's are under least px */
static double
least_cells_area (const TlBlocksGrid *grids, guint n, const TlPaintStyle *style, double width, double height,
                  double least)
{
  double area = G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      GridCell c;
      grid_cell (grids, n, i, style, width, height, &c);
      area = MIN (area, grid_cells_area (&c.model, style, c.w, height, least));
    }
  return area;
}

void
tl_blocks_grids_layout (const TlBlocksGrid *grids, guint n, guint i, const TlPaintStyle *style,
                        double width, double height, TlBlocksLayout *out)
{
  GridCell c;
  grid_cell (grids, n, i, style, width, height, &c);
  tl_paint_blocks_layout (&c.model, style, c.w, height, out);
  out->plot_x += c.x;
  out->cb_x += c.x;
}

static void
paint_grids (cairo_t *cr, const TlBlocksGrid *grids, guint n, const TlPaintStyle *style, double width,
             double height)
{
  for (guint i = 0; i < n; i++)
    {
      GridCell c;
      grid_cell (grids, n, i, style, width, height, &c);
      cairo_save (cr);
      cairo_translate (cr, c.x, 0);
      cairo_rectangle (cr, 0, 0, c.w, height);
      cairo_clip (cr);
      tl_paint_blocks (cr, &c.model, style, c.w, height);
      cairo_restore (cr);
    }
}

gboolean
tl_render_draw_blocks (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                       const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "blocks", error))
    return FALSE;
  TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS];
  guint n = tl_blocks_grids_fill (grids, input, o, error);
  paint_grids (cr, grids, n, style, w, h);
  tl_blocks_grids_clear (grids, n);
  return n > 0;
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
  if (!timeline_runs (input, o->kernels, TL_RENDER_NEED_BLOCKS, runs, records, error))
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
tl_blocks_grid_share (guint n_tracks, guint n_grids, gboolean presentation)
{
  if (n_grids > 1)
    return presentation ? 0.5 : TL_BLOCKS_TWO_GRIDS_SHARE;
  return n_tracks > 1 && !presentation ? 0.4 : 0.5;
}

/* The grid's height above the timelines, out->split, where they keep their
 * readable height under it (FALSE where they would not): its usual share
 * (tl_blocks_grid_share), grown in a window until the plot is
 * TL_BLOCKS_GRID_PLOT_SHARE of the height or fills its column. */
static gboolean
arrange_above (const TlBlocksModel *grid, double column_w, double needed, const TlPaintStyle *style,
               gboolean presentation, double height, TlBlocksArrangement *out)
{
  if (height - out->split < needed)
    return FALSE;
  double most = presentation ? out->split : height - needed;
  TlBlocksLayout lay;
  tl_paint_blocks_layout (grid, style, column_w, out->split, &lay);
  if (lay.plot_h < TL_BLOCKS_GRID_PLOT_SHARE * height && most > out->split)
    out->split = grid_height_for_plot (grid, style, column_w, TL_BLOCKS_GRID_PLOT_SHARE * height,
                                       out->split, most);
  return TRUE;
}

/* Two kernels' grids side by side above their timelines at their usual
 * share; where the timelines would not keep their readable height under
 * them (presenting), the grids keep half of the height anyway — the
 * timelines their titles and lanes, not all their summaries: grids beside
 * them would be a narrow column, their cells smaller still — hidden only
 * where a tile would be under a pixel. */
static void
arrange_two (const TlBlocksGrid *grids, guint n_grids, guint n_tracks, const TlPaintStyle *style,
             gboolean presentation, double width, double height, TlBlocksArrangement *out)
{
  TlBlocksModel smallest = grids[0].model;
  double column_w = width, least = G_MAXDOUBLE;
  for (guint i = 0; i < n_grids; i++)
    {
      GridCell c;
      TlBlocksLayout lay;
      grid_cell (grids, n_grids, i, style, width, out->split, &c);
      tl_paint_blocks_layout (&c.model, style, c.w, out->split, &lay);
      if (lay.plot_h < least)
        least = lay.plot_h, smallest = c.model, column_w = c.w;
    }
  double needed = tl_paint_timeline_min_height (style, n_tracks, FALSE);
  if (arrange_above (&smallest, column_w, needed, style, presentation, height, out))
    return;
  /* gemm-03's 63×63 tiles presented at 1024×768 are 2 px each: the
   * pattern still reads, and the comparison is what the page is for */
  out->grid_hidden = least_cells_area (grids, n_grids, style, width, out->split, 1) <= 0;
  if (out->grid_hidden)
    out->split = 0;
}

void
tl_blocks_arrange (const TlBlocksGrid *grids, guint n_grids, guint n_tracks, const TlPaintStyle *style,
                   gboolean presentation, double width, double height, TlBlocksArrangement *out)
{
  g_return_if_fail (grids != NULL && n_grids > 0 && style != NULL && out != NULL);

  const TlBlocksModel *grid = &grids[0].model;
  double needed = tl_paint_timeline_min_height (style, n_tracks, FALSE);
  out->beside = FALSE;
  out->grid_hidden = FALSE;
  out->split = round (height * tl_blocks_grid_share (n_tracks, n_grids, presentation));
  if (n_grids > 1)
    {
      arrange_two (grids, n_grids, n_tracks, style, presentation, width, height, out);
      return;
    }
  if (arrange_above (grid, width, needed, style, presentation, height, out))
    return;

  /* not room for both at their usual shares: the timelines keep their
   * height, the grid takes the bigger of what is left above or beside */
  double above = MAX (height - needed, 0);
  double beside = width - MAX (timeline_min_width (style), round (width * 0.55));
  double area_above = grid_cells_area (grid, style, width, above, TL_PX (style, 5));
  double area_beside = grid_cells_area (grid, style, beside, height, TL_PX (style, 5));
  out->beside = area_beside > area_above;
  out->split = out->beside ? beside : above;
  /* neither leaves a grid to read (two kernels presented at 1024×768):
   * the timelines take the page */
  out->grid_hidden = area_beside <= 0 && area_above <= 0;
  if (out->grid_hidden)
    out->split = 0;
}

/* The Blocks page as on screen: each kernel's tile grid (two at most, side
 * by side) above the timeline of every kernel asked for, or one grid
 * beside them where the timelines would not be readable under it
 * (tl-blocks-arrange.h). */
gboolean
tl_render_draw_blocks_and_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                    const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "blocks-and-timeline", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  if (!timeline_runs (input, o->kernels, TL_RENDER_NEED_BLOCKS, runs, records, error))
    return FALSE;
  /* the grids of the kernels whose timelines are drawn */
  g_autoptr (GStrvBuilder) ids = g_strv_builder_new ();
  for (guint i = 0; i < runs->len; i++)
    g_strv_builder_add (ids, ((const TlKernelRun *) runs->pdata[i])->kernel_id);
  g_auto (GStrv) id_list = g_strv_builder_end (ids);
  g_autofree char *kernels = g_strjoinv (",", id_list);
  TlRenderOptions grid_o = *o, timeline = *o;
  grid_o.kernels = kernels;
  timeline.color = o->timeline_color;
  TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS];
  guint n_grids = tl_blocks_grids_fill (grids, input, &grid_o, error);
  if (n_grids == 0)
    return FALSE;
  guint n_tracks = runs->len;

  TlBlocksArrangement a;
  tl_blocks_arrange (grids, n_grids, n_tracks, style, o->presentation, w, h, &a);
  double gw = a.beside ? a.split : w, gh = a.beside ? h : a.split;
  if (!a.grid_hidden)
    {
      cairo_save (cr);
      cairo_rectangle (cr, 0, 0, gw, gh);
      cairo_clip (cr);
      paint_grids (cr, grids, n_grids, style, gw, gh);
      cairo_restore (cr);
    }
  tl_blocks_grids_clear (grids, n_grids);

  cairo_save (cr);
  cairo_translate (cr, a.beside ? gw : 0, a.beside ? 0 : gh);
  cairo_rectangle (cr, 0, 0, a.beside ? w - gw : w, a.beside ? h : h - gh);
  cairo_clip (cr);
  gboolean ok = tl_render_draw_timeline (cr, input, &timeline, style, a.beside ? w - gw : w,
                                         a.beside ? h : h - gh, error);
  cairo_restore (cr);
  return ok;
}
