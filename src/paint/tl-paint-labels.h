/* tl-paint-labels.h — labels that fit their room and stay told apart.
 *
 * A list of kernels in a narrow column (bar labels, a legend) loses the
 * ends of its names to "…"; two names that differ only at their end
 * ("10 tensor cores (WMMA, TF32)" and "… BF16)", "cuBLAS TF32" and
 * "cuBLAS BF16") would then read the same.  Those keep their distinct
 * endings instead: "10 tensor…TF32)", "cuBL…BF16".
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

/* Each of the n texts fitted to max_w so that texts that differ stay
 * different: cut at their ends, and those that then look alike keep the
 * part where they differ ("head…tail").  A NULL-terminated array. */
char **tl_paint_fit_distinct (cairo_t *cr, const char *const *texts, guint n, double max_w);
/* A legend's n names fitted to label_w each in the style's type (set on
 * cr), as tl_paint_fit_distinct. */
char **tl_paint_legend_labels (cairo_t *cr, const TlPaintStyle *style, const char *const *names,
                               guint n, double label_w);

/* Draws the first of the NULL-terminated choices (longest first: "tile
 * column (blockIdx.x)", "tile column") that fits max_w, or the last cut
 * to fit; anchored as tl_paint_text.  Returns its advance width. */
double tl_paint_text_fit_first (cairo_t *cr, double x, double y, double halign, double valign,
                                double max_w, const char *const *choices);

G_END_DECLS
