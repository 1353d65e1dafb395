/* tl-render-blocks.c — the blocks, timeline and blocks-and-timeline views. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tl-error.h"
#include "view/tl-block-stats.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-timeline.h"
#include "view/tl-render-runs.h"

gboolean
tl_render_draw_blocks (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                       const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "blocks", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = tl_render_select_runs (input->record, o->kernels, TL_RENDER_NEED_BLOCKS_OR_PLAN, FALSE, error);
  if (runs == NULL)
    return FALSE;
  const TlKernelRun *run = runs->pdata[0];

  TlBlocksModel model;
  tl_blocks_model_init (&model);
  if (o->color && !tl_blocks_color_from_name (o->color, &model.color))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the blocks view colours by “duration” or “start”, not “%s”"), o->color);
      return FALSE;
    }
  model.blocks = run->blocks;
  model.n_blocks = run->n_blocks;
  model.launch = o->launch;
  model.highlight_x = o->tile_x;
  model.highlight_y = o->tile_y;
  model.tile_m = run->block_tile_m;
  model.tile_n = run->block_tile_n;
  const TlJob *job = input->record->job;
  if (job && run->block_tile_m > 0 && run->block_tile_n > 0)
    {
      model.grid_x = (guint) ((job->n + run->block_tile_n - 1) / run->block_tile_n);
      model.grid_y = (guint) ((job->m + run->block_tile_m - 1) / run->block_tile_m);
    }
  g_autofree char *title = tl_render_kernel_title (run);
  g_autofree char *caption = job ? g_strdup_printf (_("C is %zu×%zu"), job->m, job->n) : NULL;
  model.title = title;
  model.caption = caption;
  g_autoptr (TlPlanView) plan = job ? tl_plan_view_new_for_record (input->record, run) : NULL;
  model.plan = plan;
  if (plan && model.tile_m == 0)
    {
      model.tile_m = plan->tile_m;
      model.tile_n = plan->tile_n;
    }
  if (o->launch >= 0 && tl_blocks_model_find (&model, 0, 0) < 0)
    {
      gboolean any = FALSE;
      for (gsize i = 0; i < run->n_blocks && !any; i++)
        any = run->blocks[i].launch == (guint32) o->launch;
      if (!any)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("kernel “%s” has no blocks in launch %d"), run->kernel_id, o->launch);
          return FALSE;
        }
    }
  tl_paint_blocks (cr, &model, style, w, h);
  return TRUE;
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

/* The Blocks page as on screen: the first kernel's tile grid over the
 * timeline of every kernel asked for (the grid gets two fifths of the
 * height when two kernels share the timeline, half for one and in
 * presentation). */
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
  double top = round (h * (runs->len > 1 && !o->presentation ? 0.4 : 0.5));
  TlRenderOptions grid = *o, timeline = *o;
  grid.kernels = ((const TlKernelRun *) runs->pdata[0])->kernel_id;
  timeline.color = o->timeline_color;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, w, top);
  cairo_clip (cr);
  gboolean ok = tl_render_draw_blocks (cr, input, &grid, style, w, top, error);
  cairo_restore (cr);
  if (!ok)
    return FALSE;
  cairo_save (cr);
  cairo_translate (cr, 0, top);
  cairo_rectangle (cr, 0, 0, w, h - top);
  cairo_clip (cr);
  ok = tl_render_draw_timeline (cr, input, &timeline, style, w, h - top, error);
  cairo_restore (cr);
  return ok;
}
