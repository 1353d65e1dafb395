/* tl-paint-roofline-ceilings.c — the roofs' labels: measured, placed
 * along their roofs clear of what is taken, drawn. */
#include "paint/tl-paint-roofline-ceilings.h"

#include <math.h>
#include <string.h>

#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

/* ---- what is in the way: boxes already taken (tl-paint-roofline-taken.h) ---- */

void
tl_taken_add (TlTaken *t, TlTakenKind kind, double x, double y, double w, double h)
{
  if (t->n == TL_ROOFLINE_MAX_TAKEN)
    return;
  t->x[t->n] = x;
  t->y[t->n] = y;
  t->w[t->n] = w;
  t->h[t->n] = h;
  t->kind[t->n] = kind;
  t->n++;
}

static gboolean
is_text (TlTakenKind kind)
{
  return kind == TL_TAKEN_TEXT || kind == TL_TAKEN_POINT_LABEL;
}

/* What a text of kind a keeps beside one of kind b, across. */
static double
gap_across (const TlTaken *t, TlTakenKind a, TlTakenKind b)
{
  if (!is_text (a) || !is_text (b))
    return 0;
  if (a == TL_TAKEN_POINT_LABEL && b == TL_TAKEN_POINT_LABEL)
    return t->text_gap + t->labels_gap;
  if (a != b)
    return t->text_gap + t->roof_gap;
  return t->text_gap;
}

void
tl_taken_add_leader (TlTaken *t, const double seg[4])
{
  if (t->n_leaders < TL_ROOFLINE_MAX_LEADERS)
    memcpy (t->leader[t->n_leaders++], seg, 4 * sizeof (double));
}

