/* tl-render-charts.c — the compare, sweep, roofline, lesson and gauss views. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tl-error.h"
#include "view/tl-compare-bars.h"
#include "view/tl-compare-counters.h"
#include "view/tl-gauss-frame.h"
#include "view/tl-lesson.h"
#include "paint/tl-paint-compare.h"
#include "paint/tl-paint-gauss.h"
#include "paint/tl-paint-lesson.h"
#include "paint/tl-paint-roofline.h"
#include "view/tl-render-runs.h"

/* The bars as the Compare page shows them: its runs by title, the picked
 * one marked, time or GFLOP/s, coloured by kernel or by a counter (its
 * legend line in *out_legend).  NULL with error for a choice the page
 * does not offer. */
static GArray *
compare_bars (const TlRenderInput *input, const TlRenderOptions *o, TlCompareModel *model,
              GPtrArray *strings, char **out_legend, GError **error)
{
  g_autoptr (GPtrArray) runs = tl_render_select_runs (input->record, o->kernels, TL_RENDER_NEED_NOTHING, TRUE, error);
  if (runs == NULL)
    return NULL;
  if (o->color && g_strcmp0 (o->color, "time") != 0 && g_strcmp0 (o->color, "gflops") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the compare view shows gflops or time, not “%s”"), o->color);
      return NULL;
    }
  tl_compare_model_init (model);
  /* labelled as the app's Compare page and the roofline label them */
  g_autoptr (GArray) bars = tl_compare_model_fill (model, input->record->job, runs, TRUE, strings);
  for (guint i = 0; o->selected != NULL && i < bars->len; i++)
    if (g_strcmp0 (g_array_index (bars, TlCompareBar, i).kernel_id, o->selected) == 0)
      model->selected_index = (gint) i;
  model->metric = g_strcmp0 (o->color, "time") == 0 ? TL_COMPARE_TIME : TL_COMPARE_GFLOPS;
  g_autoptr (GError) local = NULL;
  *out_legend = tl_compare_bars_color_by_choice ((TlCompareBar *) bars->data, bars->len, input->record,
                                                 o->counter, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return g_steal_pointer (&bars);
}

/* The counter legend as a caption under the bars, wrapped to two lines:
 * its height (0 without one), and drawn when draw is set. */
static double
compare_caption (cairo_t *cr, const TlPaintStyle *style, const char *legend, double w, double h,
                 gboolean draw)
{
  if (legend == NULL)
    return 0;
  double font = TL_PX (style, style->font_size);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double line_h = tl_paint_text_height (cr) * 1.25;
  guint lines = MIN (tl_paint_text_wrap_count (cr, w - font * 1.2, legend), 2);
  double caption_h = lines * line_h + font * 0.6;
  if (draw)
    {
      tl_paint_set_fg (cr, style);
      tl_paint_text_wrap (cr, font * 0.6, h - caption_h, w - font * 1.2, line_h, 2, legend);
    }
  return caption_h;
}

/* a painter's picture in the band x … x + w, y … y + h of the page */
static void
compare_band_begin (cairo_t *cr, double x, double y, double w, double h)
{
  cairo_save (cr);
  cairo_translate (cr, x, y);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_clip (cr);
}

/* The bars' share of the page over the sweep; a page too short for the
 * sweep under them (1600×768: 345 px for 24 lines that need 440) puts the
 * two side by side, half each, where a half keeps 40 ems for the titles
 * and names (presenting's larger type stays over) */
#define BARS_OVER_SWEEP_SHARE 0.55
#define BESIDE_MIN_EM 40

static gboolean
sweep_beside_bars (const TlSweepModel *sweep, const TlPaintStyle *style, double w, double h)
{
  return w / 2 >= TL_PX (style, style->font_size) * BESIDE_MIN_EM
         && h * (1 - BARS_OVER_SWEEP_SHARE) < tl_paint_sweep_min_height (sweep, style, 0);
}

/* the bars with their caption under them, on a w × h band */
static void
compare_bars_band (cairo_t *cr, const TlCompareModel *model, const TlPaintStyle *style,
                   const char *legend, double w, double h)
{
  tl_paint_background (cr, style, w, h);
  double caption_h = compare_caption (cr, style, legend, w, h, FALSE);
  compare_band_begin (cr, 0, 0, w, h - caption_h);
  tl_paint_compare (cr, model, style, w, h - caption_h);
  cairo_restore (cr);
  compare_caption (cr, style, legend, w, h, TRUE);
}

/* The Compare page's picture: its bars as on show (metric, titles, the
 * picked bar, the colours), and with the charts asked for the size sweep
 * of the session's records under them or alone, as the page shows it —
 * the bars alone where the records hold a single size. */
gboolean
tl_render_draw_compare (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                        const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "compare", error))
    return FALSE;
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *legend = NULL;
  TlCompareModel model;
  g_autoptr (GArray) bars = compare_bars (input, o, &model, strings, &legend, error);
  if (bars == NULL)
    return FALSE;

  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  g_autoptr (TlSweepData) sweep = NULL;
  if (o->charts != TL_RENDER_CHARTS_BARS)
    {
      g_ptr_array_add (records, input->record);
      for (guint i = 0; i < input->n_more; i++)
        g_ptr_array_add (records, input->more[i]);
      /* the app's export draws its session's sweep; render, its records' */
      sweep = input->sweep ? tl_sweep_data_new_session (input->sweep, o->sweep_percent)
                           : tl_sweep_data_new_records (records, o->sweep_percent);
    }
  TlRenderCharts charts = sweep && tl_sweep_model_has_sizes (&sweep->model) ? o->charts
                                                                              : TL_RENDER_CHARTS_BARS;
  /* the picked bar's kernel stands out in the sweep too */
  if (sweep)
    sweep->model.picked = o->selected;
  if (charts == TL_RENDER_CHARTS_SWEEP)
    {
      tl_paint_sweep (cr, &sweep->model, style, w, h);
      return TRUE;
    }
  /* in a window the bars take the page's share above the sweep, or the
   * left half beside it */
  gboolean both = charts == TL_RENDER_CHARTS_BARS_OVER_SWEEP;
  gboolean beside = both && sweep_beside_bars (&sweep->model, style, w, h);
  double bars_w = beside ? round (w / 2) : w;
  double bars_h = both && !beside ? round (h * BARS_OVER_SWEEP_SHARE) : h;
  compare_band_begin (cr, 0, 0, bars_w, bars_h);
  compare_bars_band (cr, &model, style, legend, bars_w, bars_h);
  cairo_restore (cr);
  if (both)
    {
      double x = beside ? bars_w : 0, y = beside ? 0 : bars_h;
      compare_band_begin (cr, x, y, w - x, h - y);
      tl_paint_sweep (cr, &sweep->model, style, w - x, h - y);
      cairo_restore (cr);
    }
  return TRUE;
}

gboolean
tl_render_draw_sweep (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                      const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "sweep", error))
    return FALSE;
  g_autoptr (GPtrArray) records = g_ptr_array_new ();
  g_ptr_array_add (records, input->record);
  for (guint i = 0; i < input->n_more; i++)
    g_ptr_array_add (records, input->more[i]);
  g_autoptr (TlSweepData) data = tl_sweep_data_new_records (records, FALSE);
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
gboolean
tl_render_draw_roofline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                         const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "roofline", error))
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
gboolean
tl_render_draw_lesson (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                       const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "lesson", error))
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

gboolean
tl_render_draw_gauss (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
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
