/* tl-paint-roofline-labels.c — the roofline's point labels, each as near
 * its marker as the plot leaves room. */
#include "paint/tl-paint-roofline-labels.h"

#include <math.h>
#include <string.h>

#include "gemm/tl-kernels.h"
#include "paint/tl-paint-util.h"

/* ---- the labels ---------------------------------------------------------------- */

/* The number format of a point's math, short: "FP64" for both FP64 units. */
static const char *
short_math (TlMath math)
{
  return math == TL_MATH_FP64_TENSOR ? tl_math_label (TL_MATH_FP64) : tl_math_label (math);
}

/* "01", "16"; "10 TF32" when another point has the same number; for a
 * reference "cuBLAS BF16"; for a kernel off the ladder (a user's), its
 * title: "mine.cu" */
static void
point_label (const TlRoofline *m, guint i, char *buf, gsize size)
{
  const TlRooflinePoint *p = &m->points[i];
  if (p->number <= 0 && p->info != NULL && p->info->reference)
    {
      g_snprintf (buf, size, "cuBLAS %s", short_math (p->math));
      return;
    }
  if (p->number <= 0)
    {
      g_strlcpy (buf, tl_kernel_title (p->info, p->kernel_id), size);
      return;
    }
  gboolean shared = FALSE;
  for (guint j = 0; j < m->n_points; j++)
    shared |= j != i && m->points[j].number == p->number;
  if (shared)
    g_snprintf (buf, size, "%02d %s", p->number, short_math (p->math));
  else
    g_snprintf (buf, size, "%02d", p->number);
}

static void
point_at (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double *x, double *y)
{
  tl_roofline_layout_point (lay, m->points[i].intensity, m->points[i].flops_per_s, x, y);
}

/* How far the box (x, y, w, h) is from (px, py). */
static double
box_distance (double px, double py, double x, double y, double w, double h)
{
  return hypot (px - CLAMP (px, x, x + w), py - CLAMP (py, y, y + h));
}

/* The leader from a marker of radius r at (px, py) to the nearest point
 * of the box (x, y, w, h), from the marker's edge on: x0, y0, x1, y1.
 * Returns its length (0: the box touches the marker, no leader). */
static double
leader_segment (double px, double py, double r, double x, double y, double w, double h, double seg[4])
{
  double nx = CLAMP (px, x, x + w), ny = CLAMP (py, y, y + h), d = hypot (nx - px, ny - py);
  if (d <= r * 1.3)
    return 0;
  seg[0] = px + (nx - px) * r * 1.3 / d;
  seg[1] = py + (ny - py) * r * 1.3 / d;
  seg[2] = nx;
  seg[3] = ny;
  return d - r * 1.3;
}

/* A point's label set away from its point takes its leader too. */
static void
take_label (const TlRoofline *m, const TlRooflineLayout *lay, guint i, const TlPointLabel *spot,
            TlTaken *taken)
{
  double px, py, seg[4];
  tl_taken_add (taken, TL_TAKEN_POINT_LABEL, spot->x, spot->y, spot->w, spot->h);
  point_at (m, lay, i, &px, &py);
  if (spot->far && leader_segment (px, py, lay->marker_r, spot->x, spot->y, spot->w, spot->h, seg) > 0)
    tl_taken_add_leader (taken, seg);
}

/* Whether a label's box (x, y, w, h) could be read as another point's.
 * At its marker's edge: another marker lies about as near the box
 * (within the marker's radius) or nearer; one overlapping its own,
 * nearer.  Away from it, joined by a leader: another marker lies nearer
 * than its own and closer to the box than `keep` (beside it, where the
 * eye would join them first); one overlapping its own cannot be helped. */
