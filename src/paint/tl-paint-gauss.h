/* tl-paint-gauss.h — one frame of Gauss elimination, for the step player.
 *
 * Left, the working matrix as a heatmap (tl-paint-heatmap) with the
 * regions of the factorisation drawn on it: L (the multipliers, below the
 * diagonal in the finished columns), U (the finished rows), the current
 * panel of a blocked kernel, the Schur complement still to be eliminated
 * (shrinking step by step), the pivot column and the chosen pivot.  Beside
 * it, aligned with the rows, the magnitudes |a(i,k)| the pivot search
 * compared, the chosen one marked, and an arrow for the row swap.  Right,
 * per block step the time split into panel, swaps, triangular solve and
 * GEMM update as stacked bars (seed 004, Figure 5), and the running facts:
 * growth factor, sign of the determinant, swaps, in GF(p) the determinant
 * mod p.  Small matrices print their values in the cells (exact integers
 * in GF(p) mode).
 */
#pragma once

#include <cairo.h>
#include "view/tl-gauss-frame.h"
#include "paint/tl-paint-heatmap.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef struct
{
  const TlGaussFrame *frame;
  const char *title;       /* NULL: "Gauss elimination · KERNEL" */
  gboolean show_values;    /* print values in cells when they fit (default TRUE) */
  gboolean show_timing;    /* the stacked time-split bars (default TRUE) */
  gboolean record_range;   /* one colour range for every step of the record (the frame's
                              value_range); FALSE (default): each step's own ±max|a| */
} TlGaussModel;

typedef struct
{
  TlHeatmapModel heat;           /* the heatmap as painted (grid, scale) */
  TlHeatmapLayout heat_layout;   /* in canvas pixels */
  double heat_x, heat_y, heat_w, heat_h;  /* where the heatmap painter drew */
  double strip_x, strip_w;       /* pivot-search bars; rows as in the heatmap */
  double chart_x, chart_y, chart_w, chart_h; /* time-split bars (w = 0 when none) */
  double facts_x, facts_y, facts_w, facts_h;
  guint subtitle_lines;          /* the line under the title: 1, or 2 where it is too long */
  double subtitle_size;          /* its type, points */
} TlGaussLayout;

void     tl_gauss_model_init   (TlGaussModel *model);
void     tl_paint_gauss_layout (const TlGaussModel *model, const TlPaintStyle *style,
                                double width, double height, TlGaussLayout *out);
/* Canvas pixel of the centre of matrix element (i, j). */
void     tl_gauss_layout_cell_centre (const TlGaussLayout *layout, double i, double j,
                                      double *out_x, double *out_y);
/* Matrix element under (x, y). */
gboolean tl_gauss_layout_cell_at (const TlGaussLayout *layout, double x, double y,
                                  gsize *out_row, gsize *out_col);
void     tl_paint_gauss        (cairo_t *cr, const TlGaussModel *model,
                                const TlPaintStyle *style, double width, double height);

/* The colours the painter uses for the regions, for legends elsewhere. */
#define TL_GAUSS_RGB_L      0.80, 0.47, 0.65 /* reddish purple */
#define TL_GAUSS_RGB_U      0.00, 0.45, 0.70 /* blue */
#define TL_GAUSS_RGB_SCHUR  0.10, 0.10, 0.10
#define TL_GAUSS_RGB_PANEL  0.00, 0.62, 0.45 /* bluish green */
#define TL_GAUSS_RGB_PIVOT  0.90, 0.45, 0.00 /* orange */

G_END_DECLS