/* Whether the segments a and b cross (touching at an end is not crossing). */
static gboolean
segments_cross (const double a[4], const double b[4])
{
  double d1 = (b[2] - b[0]) * (a[1] - b[1]) - (b[3] - b[1]) * (a[0] - b[0]);
  double d2 = (b[2] - b[0]) * (a[3] - b[1]) - (b[3] - b[1]) * (a[2] - b[0]);
  double d3 = (a[2] - a[0]) * (b[1] - a[1]) - (a[3] - a[1]) * (b[0] - a[0]);
  double d4 = (a[2] - a[0]) * (b[3] - a[1]) - (a[3] - a[1]) * (b[2] - a[0]);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/* Whether the segment passes through the box (x, y, w, h): clipped to
 * it (Liang–Barsky), something is left. */
static gboolean
segment_meets_box (const double s[4], double x, double y, double w, double h)
{
  double dx = s[2] - s[0], dy = s[3] - s[1], t0 = 0, t1 = 1;
  double p[4] = { -dx, dx, -dy, dy }, q[4] = { s[0] - x, x + w - s[0], s[1] - y, y + h - s[1] };
  for (int k = 0; k < 4; k++)
    {
      if (p[k] == 0)
        {
          if (q[k] < 0)
            return FALSE;
          continue;
        }
      double r = q[k] / p[k];
      if (p[k] < 0)
        t0 = MAX (t0, r);
      else
        t1 = MIN (t1, r);
    }
  return t0 < t1;
}

/* How far (x, y) is from the segment s, and where along it (0 … 1) the
 * nearest point lies. */
static double
point_to_segment (double x, double y, const double s[4], double *along)
{
  double dx = s[2] - s[0], dy = s[3] - s[1], len2 = dx * dx + dy * dy;
  *along = len2 > 0 ? CLAMP (((x - s[0]) * dx + (y - s[1]) * dy) / len2, 0, 1) : 0;
  return hypot (s[0] + *along * dx - x, s[1] + *along * dy - y);
}

/* Whether two leaders cross or run within `near` of each other: only
 * their starts may be near each other, on markers that overlap, where
 * they part at once, and not straight away from each other (the two
 * would read as one line through both markers). */
static gboolean
leaders_meet (const double a[4], const double b[4], double near)
{
  double ax = a[2] - a[0], ay = a[3] - a[1], bx = b[2] - b[0], by = b[3] - b[1];
  double cosine = (ax * bx + ay * by) / (hypot (ax, ay) * hypot (bx, by) + 1e-9);
  if (segments_cross (a, b) || (hypot (a[0] - b[0], a[1] - b[1]) < 6 * near && cosine < -0.85))
    return TRUE;
  const double *seg[2] = { a, b };
  for (int k = 0; k < 2; k++)
    for (int end = 0; end < 2; end++)
      {
        double along, d = point_to_segment (seg[k][2 * end], seg[k][2 * end + 1], seg[1 - k], &along);
        if (d < near && !(end == 0 && along < 0.05))
          return TRUE;
      }
  return FALSE;
}

gboolean
tl_taken_leader_is_free (const TlTaken *t, const double seg[4])
{
  if (t->leader_rule == TL_LEADERS_ANYHOW)
    return TRUE;
  for (guint i = 0; i < t->n; i++)
    if (is_text (t->kind[i]) && segment_meets_box (seg, t->x[i], t->y[i], t->w[i], t->h[i]))
      return FALSE;
  for (guint i = 0; i < t->n_leaders; i++)
    if (t->leader_rule == TL_LEADERS_APART ? leaders_meet (seg, t->leader[i], t->text_gap * 1.5)
                                           : segments_cross (seg, t->leader[i]))
      return FALSE;
  return TRUE;
}

gboolean
tl_taken_is_free (const TlTaken *t, TlTakenKind self, double x, double y, double w, double h,
                  const TlRooflineLayout *lay)
{
  if (x < lay->plot_x || y < lay->plot_y || x + w > lay->plot_x + lay->plot_w
      || y + h > lay->plot_y + lay->plot_h)
    return FALSE;
  for (guint i = 0; i < t->n; i++)
    {
      double g = is_text (t->kind[i]) && is_text (self) ? t->text_gap : 0;
      double p = gap_across (t, self, t->kind[i]);
      if (x - p < t->x[i] + t->w[i] && t->x[i] < x + w + p && y - g < t->y[i] + t->h[i]
          && t->y[i] < y + h + g)
        return FALSE;
    }
  for (guint i = 0; i < t->n_leaders && is_text (self) && t->leader_rule != TL_LEADERS_ANYHOW; i++)
    if (segment_meets_box (t->leader[i], x - t->text_gap, y - t->text_gap, w + 2 * t->text_gap,
                           h + 2 * t->text_gap))
      return FALSE;
  return TRUE;
}

/* ---- the roofs ------------------------------------------------------------------ */

double
tl_roofline_highest_peak (const TlRoofline *m)
{
  double top = 0;
  for (int k = 0; k < TL_MATH_COUNT; k++)
    top = MAX (top, m->peak[k]);
  return top;
}

guint
tl_roofline_flat_roofs (const TlRoofline *m, double *peaks, char names[][64], guint max)
{
  guint n = 0;
  for (int k = 0; k < TL_MATH_COUNT; k++)
    {
      if (!(m->peak[k] > 0))
        continue;
      guint j = 0;
      while (j < n && fabs (peaks[j] / m->peak[k] - 1.0) > 0.02)
        j++;
      if (j == n && n < max)
        {
          peaks[n] = m->peak[k];
          g_strlcpy (names[n], tl_math_label (k), 64);
          n++;
        }
      else if (j < n)
        {
          g_strlcat (names[j], " · ", 64);
          g_strlcat (names[j], tl_math_label (k), 64);
        }
    }
  return n;
}

/* ---- measuring ---------------------------------------------------------------- */

/* A slanted roof: bandwidth × intensity, up to the highest flat roof;
 * "DRAM 4.02 TB/s" on its lower right side (below), "L2 …" on its upper
 * left. */
static void
measure_slant (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay, double bandwidth,
               const char *name, gboolean below, TlRoofLabel *c)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  double tb = bandwidth / 1e12, top = tl_roofline_highest_peak (m);
  g_ascii_formatd (num, sizeof num, tb >= 9.995 ? "%.1f" : "%.2f", tb);
  g_snprintf (c->text, sizeof c->text, "%s %s TB/s", name, num);
  g_snprintf (c->rate, sizeof c->rate, "%s TB/s", num);
  c->slanted = TRUE;
  c->below = below;
  c->w = c->two_w = tl_paint_text_width (cr, c->text);
  c->brief_w = tl_paint_text_width (cr, c->rate);
  tl_roofline_layout_point (lay, lay->x_lo, bandwidth * lay->x_lo, &c->xa, &c->ya);
  tl_roofline_layout_point (lay, (top > 0 ? top : lay->y_hi) / bandwidth, top > 0 ? top : lay->y_hi,
                            &c->xb, &c->yb);
}

