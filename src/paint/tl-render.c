/* tl-render.c — the views drawn onto image, SVG and PDF surfaces. */
#include "paint/tl-render.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "record/tl-record-file.h"
#include "view/tl-block-stats.h"
#include "view/tl-compare-bars.h"
#include "view/tl-gauss-frame.h"
#include "view/tl-lesson.h"
#include "view/tl-pool.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-compare.h"
#include "paint/tl-paint-gauss.h"
#include "paint/tl-paint-heatmap.h"
#include "paint/tl-paint-lesson.h"
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-timeline.h"
#include "paint/tl-paint-util.h"

#define DEFAULT_WIDTH 1600.0
#define DEFAULT_HEIGHT 900.0
#define HEATMAP_MAX_CELLS 800
/* SVG and PDF draw one rectangle per cell (crisp at any zoom): fewer of them */
#define HEATMAP_MAX_VECTOR_CELLS 256

static const char *const view_names[] = { "heatmap", "blocks", "timeline", "compare", "gauss",
                                           "sweep", "roofline", "blocks-and-timeline", "lesson",
                                           NULL };

const char *
tl_render_view_name (TlRenderView view)
{
  return (guint) view < G_N_ELEMENTS (view_names) - 1 ? view_names[view] : "?";
}

const char *
tl_render_view_names (void)
{
  static char *names;
  if (g_once_init_enter (&names))
    g_once_init_leave (&names, g_strjoinv (", ", (char **) view_names));
  return names;
}

gboolean
tl_render_view_from_name (const char *name, TlRenderView *out)
{
  for (guint i = 0; view_names[i]; i++)
    if (g_strcmp0 (name, view_names[i]) == 0)
      {
        *out = (TlRenderView) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tl_render_format_for_path (const char *path, TlRenderFormat *out)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_autofree char *lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *out = TL_RENDER_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *out = TL_RENDER_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *out = TL_RENDER_PDF;
  else
    return FALSE;
  return TRUE;
}

void
tl_render_options_init (TlRenderOptions *options)
{
  g_return_if_fail (options != NULL);
  *options = (TlRenderOptions) {0};
  options->launch = -1;
  options->tile_x = options->tile_y = -1;
  options->width = DEFAULT_WIDTH;
  options->height = DEFAULT_HEIGHT;
  options->scale = 1.0;
}

/* ---- input ---------------------------------------------------------------- */

gboolean
tl_render_input_add_run (TlRenderInput *input, TlRunRecord *record, GError **error)
{
  g_return_val_if_fail (input != NULL && record != NULL, FALSE);
  if (input->n_more >= G_N_ELEMENTS (input->more))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("at most %d run records can be stacked"),
                   (int) G_N_ELEMENTS (input->more) + 1);
      tl_run_record_unref (record);
      return FALSE;
    }
  input->more[input->n_more++] = record;
  return TRUE;
}

void
tl_render_input_clear (TlRenderInput *input)
{
  g_return_if_fail (input != NULL);
  g_clear_pointer (&input->record, tl_run_record_unref);
  g_clear_pointer (&input->lu, tl_lu_recorder_free);
  for (guint i = 0; i < input->n_more; i++)
    g_clear_pointer (&input->more[i], tl_run_record_unref);
  input->n_more = 0;
}

/* ---- style ---------------------------------------------------------------- */

void
tl_render_style_init (TlPaintStyle *style, const TlRenderOptions *options,
                      double width, double height, double scale)
{
  /* type grows with the canvas: 18-unit labels on 1600×900 */
  double f = CLAMP (MIN (width / DEFAULT_WIDTH, height / DEFAULT_HEIGHT), 0.5, 4.0);

  if (options->presentation || options->high_contrast)
    {
      tl_paint_style_init_presentation (style, scale, options->high_contrast);
      style->font_size = (options->presentation ? 24.0 : 18.0) * f;
      style->title_font_size = (options->presentation ? 32.0 : 24.0) * f;
      style->line_width = (options->high_contrast ? 2.5 : 2.0) * f;
    }
  else
    {
      tl_paint_style_init (style, scale);
      style->font_size = 18.0 * f;
      style->title_font_size = 24.0 * f;
      style->line_width = 1.5 * f;
    }
}

/* ---- kernels -------------------------------------------------------------- */

static char *
kernel_list (const TlRunRecord *record)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      g_string_append_printf (s, "%s%s", i ? ", " : "", r->kernel_id);
    }
  return g_string_free (s, FALSE);
}

