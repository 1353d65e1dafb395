/* tl-render-heatmap.c — the heatmap view: A, B, C, the reference or the error, pooled. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tl-error.h"
#include "record/tl-record-file.h"
#include "view/tl-pool.h"
#include "paint/tl-paint-heatmap.h"
#include "paint/tl-paint-util.h"
#include "view/tl-render-runs.h"

#define HEATMAP_MAX_CELLS 800
/* SVG and PDF draw one rectangle per cell (crisp at any zoom): fewer of them */
#define HEATMAP_MAX_VECTOR_CELLS 256

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

/* What the heatmap shows: a matrix, its title, the name of its values
 * and how its cells pool. */
typedef struct
{
  TlMatrix *matrix;
  char *title;
  const char *units;
  TlPoolMode mode;
} Shown;

static void
shown_clear (Shown *shown)
{
  g_clear_pointer (&shown->matrix, tl_matrix_unref);
  g_clear_pointer (&shown->title, g_free);
}

/* the view's options: the colour map, the value scale, the pooling */
static gboolean
parse_options (const TlRenderOptions *o, TlColormap *map, TlScale *kind, TlPoolMode *mode, GError **error)
{
  if (o->color && !tl_colormap_from_name (o->color, map))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the heatmap colours with viridis, cividis, rdbu or gray, not “%s”"), o->color);
      return FALSE;
    }
  if (o->value_scale && !tl_scale_from_name (o->value_scale, kind))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the value scale is linear, log or symlog, not “%s”"), o->value_scale);
      return FALSE;
    }
  if (o->pool && !tl_pool_mode_from_name (o->pool, mode))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("cells pool by mean, max or max-abs, not “%s”"), o->pool);
      return FALSE;
    }
  return TRUE;
}

/* the kernel named by kernels, or the first whose C is kept */
static const TlKernelRun *
run_with_c (const TlRunRecord *rec, const char *kernels, GError **error)
{
  const TlKernelRun *run = NULL;
  if (kernels && *kernels)
    run = tl_render_find_kernel (rec, kernels, error);
  else
    for (guint i = 0; i < rec->runs->len && run == NULL; i++)
      {
        const TlKernelRun *r = rec->runs->pdata[i];
        if (r->c || r->c_path)
          run = r;
      }
  if (run == NULL && error && *error == NULL)
    g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                 _("no kernel's C is kept beside the run record (write it with "
                   "`tilelab-cli gemm --record FILE --save-matrices`)"));
  return run;
}

/* C − ref, or on a log scale the error's size |C − ref|: its sign has no
 * logarithm (and is named as what it is, never "value") */
static gboolean
error_of (const TlRunRecord *rec, const TlKernelRun *run, const TlMatrix *c, TlScale kind,
          Shown *shown, GError **error)
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
  shown->matrix = tl_matrix_new (TL_DTYPE_FLOAT64, c->rows, c->cols, error);
  if (shown->matrix == NULL)
    return FALSE;
  gboolean magnitude = kind == TL_SCALE_LOG;
  for (gsize i = 0; i < c->rows; i++)
    for (gsize j = 0; j < c->cols; j++)
      {
        double d = tl_matrix_get (c, i, j) - tl_matrix_get (ref, i, j);
        tl_matrix_set (shown->matrix, i, j, magnitude ? fabs (d) : d);
      }
  shown->title = magnitude ? g_strdup_printf (_("error |C − reference|, %s"), run->kernel_id)
                           : g_strdup_printf (_("error C − reference, %s"), run->kernel_id);
  shown->units = magnitude ? _("|C − ref|") : _("C − ref");
  return TRUE;
}

/* a kernel's C, or its error against the reference */
static gboolean
load_c (const TlRunRecord *rec, const TlRenderOptions *o, gboolean err, TlScale kind, Shown *shown,
        GError **error)
{
  const TlKernelRun *run = run_with_c (rec, o->kernels, error);
  if (run == NULL)
    return FALSE;
  g_autofree char *what = g_strdup_printf (_("C of kernel “%s”"), run->kernel_id);
  g_autoptr (TlMatrix) c = load_named (rec, run->c, run->c_path, TL_RECORD_MATRIX_C, what, error);
  if (c == NULL)
    return FALSE;
  if (!err)
    {
      shown->matrix = g_steal_pointer (&c);
      shown->title = g_strdup_printf (_("C = A·B by %s"), run->kernel_id);
      return TRUE;
    }
  if (!error_of (rec, run, c, kind, shown, error))
    return FALSE;
  if (o->pool == NULL)
    shown->mode = TL_POOL_MAX_ABS;
  return TRUE;
}

/* the matrix o->matrix names: A, B, ref, C or error */
static gboolean
load_shown (const TlRunRecord *rec, const TlRenderOptions *o, TlScale kind, Shown *shown, GError **error)
{
  const char *which = o->matrix ? o->matrix : "C";

  if (g_ascii_strcasecmp (which, "A") == 0)
    {
      shown->matrix = load_named (rec, rec->a, rec->a_path, TL_RECORD_MATRIX_A, "A", error);
      shown->title = g_strdup ("A");
    }
  else if (g_ascii_strcasecmp (which, "B") == 0)
    {
      shown->matrix = load_named (rec, rec->b, rec->b_path, TL_RECORD_MATRIX_B, "B", error);
      shown->title = g_strdup ("B");
    }
  else if (g_ascii_strcasecmp (which, "ref") == 0 || g_ascii_strcasecmp (which, "reference") == 0)
    {
      shown->matrix = load_named (rec, rec->reference, rec->reference_path, TL_RECORD_MATRIX_C,
                                  _("reference"), error);
      shown->title = g_strdup (_("C = A·B, float64 reference"));
    }
  else if (g_ascii_strcasecmp (which, "C") == 0 || g_ascii_strcasecmp (which, "error") == 0)
    return load_c (rec, o, g_ascii_strcasecmp (which, "error") == 0, kind, shown, error);
  else
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("unknown matrix “%s”: use A, B, C, ref or error"), which);
      return FALSE;
    }
  return shown->matrix != NULL;
}

gboolean
tl_render_draw_heatmap (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                        const TlPaintStyle *style, double w, double h, GError **error)
{
  if (!tl_render_need_record (input, "heatmap", error))
    return FALSE;
  Shown shown = { .units = _("value"), .mode = TL_POOL_MEAN };
  TlColormap map = 0;
  TlScale kind = TL_SCALE_LINEAR;

  if (!parse_options (o, &map, &kind, &shown.mode, error))
    return FALSE;
  if (!load_shown (input->record, o, kind, &shown, error))
    {
      shown_clear (&shown);
      return FALSE;
    }

  gsize cells = tl_paint_is_vector (cr) ? HEATMAP_MAX_VECTOR_CELLS : HEATMAP_MAX_CELLS;
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (shown.matrix, 0, 0, 0, 0, cells, cells, shown.mode, NULL, error);
  if (g)
    {
      TlHeatmapModel model;
      tl_heatmap_model_init (&model);
      model.stretch = o->stretch;
      model.grid = g;
      model.title = shown.title;
      model.units = shown.units;
      model.caption = tl_dtype_name (shown.matrix->dtype);
      /* the range of every element, not of the pooled cells */
      model.range = g->range;
      tl_color_scale_init_for_range (&model.scale, o->color ? (gint) map : -1, kind, &g->range);
      tl_paint_heatmap (cr, &model, style, w, h);
    }
  shown_clear (&shown);
  return g != NULL;
}