/* A flat roof from its knee on the DRAM roof to the right edge. */
static void
measure_flat (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay, double peak,
              const char *name, TlRoofLabel *c)
{
  tl_format_gflops (peak / 1e9, c->rate, sizeof c->rate);
  g_strlcpy (c->name, name, sizeof c->name);
  g_snprintf (c->text, sizeof c->text, "%s %s", name, c->rate);
  c->w = tl_paint_text_width (cr, c->text);
  c->brief_w = tl_paint_text_width (cr, c->rate);
  c->two_w = MAX (tl_paint_text_width (cr, c->name), c->brief_w);
  double knee = m->dram_bytes_per_s > 0 ? peak / m->dram_bytes_per_s : lay->x_lo;
  tl_roofline_layout_point (lay, MAX (knee, lay->x_lo), peak, &c->xa, &c->ya);
  tl_roofline_layout_point (lay, lay->x_hi, peak, &c->xb, &c->yb);
  c->top = peak >= tl_roofline_highest_peak (m);
}

void
tl_roof_labels_measure (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                        const TlPaintStyle *style, TlRoofLabels *out)
{
  double peaks[TL_MATH_COUNT];
  char names[TL_MATH_COUNT][64];
  memset (out, 0, sizeof *out);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double th = tl_paint_text_height (cr);
  /* the slanted roofs first: their labels have only their line to go along */
  if (m->dram_bytes_per_s > 0)
    measure_slant (cr, m, lay, m->dram_bytes_per_s, "DRAM", TRUE, &out->label[out->n++]);
  if (m->l2_bytes_per_s > 0)
    measure_slant (cr, m, lay, m->l2_bytes_per_s, "L2", FALSE, &out->label[out->n++]);
  guint n = tl_roofline_flat_roofs (m, peaks, names, TL_MATH_COUNT);
  for (guint i = 0; i < n && out->n < TL_ROOFLINE_MAX_CEILINGS; i++)
    measure_flat (cr, m, lay, peaks[i], names[i], &out->label[out->n++]);
  for (guint i = 0; i < out->n; i++)
    {
      out->label[i].th = th;
      out->label[i].gap = TL_PX (style, 3);
    }
}

/* ---- slanted roofs ------------------------------------------------------------- */

#define SLANT_PIECES 8

static double
slant_angle (const TlRoofLabel *c)
{
  return atan2 (c->yb - c->ya, c->xb - c->xa);
}

/* "DRAM 3.85 TB/s", or where that finds no room its rate alone */
static const char *
slant_text (const TlRoofLabel *c, double *width)
{
  *width = c->brief ? c->brief_w : c->w;
  return c->brief ? c->rate : c->text;
}

/* A label turned along a slanted roof, centred at (cx, cy), as upright
 * boxes piece by piece along its length (its one upright box would be
 * much larger than its words). */