static const TlKernelRun *
find_kernel (const TlRunRecord *record, const char *id, GError **error)
{
  const TlKernelRun *run = tl_run_record_find_run (record, id);
  if (run == NULL)
    {
      g_autofree char *have = kernel_list (record);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("no kernel “%s” in the run record (it has: %s)"), id, have);
    }
  return run;
}

/* What a view needs of a run: nothing, block records, or block records
 * or a plan (the grid shows a planned rung's tiles without timings). */
enum { NEED_NOTHING, NEED_BLOCKS, NEED_BLOCKS_OR_PLAN };

static gboolean
lacks (const TlKernelRun *r, int need)
{
  gboolean no_blocks = r->blocks == NULL || r->n_blocks == 0;
  return need == NEED_BLOCKS ? no_blocks : need == NEED_BLOCKS_OR_PLAN ? no_blocks && !r->has_plan : FALSE;
}

/* The runs a view shows: the ids asked for, or the default. */
static GPtrArray *
select_runs (const TlRunRecord *record, const char *kernels, int need_blocks,
             gboolean all_by_default, GError **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();

  if (kernels != NULL && *kernels)
    {
      g_auto (GStrv) ids = g_strsplit (kernels, ",", -1);
      for (guint i = 0; ids[i]; i++)
        {
          const char *id = g_strstrip (ids[i]);
          if (*id == '\0')
            continue;
          const TlKernelRun *r = find_kernel (record, id, error);
          if (r == NULL)
            return NULL;
          if (lacks (r, need_blocks))
            {
              g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                           _("kernel “%s” has no block records in this run record "
                             "(record it with `tilelab-cli gemm --instrument`)"), id);
              return NULL;
            }
          g_ptr_array_add (runs, (gpointer) r);
        }
    }
  else
    for (guint i = 0; i < record->runs->len; i++)
      {
        const TlKernelRun *r = record->runs->pdata[i];
        if (lacks (r, need_blocks))
          continue;
        g_ptr_array_add (runs, (gpointer) r);
        if (!all_by_default)
          break;
      }

  if (runs->len == 0)
    {
      if (need_blocks)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                     _("no kernel in the run record has block records "
                       "(record the run with `tilelab-cli gemm --instrument`)"));
      else
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("the run record has no kernel runs"));
      return NULL;
    }
  return g_steal_pointer (&runs);
}

static gboolean
need_record (const TlRenderInput *input, const char *view, GError **error)
{
  if (input->record != NULL)
    return TRUE;
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
               _("the “%s” view needs a run record (tilelab-cli gemm --record); "
                 "this file is a Gauss record — use --view gauss"), view);
  return FALSE;
}

/* "gemm-03-smem16 — shared memory 16×16"; a CPU run says on how many
 * threads it ran ("cpu-blocked — cache-blocked, multi-threaded · 1 thread") */
static char *
kernel_title (const TlKernelRun *run)
{
  const TlKernelInfo *info = run->info;
  GString *s = g_string_new (run->kernel_id);
  if (info && info->title && g_strcmp0 (info->title, run->kernel_id) != 0)
    g_string_append_printf (s, " — %s", _(info->title));
  if (run->backend == TL_BACKEND_CPU && run->threads > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, ngettext ("%u thread", "%u threads", run->threads), run->threads);
    }
  return g_string_free (s, FALSE);
}

/* ---- views ---------------------------------------------------------------- */

