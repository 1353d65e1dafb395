/* tl-kernel-colors.h — one look per kernel, the same in every chart.
 *
 * A colour means one kernel everywhere: in the Compare bars, the size
 * sweep and the timeline's track headers.  The look comes from the
 * kernel's place in the registries (GEMM kernels, then the Gauss ladder),
 * so it never depends on which kernels a chart happens to show.  Ten
 * colours are told apart by most readers (colour-blind-safe where it
 * matters: the first eight follow Okabe–Ito); beyond them the next ten
 * kernels repeat the colours with another marker (and hatched bars), and
 * so on.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TL_MARKER_CIRCLE = 0,
  TL_MARKER_SQUARE,
  TL_MARKER_TRIANGLE,
  TL_MARKER_DIAMOND,
} TlMarker;

#define TL_KERNEL_COLORS 10
#define TL_MARKER_COUNT 4

typedef struct
{
  double rgb[3];
  TlMarker marker;
  gboolean hatched; /* bars of the second (fourth, …) round of colours */
} TlKernelLook;

/* The look of the kernel with this id (GEMM or LU registry; an unknown
 * id gets a look from its name, the same every time). */
void tl_kernel_look      (const char *kernel_id, TlKernelLook *out);
/* The look of the index-th kernel of the combined registries. */
void tl_kernel_look_at   (guint index, TlKernelLook *out);
/* A marker of radius r (device pixels) centred at (x, y), filled in the
 * current source. */
void tl_paint_marker     (cairo_t *cr, TlMarker marker, double x, double y, double r);
/* Diagonal hatching over the current path's fill area (x, y, w, h), in
 * the given colour: for hatched bars. */
void tl_paint_hatch      (cairo_t *cr, double x, double y, double w, double h, double spacing,
                          double line_width, const double rgba[4]);

G_END_DECLS