static void
slant_pieces (const TlRoofLabel *c, double cx, double cy, double box[SLANT_PIECES][4])
{
  double w, angle = slant_angle (c), off = (c->below ? 0.7 : -0.7) * c->th;
  slant_text (c, &w);
  double pw = w / SLANT_PIECES;
  for (guint k = 0; k < SLANT_PIECES; k++)
    {
      double along = (k + 0.5) * pw - w / 2;
      box[k][2] = fabs (pw * cos (angle)) + fabs (c->th * sin (angle));
      box[k][3] = fabs (pw * sin (angle)) + fabs (c->th * cos (angle));
      box[k][0] = cx + cos (angle) * along - sin (angle) * off - box[k][2] / 2;
      box[k][1] = cy + sin (angle) * along + cos (angle) * off - box[k][3] / 2;
    }
}

static gboolean
slant_is_free (const TlRoofLabel *c, const TlRooflineLayout *lay, const TlTaken *taken, double cx,
               double cy)
{
  double box[SLANT_PIECES][4];
  slant_pieces (c, cx, cy, box);
  for (guint k = 0; k < SLANT_PIECES; k++)
    if (!tl_taken_is_free (taken, TL_TAKEN_TEXT, box[k][0], box[k][1], box[k][2], box[k][3], lay))
      return FALSE;
  return TRUE;
}

/* How far (cx, cy) is from the nearest point. */
static double
distance_to_points (const TlRoofline *m, const TlRooflineLayout *lay, double cx, double cy)
{
  double d = INFINITY;
  for (guint i = 0; i < m->n_points; i++)
    {
      double px, py;
      tl_roofline_layout_point (lay, m->points[i].intensity, m->points[i].flops_per_s, &px, &py);
      d = MIN (d, hypot (px - cx, py - cy));
    }
  return d;
}

/* Along its roof where it is farthest from the points, tried every
 * `step` of its length. */
static gboolean
place_slant_text (TlRoofLabel *c, const TlRoofline *m, const TlRooflineLayout *lay,
                  const TlTaken *taken, double step)
{
  double best_d = -1;
  for (double t = 0.12; t <= 0.8; t += step)
    {
      double cx = c->xa + t * (c->xb - c->xa), cy = c->ya + t * (c->yb - c->ya);
      if (!slant_is_free (c, lay, taken, cx, cy))
        continue;
      double d = distance_to_points (m, lay, cx, cy);
      if (d > best_d)
        {
          best_d = d;
          c->cx = cx;
          c->cy = cy;
        }
    }
  return best_d >= 0;
}

/* The label in full every 4 % of its roof, else every quarter line
 * (between two flat roofs crossing it the room may be only a little
 * longer than the label: DRAM's at 1920×1080 in German), else its rate
 * alone ("3.85 TB/s" on the DRAM roof, which the L2 roof's
 * "L2 7.94 TB/s" over it tells apart). */
static gboolean
place_slant (TlRoofLabel *c, const TlRoofline *m, const TlRooflineLayout *lay, const TlTaken *taken)
{
  double length = hypot (c->xb - c->xa, c->yb - c->ya);
  double fine = length > 0 ? MIN (0.04, c->th * 0.25 / length) : 0.04;
  c->brief = FALSE;
  if (place_slant_text (c, m, lay, taken, 0.04) || place_slant_text (c, m, lay, taken, fine))
    return TRUE;
  c->brief = TRUE;
  return place_slant_text (c, m, lay, taken, fine);
}

/* ---- flat roofs ------------------------------------------------------------------ */

/* Where a box w × h beside the flat roof fits.  First over the line's
 * start, ending at its knee (the top roof's: or left of it): above the
 * slanted roof, where no kernel can be, so the label stays clear of the
 * points.  Else over the line (under
 * it when that is taken) at its right end or as far left as it fits. */