static gboolean
draw_blocks (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
             const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "blocks", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = select_runs (input->record, o->kernels, NEED_BLOCKS_OR_PLAN, FALSE, error);
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
  g_autofree char *title = kernel_title (run);
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
      g_autoptr (GPtrArray) sel = select_runs (input->record, kernels, NEED_BLOCKS, FALSE, error);
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
      g_autoptr (GPtrArray) sel = select_runs (rec, id, NEED_BLOCKS, FALSE, error);
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
  g_autofree char *title = kernel_title (run);
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

static gboolean
draw_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
               const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "timeline", error))
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
  gboolean ok = TRUE;

  tl_timeline_model_init (&model);
  model.own_time_scale = o->own_time_scale;
  if (o->color && !tl_timeline_color_from_name (o->color, &model.color))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the timeline colours by “duration” or “wave”, not “%s”"), o->color);
      return FALSE;
    }
  for (guint i = 0; i < runs->len && ok; i++)
    {
      const TlKernelRun *run = runs->pdata[i];
      const TlRunRecord *rec = records->pdata[i];
      stats[i] = tl_block_stats_new_for_run (rec, run, o->launch, error);
      if (stats[i] == NULL)
        {
          ok = FALSE;
          break;
        }
      if (stats[i]->n_blocks == 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("kernel “%s” has no blocks in launch %d"), run->kernel_id, o->launch);
          ok = FALSE;
          break;
        }
      labels[i] = track_label (rec, run, input->n_more > 0);
      tracks[i].label = labels[i];
      tracks[i].kernel_id = run->kernel_id;
      tracks[i].blocks = run->blocks;
      tracks[i].n_blocks = run->n_blocks;
      tracks[i].stats = stats[i];
      tracks[i].unit_label = tl_block_unit_label (run->block_unit);
    }
  if (ok)
    {
      model.tracks = tracks;
      model.n_tracks = runs->len;
      /* the tile's block in the first track that has it */
      for (guint i = 0; i < runs->len && o->tile_x >= 0 && o->tile_y >= 0; i++)
        {
          TlBlocksModel bm;
          tl_blocks_model_init (&bm);
          bm.blocks = tracks[i].blocks;
          bm.n_blocks = tracks[i].n_blocks;
          bm.launch = o->launch;
          gssize b = tl_blocks_model_find (&bm, (guint) o->tile_x, (guint) o->tile_y);
          if (b >= 0)
            {
              model.highlight_track = (gint) i;
              model.highlight_block = b;
              break;
            }
        }
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
static gboolean
draw_blocks_and_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                          const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "blocks-and-timeline", error))
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
  gboolean ok = draw_blocks (cr, input, &grid, style, w, top, error);
  cairo_restore (cr);
  if (!ok)
    return FALSE;
  cairo_save (cr);
  cairo_translate (cr, 0, top);
  cairo_rectangle (cr, 0, 0, w, h - top);
  cairo_clip (cr);
  ok = draw_timeline (cr, input, &timeline, style, w, h - top, error);
  cairo_restore (cr);
  return ok;
}

static gboolean
draw_compare (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
              const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "compare", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = select_runs (input->record, o->kernels, NEED_NOTHING, TRUE, error);
  if (runs == NULL)
    return FALSE;

  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  TlCompareModel model;
  tl_compare_model_init (&model);
  g_autoptr (GArray) bars = tl_compare_model_fill (&model, input->record->job, runs, FALSE, strings);
  model.metric = TL_COMPARE_GFLOPS;
  if (o->color && g_strcmp0 (o->color, "time") == 0)
    model.metric = TL_COMPARE_TIME;
  else if (o->color && g_strcmp0 (o->color, "gflops") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the compare view shows gflops or time, not “%s”"), o->color);
      return FALSE;
    }
  tl_paint_compare (cr, &model, style, w, h);
  return TRUE;
}

static gboolean
draw_sweep (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
            const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "sweep", error))
    return FALSE;
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  g_ptr_array_add (records, input->record);
  for (guint i = 0; i < input->n_more; i++)
    g_ptr_array_add (records, input->more[i]);
  g_autoptr (TlSweepData) data = tl_sweep_data_new (records, _("GEMM: GFLOP/s against the problem size"));
  if (data->model.n_series == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the sweep view needs GEMM run records with timed kernels"));
      return FALSE;
    }
  tl_paint_sweep (cr, &data->model, style, w, h);
  return TRUE;
}

/* One point per GPU kernel with counters; --kernel rings one and names its
 * limiter.  A record without counters still draws: the roofs, and the
 * sentence that says why there are no points. */
static gboolean
draw_roofline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
               const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "roofline", error))
    return FALSE;
  g_autoptr (TlRoofline) model = tl_roofline_from_record (input->record);
  int selected = -1;
  for (guint i = 0; o->kernels != NULL && i < model->n_points; i++)
    if (g_strcmp0 (model->points[i].kernel_id, o->kernels) == 0)
      selected = (int) i;
  if (o->kernels != NULL && selected < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("“%s” is not a point of this roofline (a GPU kernel of the record with counters)"),
                   o->kernels);
      return FALSE;
    }
  tl_paint_roofline (cr, model, selected, style, w, h);
  return TRUE;
}

/* A rung beside the rung below it: kernels names the rung (NULL: the top
 * of the record's ladder). */