static gboolean
nearer_to_another (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double x, double y,
                   double w, double h, gboolean away, double keep)
{
  double px, py;
  point_at (m, lay, i, &px, &py);
  double own = box_distance (px, py, x, y, w, h);
  for (guint j = 0; j < m->n_points; j++)
    {
      double qx, qy;
      point_at (m, lay, j, &qx, &qy);
      gboolean overlaps = hypot (qx - px, qy - py) < 2 * lay->marker_r;
      double limit = away ? (overlaps ? 0 : MIN (own, keep)) : own + (overlaps ? 0 : lay->marker_r);
      if (j != i && box_distance (qx, qy, x, y, w, h) < limit)
        return TRUE;
    }
  return FALSE;
}

/* Whether the leader from point i to the box would pass over another
 * marker, which it would seem to join instead (one on top of point i's
 * aside). */
static gboolean
leader_crosses (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double x, double y,
                double w, double h)
{
  double px, py;
  point_at (m, lay, i, &px, &py);
  double nx = CLAMP (px, x, x + w) - px, ny = CLAMP (py, y, y + h) - py, len2 = nx * nx + ny * ny;
  for (guint j = 0; j < m->n_points && len2 > 0; j++)
    {
      double qx, qy;
      point_at (m, lay, j, &qx, &qy);
      double t = CLAMP (((qx - px) * nx + (qy - py) * ny) / len2, 0, 1);
      /* a marker on top of its own cannot be helped */
      if (j != i && hypot (qx - px, qy - py) > lay->marker_r * 2.5
          && hypot (px + t * nx - qx, py + t * ny - qy) < lay->marker_r * 1.2)
        return TRUE;
    }
  return FALSE;
}

/* How many other markers lie within `radius` of point i. */
static guint
neighbours (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double radius)
{
  double x, y;
  guint n = 0;
  point_at (m, lay, i, &x, &y);
  for (guint j = 0; j < m->n_points; j++)
    {
      double qx, qy;
      point_at (m, lay, j, &qx, &qy);
      n += j != i && hypot (qx - x, qy - y) < radius;
    }
  return n;
}

/* Sixteen ways round a point, the plain ones first: right, left, above,
 * below, the diagonals, then the ways between. */
#define TRIES 16

static const double label_angles[] = { 0, 180, 90, 270, 45, 315, 135, 225,
                                       22.5, 337.5, 157.5, 202.5, 67.5, 292.5, 112.5, 247.5 };

/* Whether a leader from point i to the box (x, y, w, h) would cross a
 * text or another leader (the eye, following it, would be led astray). */
static gboolean
leader_tangles (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double x, double y,
                double w, double h, const TlTaken *taken)
{
  double px, py, seg[4];
  point_at (m, lay, i, &px, &py);
  return leader_segment (px, py, lay->marker_r, x, y, w, h, seg) > 0
         && !tl_taken_leader_is_free (taken, seg);
}

/* Finds point i's label a place as near its marker as it fits: at the
 * marker's edge if it can, else up to two and a half lines out (joined
 * to it by a leader).  Clear of every text and leader by the gaps of
 * taken; at the edge never about as near another point as its own, away
 * never nearer another, and its leader never over a marker, a text or
 * another leader. */
static void
place (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap, guint i,
       TlTaken *taken, TlPointLabel *spot)
{
  double x, y, r = lay->marker_r;
  point_at (m, lay, i, &x, &y);
  for (guint step = 0; step <= spot->reach; step++)
    for (guint d = 0; d < G_N_ELEMENTS (label_angles); d++)
      {
        double a = label_angles[d] * G_PI / 180, c = cos (a), s = sin (a);
        double reach = r + gap + step * th * 0.5;
        /* the box's corner or side nearest the point lies at reach */
        double ax = fabs (c) < 0.3 ? 0.5 : c < 0 ? 1 : 0, ay = fabs (s) < 0.3 ? 0.5 : s > 0 ? 1 : 0;
        double lx = x + c * reach - ax * spot->w, ly = y - s * reach - ay * th;
        if (!tl_taken_is_free (taken, TL_TAKEN_POINT_LABEL, lx, ly, spot->w, th, lay)
            || nearer_to_another (m, lay, i, lx, ly, spot->w, th, step > 0, th)
            || (step > 0 && leader_crosses (m, lay, i, lx, ly, spot->w, th))
            || (step > 0 && leader_tangles (m, lay, i, lx, ly, spot->w, th, taken)))
          continue;
        spot->x = lx;
        spot->y = ly;
        spot->h = th;
        spot->far = step > 0;
        spot->placed = TRUE;
        take_label (m, lay, i, spot, taken);
        return;
      }
}

