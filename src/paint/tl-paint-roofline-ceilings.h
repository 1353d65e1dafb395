/* tl-paint-roofline-ceilings.h — the roofs' (ceilings') labels as a plan:
 * each label's text, where along its roof it sits and the boxes it takes,
 * placed before any point's label and moved along its roof where it
 * blocks one (tl-paint-roofline-labels.c), drawn last. */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-roofline-layout.h"
#include "paint/tl-paint-roofline-taken.h"
#include "paint/tl-paint-style.h"
#include "view/tl-roofline.h"

G_BEGIN_DECLS

#define TL_ROOFLINE_MAX_CEILINGS 8

/* One roof's label: along a slanted roof ("DRAM 4.02 TB/s", turned), or
 * over or under a flat one ("TF32 535 TFLOP/s", or its name over its rate
 * where one line does not fit). */
typedef struct
{
  char text[160], name[64], rate[64];
  gboolean slanted, below;
  gboolean top;             /* the highest flat roof: no slanted roof over its line */
  double th, gap;           /* its text's height; what it keeps from its flat roof */
  double w, two_w;          /* one line's width; name over rate: the wider */
  double brief_w;           /* its rate alone ("3.85 TB/s", "66.9 TFLOP/s") */
  double xa, ya, xb, yb;    /* the roof from its start to its end (a flat one: knee to edge) */
  /* where it went */
  gboolean placed, two_lines;
  gboolean brief;           /* its rate alone, where its name found no room */
  double x, y;              /* a flat label's top left */
  double cx, cy;            /* a slanted label's centre on its roof */
} TlRoofLabel;

typedef struct
{
  TlRoofLabel label[TL_ROOFLINE_MAX_CEILINGS];
  guint n;
} TlRoofLabels;

/* The highest flat roof, where the slanted ones end (0: none). */
double   tl_roofline_highest_peak (const TlRoofline *m);
/* Each flat roof's peak and its name ("FP32 · FP64 tensor": roofs of one
 * height share a line); returns how many. */
guint    tl_roofline_flat_roofs   (const TlRoofline *m, double *peaks, char names[][64], guint max);

/* The labels' texts and lines, measured, none placed yet. */
void     tl_roof_labels_measure   (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                                   const TlPaintStyle *style, TlRoofLabels *out);
/* Places label c clear of everything taken; returns whether it found room. */
gboolean tl_roof_label_place      (TlRoofLabel *c, const TlRoofline *m, const TlRooflineLayout *lay,
                                   const TlTaken *taken);
/* Adds a placed label's boxes to taken. */
void     tl_roof_label_take       (const TlRoofLabel *c, TlTaken *taken);
void     tl_roof_labels_draw      (cairo_t *cr, const TlPaintStyle *style, const TlRoofLabels *labels);

G_END_DECLS
