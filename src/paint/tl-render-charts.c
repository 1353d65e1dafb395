/* tl-render-charts.c — the compare, sweep, roofline, lesson and gauss views. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "view/tl-compare-bars.h"
#include "view/tl-gauss-frame.h"
#include "view/tl-lesson.h"
#include "paint/tl-paint-compare.h"
#include "paint/tl-paint-gauss.h"
#include "paint/tl-paint-lesson.h"
#include "paint/tl-paint-roofline.h"
#include "view/tl-render-runs.h"

gboolean
tl_render_draw_compare (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                        const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "compare", error))
    return FALSE;
  g_autoptr (GPtrArray) runs = tl_render_select_runs (input->record, o->kernels, TL_RENDER_NEED_NOTHING, TRUE, error);
  if (runs == NULL)
    return FALSE;

  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  TlCompareModel model;
  tl_compare_model_init (&model);
  /* labelled as the app's Compare page and the roofline label them */
  g_autoptr (GArray) bars = tl_compare_model_fill (&model, input->record->job, runs, TRUE, strings);
  for (guint i = 0; o->selected != NULL && i < bars->len; i++)
    if (g_strcmp0 (g_array_index (bars, TlCompareBar, i).kernel_id, o->selected) == 0)
      model.selected_index = (gint) i;
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