/* What is taken: the markers and lines (base), the roofs' labels but the
 * one skipped (or none: -1), the points' labels placed. */
static void
compose (const TlRoofline *m, const TlRooflineLayout *lay, const TlTaken *base,
         const TlRoofLabels *roofs, int skip, const TlPointLabel *spots, guint n, TlTaken *out)
{
  *out = *base;
  for (guint c = 0; c < roofs->n; c++)
    if ((int) c != skip)
      tl_roof_label_take (&roofs->label[c], out);
  for (guint i = 0; i < n; i++)
    if (spots[i].placed)
      take_label (m, lay, i, &spots[i], out);
}

/* Places the labels in this order, each beside its point where it fits
 * first, then the ones left set away (joined by leaders); returns how
 * many found room. */
static guint
place_all (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap,
           const guint *order, TlTaken *taken, TlPointLabel *spots)
{
  guint n = 0;
  for (guint k = 0; k < m->n_points; k++)
    {
      guint reach = spots[order[k]].reach;
      spots[order[k]].placed = FALSE;
      spots[order[k]].reach = taken->leader_rule == TL_LEADERS_ANYHOW ? reach : 0;
      place (m, lay, th, gap, order[k], taken, &spots[order[k]]);
      spots[order[k]].reach = reach;
    }
  for (guint k = 0; k < m->n_points; k++)
    {
      if (!spots[order[k]].placed)
        place (m, lay, th, gap, order[k], taken, &spots[order[k]]);
      n += spots[order[k]].placed;
    }
  return n;
}

static int
by_crowding (gconstpointer a, gconstpointer b, gpointer crowd)
{
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const guint *n = crowd;
  return n[ia] != n[ib] ? (n[ia] < n[ib] ? 1 : -1) : (ia > ib) - (ia < ib);
}

/* Point i's label found no room: a roof's label in its way moves along
 * its roof, if it finds room there itself.  Returns whether one did. */
static gboolean
move_a_roof_label (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap, guint i,
                   const TlTaken *base, TlRoofLabels *roofs, TlPointLabel *spots)
{
  g_autofree TlTaken *t = g_new (TlTaken, 1);
  for (guint c = 0; c < roofs->n; c++)
    {
      if (!roofs->label[c].placed)
        continue;
      compose (m, lay, base, roofs, (int) c, spots, m->n_points, t);
      TlPointLabel spot = spots[i];
      place (m, lay, th, gap, i, t, &spot);
      TlRoofLabel moved = roofs->label[c];
      /* moved, never cut to its rate alone nor broken in two lines */
      if (!spot.placed || !tl_roof_label_place (&moved, m, lay, t)
          || moved.brief != roofs->label[c].brief || moved.two_lines != roofs->label[c].two_lines)
        continue;
      roofs->label[c] = moved;
      spots[i] = spot;
      return TRUE;
    }
  return FALSE;
}

/* Point i's label found no room: a neighbour's label in its way moves
 * to another place beside its own point, if it finds one once i's is
 * placed (or, `depth` more times, by moving one in its own way).
 * Returns whether one did. */
static gboolean
move_a_point_label (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap, guint i,
                    const TlTaken *base, const TlRoofLabels *roofs, TlPointLabel *spots, guint depth)
{
  g_autofree TlTaken *t = g_new (TlTaken, 1);
  double x, y;
  point_at (m, lay, i, &x, &y);
  for (guint j = 0; j < m->n_points; j++)
    {
      double qx, qy;
      point_at (m, lay, j, &qx, &qy);
      if (j == i || !spots[j].placed || hypot (qx - x, qy - y) > 8 * th)
        continue;
      TlPointLabel was = spots[j], spot = spots[i];
      spots[j].placed = FALSE;
      compose (m, lay, base, roofs, -1, spots, m->n_points, t);
      place (m, lay, th, gap, i, t, &spot);
      if (!spot.placed)
        {
          spots[j] = was;
          continue;
        }
      place (m, lay, th, gap, j, t, &spots[j]);
      TlPointLabel left_out = spots[i];
      spots[i] = spot;
      if (spots[j].placed
          || (depth > 0 && move_a_point_label (m, lay, th, gap, j, base, roofs, spots, depth - 1)))
        return TRUE;
      spots[i] = left_out;
      spots[j] = was;
    }
  return FALSE;
}