static gboolean
find_flat_spot (TlRoofLabel *c, const TlRooflineLayout *lay, const TlTaken *taken, double w, double h,
                double pad)
{
  double gap = c->gap, step = c->th * 0.5, y = c->ya;
  /* the top roof's label may slide left of its knee, by half its width
   * at most: no slanted roof reaches over the top roof's line */
  for (double x = c->xa - w; x >= MAX (lay->plot_x, c->xa - 1.5 * w) && (x == c->xa - w || c->top);
       x -= step)
    if (tl_taken_is_free (taken, TL_TAKEN_TEXT, x, y - gap - h, w, h, lay))
      {
        c->x = x;
        c->y = y - gap - h;
        return TRUE;
      }
  for (double x = c->xb - w - 2 * gap; x >= MAX (lay->plot_x, c->xa - w - gap); x -= step)
    for (int below = 0; below < 2; below++)
      {
        double top = below ? y + gap : y - gap - h;
        if (tl_taken_is_free (taken, TL_TAKEN_TEXT, x - pad, top, w + 2 * pad, h, lay))
          {
            c->x = x;
            c->y = top;
            return TRUE;
          }
      }
  return FALSE;
}

gboolean
tl_roof_label_place (TlRoofLabel *c, const TlRoofline *m, const TlRooflineLayout *lay,
                     const TlTaken *taken)
{
  if (c->slanted)
    c->placed = place_slant (c, m, lay, taken);
  else
    {
      /* in one line, else its name over its rate, else its rate alone
       * ("66.9 TFLOP/s": a lecturer reads the roof's number still) */
      c->two_lines = c->brief = FALSE;
      c->placed = find_flat_spot (c, lay, taken, c->w, c->th, 0);
      if (!c->placed)
        c->placed = c->two_lines = find_flat_spot (c, lay, taken, c->two_w, 2 * c->th, 0);
      /* … an em clear of the markers beside it: no "66.9 TFLOP/s ■ 09" */
      if (!c->placed)
        c->placed = c->brief = find_flat_spot (c, lay, taken, c->brief_w, c->th, c->th);
    }
  return c->placed;
}

void
tl_roof_label_take (const TlRoofLabel *c, TlTaken *taken)
{
  if (!c->placed)
    return;
  if (!c->slanted)
    {
      tl_taken_add (taken, TL_TAKEN_TEXT, c->x, c->y,
                    c->two_lines ? c->two_w : c->brief ? c->brief_w : c->w,
                    c->two_lines ? 2 * c->th : c->th);
      return;
    }
  double box[SLANT_PIECES][4];
  slant_pieces (c, c->cx, c->cy, box);
  for (guint k = 0; k < SLANT_PIECES; k++)
    tl_taken_add (taken, TL_TAKEN_TEXT, box[k][0], box[k][1], box[k][2], box[k][3]);
}

void
tl_roof_labels_draw (cairo_t *cr, const TlPaintStyle *style, const TlRoofLabels *labels)
{
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < labels->n; i++)
    {
      const TlRoofLabel *c = &labels->label[i];
      if (!c->placed)
        continue;
      if (!c->slanted && !c->two_lines)
        tl_paint_label_on_patch (cr, style, c->x, c->y, 0, 0, NULL, c->brief ? c->rate : c->text);
      else if (!c->slanted)
        {
          tl_paint_label_on_patch (cr, style, c->x, c->y, 0, 0, NULL, c->name);
          tl_paint_label_on_patch (cr, style, c->x, c->y + c->th, 0, 0, NULL, c->rate);
        }
      else
        {
          cairo_save (cr);
          cairo_translate (cr, c->cx, c->cy);
          cairo_rotate (cr, slant_angle (c));
          tl_paint_set_fg (cr, style);
          double w;
          tl_paint_text (cr, 0, (c->below ? 0.7 : -0.7) * c->th, 0.5, 0.5, slant_text (c, &w));
          cairo_restore (cr);
        }
    }
}
