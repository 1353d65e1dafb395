/* tl-paint-roofline-taken.h (kept in tl-paint-roofline-ceilings.c) — the boxes already taken on the roofline's
 * plot (markers, roof lines, roof labels, point labels) and the leaders
 * drawn to labels set away from their points, which a label (or a
 * leader) placed next must keep clear of. */
#pragma once

#include <glib.h>
#include "paint/tl-paint-roofline-layout.h"

G_BEGIN_DECLS

#define TL_ROOFLINE_MAX_TAKEN 256
#define TL_ROOFLINE_MAX_LEADERS 64

/* What a box taken holds: a marker, a flat roof's line, a roof's label
 * (its text), a point's label. */
typedef enum
{
  TL_TAKEN_MARKER,
  TL_TAKEN_LINE,
  TL_TAKEN_TEXT,
  TL_TAKEN_POINT_LABEL,
} TlTakenKind;

/* How strictly a leader keeps clear of the texts and the other leaders:
 * apart (never crossing nor running close by, nor straight on from
 * another), only not crossing, or (the last resort, where no try keeps
 * them apart) anyhow. */
typedef enum
{
  TL_LEADERS_APART,
  TL_LEADERS_UNCROSSED,
  TL_LEADERS_ANYHOW,
} TlLeaderRule;

typedef struct
{
  double x[TL_ROOFLINE_MAX_TAKEN], y[TL_ROOFLINE_MAX_TAKEN];
  double w[TL_ROOFLINE_MAX_TAKEN], h[TL_ROOFLINE_MAX_TAKEN];
  TlTakenKind kind[TL_ROOFLINE_MAX_TAKEN];
  guint n;
  double leader[TL_ROOFLINE_MAX_LEADERS][4]; /* x0, y0, x1, y1 */
  guint n_leaders;
  TlLeaderRule leader_rule;
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
/* A leader from (x0, y0) to (x1, y1), which no text may cover. */
void     tl_taken_add_leader     (TlTaken *taken, const double seg[4]);
/* Whether a leader would pass clear of every text and cross no leader. */
gboolean tl_taken_leader_is_free (const TlTaken *taken, const double seg[4]);

G_END_DECLS