static gboolean
draw_lesson (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
             const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "lesson", error))
    return FALSE;
  g_autoptr (GError) local = NULL;
  g_autoptr (TlLesson) lesson = tl_lesson_new (input->record, o->kernels, &local);
  if (lesson == NULL)
    {
      if (local == NULL)
        g_set_error (&local, TL_ERROR, TL_ERROR_INVALID,
                     _("“%s” is the first rung of this record: there is none below it to "
                       "compare with"), o->kernels);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  tl_paint_lesson (cr, lesson, input->record, style, w, h);
  return TRUE;
}

static TlMatrix *
load_named (const TlRunRecord *record, TlMatrix *held, const char *path, TlRecordMatrix which,
            const char *what, GError **error)
{
  if (held != NULL)
    return tl_matrix_ref (held);
  if (path == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the run record keeps no %s (write it with `tilelab-cli gemm --record "
                     "FILE --save-matrices`)"), what);
      return NULL;
    }
  return tl_run_record_load_matrix (record, path, which, error);
}

static gboolean
draw_heatmap (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
              const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!need_record (input, "heatmap", error))
    return FALSE;
  TlRunRecord *rec = input->record;
  const char *which = o->matrix ? o->matrix : "C";
  g_autoptr (TlMatrix) m = NULL;
  g_autofree char *title = NULL;
  const char *units = _("value");
  TlPoolMode mode = TL_POOL_MEAN;
  TlColormap map = 0;
  TlScale kind = TL_SCALE_LINEAR;

  if (o->color && !tl_colormap_from_name (o->color, &map))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the heatmap colours with viridis, cividis, rdbu or gray, not “%s”"), o->color);
      return FALSE;
    }
  if (o->value_scale && !tl_scale_from_name (o->value_scale, &kind))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the value scale is linear, log or symlog, not “%s”"), o->value_scale);
      return FALSE;
    }
  if (o->pool && !tl_pool_mode_from_name (o->pool, &mode))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("cells pool by mean, max or max-abs, not “%s”"), o->pool);
      return FALSE;
    }

  if (g_ascii_strcasecmp (which, "A") == 0)
    {
      m = load_named (rec, rec->a, rec->a_path, TL_RECORD_MATRIX_A, "A", error);
      title = g_strdup ("A");
    }
  else if (g_ascii_strcasecmp (which, "B") == 0)
    {
      m = load_named (rec, rec->b, rec->b_path, TL_RECORD_MATRIX_B, "B", error);
      title = g_strdup ("B");
    }
  else if (g_ascii_strcasecmp (which, "ref") == 0 || g_ascii_strcasecmp (which, "reference") == 0)
    {
      m = load_named (rec, rec->reference, rec->reference_path, TL_RECORD_MATRIX_C,
                      _("reference"), error);
      title = g_strdup (_("C = A·B, float64 reference"));
    }
  else if (g_ascii_strcasecmp (which, "C") == 0 || g_ascii_strcasecmp (which, "error") == 0)
    {
      gboolean err = g_ascii_strcasecmp (which, "error") == 0;
      const TlKernelRun *run = NULL;
      if (o->kernels && *o->kernels)
        run = find_kernel (rec, o->kernels, error);
      else
        for (guint i = 0; i < rec->runs->len && run == NULL; i++)
          {
            const TlKernelRun *r = rec->runs->pdata[i];
            if (r->c || r->c_path)
              run = r;
          }
      if (run == NULL)
        {
          if (error && *error == NULL)
            g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                         _("no kernel's C is kept beside the run record (write it with "
                           "`tilelab-cli gemm --record FILE --save-matrices`)"));
          return FALSE;
        }
      g_autofree char *what = g_strdup_printf (_("C of kernel “%s”"), run->kernel_id);
      g_autoptr (TlMatrix) c = load_named (rec, run->c, run->c_path, TL_RECORD_MATRIX_C, what,
                                           error);
      if (c == NULL)
        return FALSE;
      if (!err)
        {
          m = g_steal_pointer (&c);
          title = g_strdup_printf (_("C = A·B by %s"), run->kernel_id);
        }
      else
        {
          g_autoptr (TlMatrix) ref = load_named (rec, rec->reference, rec->reference_path,
                                                 TL_RECORD_MATRIX_C, _("reference"), error);
          if (ref == NULL)
            return FALSE;
          if (ref->rows != c->rows || ref->cols != c->cols)
            {
              g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                           _("C is %zu×%zu but the reference is %zu×%zu"), c->rows, c->cols,
                           ref->rows, ref->cols);
              return FALSE;
            }
          m = tl_matrix_new (TL_DTYPE_FLOAT64, c->rows, c->cols, error);
          if (m == NULL)
            return FALSE;
          /* on a log scale the error's size, |C − ref|: its sign has no logarithm
           * (and is named as what it is, never "value") */
          gboolean magnitude = kind == TL_SCALE_LOG;
          for (gsize i = 0; i < c->rows; i++)
            for (gsize j = 0; j < c->cols; j++)
              {
                double d = tl_matrix_get (c, i, j) - tl_matrix_get (ref, i, j);
                tl_matrix_set (m, i, j, magnitude ? fabs (d) : d);
              }
          title = magnitude ? g_strdup_printf (_("error |C − reference|, %s"), run->kernel_id)
                            : g_strdup_printf (_("error C − reference, %s"), run->kernel_id);
          units = magnitude ? _("|C − ref|") : _("C − ref");
          if (o->pool == NULL)
            mode = TL_POOL_MAX_ABS;
        }
    }
  else
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("unknown matrix “%s”: use A, B, C, ref or error"), which);
      return FALSE;
    }
  if (m == NULL)
    return FALSE;

  gsize cells = tl_paint_is_vector (cr) ? HEATMAP_MAX_VECTOR_CELLS : HEATMAP_MAX_CELLS;
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, cells, cells, mode, NULL, error);
  if (g == NULL)
    return FALSE;
  TlHeatmapModel model;
  tl_heatmap_model_init (&model);
  model.stretch = o->stretch;
  model.grid = g;
  model.title = title;
  model.units = units;
  model.caption = tl_dtype_name (m->dtype);
  /* the range of every element, not of the pooled cells */
  model.range = g->range;
  tl_color_scale_init_for_range (&model.scale, o->color ? (gint) map : -1, kind, &g->range);
  tl_paint_heatmap (cr, &model, style, w, h);
  return TRUE;
}