/* One try in this order: each label in turn, then for each left out a
 * roof's label or a neighbour's moved out of its way.  Returns how many
 * found room. */
static guint
try_order (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap,
           const TlTaken *base, const guint *order, TlRoofLabels *roofs, TlPointLabel *spots)
{
  g_autofree TlTaken *taken = g_new (TlTaken, 1);
  compose (m, lay, base, roofs, -1, spots, 0, taken);
  guint n = place_all (m, lay, th, gap, order, taken, spots);
  for (guint k = 0; k < m->n_points; k++)
    if (!spots[order[k]].placed
        && (move_a_roof_label (m, lay, th, gap, order[k], base, roofs, spots)
            || move_a_point_label (m, lay, th, gap, order[k], base, roofs, spots, 2)))
      n++;
  return n;
}

/* The next order: the ones left out first, the others shuffled (the same
 * way every time, so that a picture is drawn the same every time). */
static void
next_order (const TlPointLabel *spots, guint n, GRand *rand, guint *order)
{
  g_autofree guint *next = g_new (guint, n);
  guint k = 0, first;
  for (guint j = 0; j < n; j++)
    if (!spots[order[j]].placed)
      next[k++] = order[j];
  first = k;
  for (guint j = 0; j < n; j++)
    if (spots[order[j]].placed)
      next[k++] = order[j];
  for (guint j = n; j > first + 1; j--)
    {
      guint r = first + (guint) g_rand_int_range (rand, 0, (gint32) (j - first)), t = next[j - 1];
      next[j - 1] = next[r];
      next[r] = t;
    }
  memcpy (order, next, n * sizeof *order);
}

/* How long the leaders of the labels set away from their points are, in
 * all: of two tries that place as many, the one with the shorter leaders
 * keeps the labels nearer their points. */
static double
leaders_length (const TlRoofline *m, const TlRooflineLayout *lay, const TlPointLabel *spots)
{
  double total = 0, seg[4];
  for (guint i = 0; i < m->n_points; i++)
    {
      double px, py;
      point_at (m, lay, i, &px, &py);
      if (spots[i].placed && spots[i].far)
        total += leader_segment (px, py, lay->marker_r, spots[i].x, spots[i].y, spots[i].w,
                                 spots[i].h, seg);
    }
  return total;
}

/* Up to TRIES tries: the crowded points first (crowded_first), while the
 * room beside them is still free; where some find none or some are set
 * away, other orders (the second half with labels farther out).  The try
 * that places the most, with the shortest leaders, goes to best and
 * chosen; returns how many it places. */
static guint
best_of_tries (const TlRoofline *m, const TlRooflineLayout *lay, double th, double gap,
               const TlTaken *gaps, const guint *crowded_first, const TlRoofLabels *roofs,
               TlPointLabel *best, TlRoofLabels *chosen)
{
  g_autofree guint *order = g_memdup2 (crowded_first, m->n_points * sizeof *order);
  g_autofree TlPointLabel *spots = g_memdup2 (best, m->n_points * sizeof *spots);
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  TlRoofLabels tried;
  double best_length = 0;
  guint best_n = 0;
  for (guint attempt = 0; attempt < TRIES && (best_n < m->n_points || best_length > 0); attempt++)
    {
      if (attempt == TRIES / 2)
        memcpy (order, crowded_first, m->n_points * sizeof *order);
      for (guint i = 0; i < m->n_points; i++)
        spots[i].reach = attempt < TRIES / 2 ? 5 : 8;
      tried = *roofs;
      guint n = try_order (m, lay, th, gap, gaps, order, &tried, spots);
      double length = leaders_length (m, lay, spots);
      if (attempt == 0 || n > best_n || (n == best_n && length < best_length))
        {
          best_n = n;
          best_length = length;
          memcpy (best, spots, m->n_points * sizeof *spots);
          *chosen = tried;
        }
      next_order (spots, m->n_points, rand, order);
    }
  return best_n;
}

