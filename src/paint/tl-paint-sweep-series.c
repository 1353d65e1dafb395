/* tl-paint-sweep-series.c — how one line of the size sweep looks and where its points go. */
#include "paint/tl-paint-sweep-series.h"

#include <math.h>

gboolean
tl_sweep_point_ok (const TlSweepSeries *se, guint i)
{
  return se->n[i] > 0 && se->gflops[i] > 0 && isfinite (se->gflops[i]) && isfinite (se->n[i]);
}

void
tl_sweep_series_look (const TlSweepModel *model, guint s, TlKernelLook *look)
{
  if (model->series[s].kernel_id)
    tl_kernel_look (model->series[s].kernel_id, look);
  else
    tl_kernel_look_at (s, look);
}

gboolean
tl_sweep_series_faded (const TlSweepModel *model, guint s)
{
  return model->picked != NULL && g_strcmp0 (model->series[s].kernel_id, model->picked) != 0;
}

void
tl_sweep_series_rgb (const TlSweepModel *model, guint s, const TlPaintStyle *style, double rgb[3])
{
  TlKernelLook look;
  tl_sweep_series_look (model, s, &look);
  double keep = tl_sweep_series_faded (model, s) ? 0.3 : 1.0;
  for (int c = 0; c < 3; c++)
    rgb[c] = keep * look.rgb[c] + (1 - keep) * style->bg[c];
}

void
tl_sweep_set_dash (cairo_t *cr, const TlPaintStyle *style, guint machine)
{
  double u = TL_PX (style, 1);
  switch (machine % 4)
    {
    case 1:
      {
        double d[] = { 8 * u, 4 * u };
        cairo_set_dash (cr, d, 2, 0);
        break;
      }
    case 2:
      {
        double d[] = { 2 * u, 3 * u };
        cairo_set_dash (cr, d, 2, 0);
        break;
      }
    case 3:
      {
        double d[] = { 9 * u, 3 * u, 2 * u, 3 * u };
        cairo_set_dash (cr, d, 4, 0);
        break;
      }
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

void
tl_sweep_layout_point (const TlSweepLayout *lay, double n, double gflops,
                       double *out_x, double *out_y)
{
  double tx = (log2 (n) - log2 (lay->n_lo)) / (log2 (lay->n_hi) - log2 (lay->n_lo));
  double ty = (log10 (gflops) - log10 (lay->g_lo)) / (log10 (lay->g_hi) - log10 (lay->g_lo));
  *out_x = lay->plot_x + tx * lay->plot_w;
  *out_y = lay->plot_y + (1.0 - ty) * lay->plot_h;
}