static gboolean
draw_gauss (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
            const TlPaintStyle *style, double w, double h, GError **error)
{
  if (input->lu == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the gauss view needs a Gauss record: `tilelab-cli lu --record FILE.json`"));
      return FALSE;
    }
  g_autoptr (TlGaussFrame) frame = tl_gauss_frame_new (input->lu, o->step, error);
  if (frame == NULL)
    return FALSE;
  TlGaussModel model;
  tl_gauss_model_init (&model);
  model.frame = frame;
  model.record_range = o->gauss_record_range;
  /* a run record says where it ran: name the GPU and the day in the title */
  g_autofree char *title = NULL;
  if (input->record && input->record->has_device && input->record->device.name[0])
    title = g_strdup_printf (_("Gauss elimination · %s · %s, %.10s"),
                             input->lu->kernel_id ? input->lu->kernel_id : "LU",
                             input->record->device.name,
                             input->record->created ? input->record->created : "");
  model.title = title;
  tl_paint_gauss (cr, &model, style, w, h);
  return TRUE;
}

gboolean
tl_render_draw (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                const TlPaintStyle *style, double width, double height, GError **error)
{
  g_return_val_if_fail (cr != NULL && input != NULL && o != NULL && style != NULL, FALSE);

  switch (o->view)
    {
    case TL_RENDER_HEATMAP:
      return draw_heatmap (cr, input, o, style, width, height, error);
    case TL_RENDER_BLOCKS:
      return draw_blocks (cr, input, o, style, width, height, error);
    case TL_RENDER_TIMELINE:
      return draw_timeline (cr, input, o, style, width, height, error);
    case TL_RENDER_COMPARE:
      return draw_compare (cr, input, o, style, width, height, error);
    case TL_RENDER_GAUSS:
      return draw_gauss (cr, input, o, style, width, height, error);
    case TL_RENDER_SWEEP:
      return draw_sweep (cr, input, o, style, width, height, error);
    case TL_RENDER_ROOFLINE:
      return draw_roofline (cr, input, o, style, width, height, error);
    case TL_RENDER_BLOCKS_AND_TIMELINE:
      return draw_blocks_and_timeline (cr, input, o, style, width, height, error);
    case TL_RENDER_LESSON:
      return draw_lesson (cr, input, o, style, width, height, error);
    default:
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("unknown view"));
      return FALSE;
    }
}
