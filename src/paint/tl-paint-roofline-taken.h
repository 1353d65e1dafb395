/* tl-paint-roofline-taken.h (kept in tl-paint-roofline-ceilings.c) — the boxes already taken on the roofline's
 * plot (markers, roof lines, roof labels, point labels), which a label
 * placed next must keep clear of. */
#pragma once

#include <glib.h>
#include "paint/tl-paint-roofline-layout.h"

G_BEGIN_DECLS

#define TL_ROOFLINE_MAX_TAKEN 256

/* What a box taken holds: a marker, a flat roof's line, a roof's label
 * (its text), a point's label. */
typedef enum
{
  TL_TAKEN_MARKER,
  TL_TAKEN_LINE,
  TL_TAKEN_TEXT,
  TL_TAKEN_POINT_LABEL,
} TlTakenKind;

typedef struct
{
  double x[TL_ROOFLINE_MAX_TAKEN], y[TL_ROOFLINE_MAX_TAKEN];
  double w[TL_ROOFLINE_MAX_TAKEN], h[TL_ROOFLINE_MAX_TAKEN];
  TlTakenKind kind[TL_ROOFLINE_MAX_TAKEN];
  guint n;
  double text_gap;   /* what every text keeps from every other: a few device pixels */
  double labels_gap; /* beside each other, two points' labels: half a line, so
                      * that they never read as one ("17 cuBLAS FP32") */
  double roof_gap;   /* beside each other, a point's label and a roof's: about
                      * an em, so that "13" never reads into "TF32 535 TFLOP/s" */
} TlTaken;

void     tl_taken_add     (TlTaken *taken, TlTakenKind kind, double x, double y, double w, double h);
/* Whether a box of kind `self` (a text) lies in the plot, clear of every
 * box taken, with the gaps the two kinds keep from each other. */
gboolean tl_taken_is_free (const TlTaken *taken, TlTakenKind self, double x, double y, double w,
                           double h, const TlRooflineLayout *lay);

G_END_DECLS