/* Each label beside its point where it fits, else set away with a
 * leader apart from the other leaders and the texts; where that leaves
 * some out, the tries again with leaders only kept from crossing, then
 * (a label reached by a crossing leader beats none) let cross, kept if
 * they place more.  Where none fits, the legend names the point. */
TlPointLabel *
tl_roofline_place_point_labels (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                                const TlPaintStyle *style, const TlTaken *base, TlRoofLabels *roofs)
{
  TlPointLabel *best = g_new0 (TlPointLabel, MAX (m->n_points, 1));
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  double th = tl_paint_text_height (cr), gap = TL_PX (style, 3);
  g_autofree guint *crowd = g_new0 (guint, m->n_points + 1);
  g_autofree guint *order = g_new0 (guint, m->n_points + 1);
  TlTaken gaps = *base;
  gaps.labels_gap = th * 0.5;
  gaps.roof_gap = TL_PX (style, style->font_size);
  for (guint i = 0; i < m->n_points; i++)
    {
      crowd[i] = neighbours (m, lay, i, th * 3);
      order[i] = i;
      point_label (m, i, best[i].text, sizeof best[i].text);
      best[i].w = tl_paint_text_width (cr, best[i].text);
    }
  g_qsort_with_data (order, m->n_points, sizeof *order, by_crowding, crowd);
  TlRoofLabels chosen = *roofs, loose_roofs;
  g_autofree TlPointLabel *unnamed = g_memdup2 (best, MAX (m->n_points, 1) * sizeof *unnamed);
  g_autofree TlPointLabel *loose = g_new (TlPointLabel, MAX (m->n_points, 1));
  guint n = best_of_tries (m, lay, th, gap, &gaps, order, roofs, best, &chosen);
  for (gaps.leader_rule = TL_LEADERS_UNCROSSED; n < m->n_points && gaps.leader_rule <= TL_LEADERS_ANYHOW;
       gaps.leader_rule++)
    {
      memcpy (loose, unnamed, m->n_points * sizeof *loose);
      guint more = best_of_tries (m, lay, th, gap, &gaps, order, roofs, loose, &loose_roofs);
      if (more > n)
        {
          n = more;
          memcpy (best, loose, m->n_points * sizeof *best);
          chosen = loose_roofs;
        }
    }
  *roofs = chosen;
  return best;
}

/* A thin line from the marker's edge at (x, y) to the nearest point of a
 * label's box, for a label set a little away from its point. */
static void
leader (cairo_t *cr, const TlPaintStyle *style, double x, double y, double r, const TlPointLabel *l)
{
  double seg[4];
  if (leader_segment (x, y, r, l->x, l->y, l->w, l->h, seg) <= 0)
    return;
  cairo_save (cr);
  cairo_set_line_width (cr, TL_LINE (style, 1.0));
  cairo_move_to (cr, seg[0], seg[1]);
  cairo_line_to (cr, seg[2], seg[3]);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
tl_roofline_draw_point_labels (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                               const TlPaintStyle *style, const TlPointLabel *labels)
{
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  tl_paint_set_fg (cr, style);
  for (guint i = 0; i < m->n_points; i++)
    {
      if (!labels[i].placed)
        continue;
      double x, y;
      point_at (m, lay, i, &x, &y);
      tl_paint_text (cr, labels[i].x, labels[i].y, 0, 0, labels[i].text);
      if (labels[i].far)
        leader (cr, style, x, y, lay->marker_r, &labels[i]);
    }
}
