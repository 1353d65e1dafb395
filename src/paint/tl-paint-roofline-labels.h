/* tl-paint-roofline-labels.h — the roofline's label placer, and what the
 * painter shares with it: the boxes already taken on the plot. */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-roofline-layout.h"
#include "paint/tl-paint-style.h"
#include "view/tl-roofline.h"

G_BEGIN_DECLS

#define TL_ROOFLINE_MAX_TAKEN 256

/* What a box taken holds: a marker, a flat roof's line, a text (a roof's
 * label), a point's label (which other labels keep a gap from). */
typedef enum
{
  TL_TAKEN_MARKER,
  TL_TAKEN_LINE,
  TL_TAKEN_TEXT,
  TL_TAKEN_POINT_LABEL,
} TlTakenKind;

#define TL_TAKEN_ANY (~0u)

typedef struct
{
  double x[TL_ROOFLINE_MAX_TAKEN], y[TL_ROOFLINE_MAX_TAKEN];
  double w[TL_ROOFLINE_MAX_TAKEN], h[TL_ROOFLINE_MAX_TAKEN];
  TlTakenKind kind[TL_ROOFLINE_MAX_TAKEN];
  guint n;
  double text_gap; /* what every text keeps from every other: a few device pixels */
} TlTaken;

void     tl_taken_add     (TlTaken *taken, TlTakenKind kind, double x, double y, double w, double h);
/* Whether the box (a text) lies in the plot, clear of every box taken of
 * the kinds in `kinds` (a bit per kind), text_gap from every text, and
 * pad more beside every point's label. */
gboolean tl_taken_is_free (const TlTaken *taken, guint kinds, double x, double y, double w, double h,
                           double pad, const TlRooflineLayout *lay);

/* Every point's label ("07", "10 TF32", "cuBLAS BF16", "mine.cu") as near
 * its marker as it fits, clear of everything taken. */
void     tl_roofline_label_points (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                                   const TlPaintStyle *style, TlTaken *taken);

G_END_DECLS
