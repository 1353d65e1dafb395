/* tl-paint-roofline-labels.c — the roofline's point labels, each as near
 * its marker as the plot leaves room. */
#include "paint/tl-paint-roofline-labels.h"

#include <math.h>
#include <string.h>

#include "gemm/tl-kernels.h"
#include "paint/tl-paint-util.h"

/* ---- what is in the way: boxes already taken ------------------------------- */

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

gboolean
tl_taken_is_free (const TlTaken *t, guint kinds, double x, double y, double w, double h, double pad,
                  const TlRooflineLayout *lay)
{
  if (x < lay->plot_x || y < lay->plot_y || x + w > lay->plot_x + lay->plot_w
      || y + h > lay->plot_y + lay->plot_h)
    return FALSE;
  for (guint i = 0; i < t->n; i++)
    {
      if (!(kinds & (1u << t->kind[i])))
        continue;
      gboolean text = t->kind[i] == TL_TAKEN_TEXT || t->kind[i] == TL_TAKEN_POINT_LABEL;
      double g = text ? t->text_gap : 0, p = g + (t->kind[i] == TL_TAKEN_POINT_LABEL ? pad : 0);
      if (x - p < t->x[i] + t->w[i] && t->x[i] < x + w + p && y - g < t->y[i] + t->h[i]
          && t->y[i] < y + h + g)
        return FALSE;
    }
  return TRUE;
}

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

/* Whether a marker other than point i lies about as near the box as point
 * i's, or nearer: a label there could be read as that point's. */
static gboolean
nearer_to_another (const TlRoofline *m, const TlRooflineLayout *lay, guint i, double x, double y,
                   double w, double h)
{
  double px, py;
  point_at (m, lay, i, &px, &py);
  double own = box_distance (px, py, x, y, w, h);
  for (guint j = 0; j < m->n_points; j++)
    {
      double qx, qy;
      point_at (m, lay, j, &qx, &qy);
      if (j != i && box_distance (qx, qy, x, y, w, h) < own + lay->marker_r)
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

/* Where a label went: its box, and whether it sits a little away from
 * its marker (joined to it by a thin line). */
typedef struct
{
  char text[64];
  double x, y, w;
  gboolean placed, far;
} Spot;

/* Sixteen ways round a point, the plain ones first: right, left, above,
 * below, the diagonals, then the ways between. */
static const double label_angles[] = { 0, 180, 90, 270, 45, 315, 135, 225,
                                       22.5, 337.5, 157.5, 202.5, 67.5, 292.5, 112.5, 247.5 };

/* Finds point i's label a place as near its marker as it fits: at the
 * marker's edge if it can, else up to two and a half lines out.  A label
 * keeps half a line from the next one beside it, so that two never read
 * as one ("17 cuBLAS FP32"), one at the edge is never about as near
 * another point as its own, and a leader never passes over a marker. */
static void
place (const TlRoofline *m, const TlRooflineLayout *lay, const TlPaintStyle *style, double th,
       guint i, TlTaken *taken, Spot *spot)
{
  double x, y, r = lay->marker_r, gap = TL_PX (style, 3), pad = th * 0.5;
  point_at (m, lay, i, &x, &y);
  for (guint step = 0; step <= 5; step++)
    for (guint d = 0; d < G_N_ELEMENTS (label_angles); d++)
      {
        double a = label_angles[d] * G_PI / 180, c = cos (a), s = sin (a);
        double reach = r + gap + step * th * 0.5;
        /* the box's corner or side nearest the point lies at reach */
        double ax = fabs (c) < 0.3 ? 0.5 : c < 0 ? 1 : 0, ay = fabs (s) < 0.3 ? 0.5 : s > 0 ? 1 : 0;
        double lx = x + c * reach - ax * spot->w, ly = y - s * reach - ay * th;
        if (!tl_taken_is_free (taken, TL_TAKEN_ANY, lx, ly, spot->w, th, pad, lay)
            || (step == 0 && nearer_to_another (m, lay, i, lx, ly, spot->w, th))
            || (step > 0 && leader_crosses (m, lay, i, lx, ly, spot->w, th)))
          continue;
        tl_taken_add (taken, TL_TAKEN_POINT_LABEL, lx, ly, spot->w, th);
        spot->x = lx;
        spot->y = ly;
        spot->far = step > 0;
        spot->placed = TRUE;
        return;
      }
}

/* Places the labels in this order; returns how many found room. */
static guint
place_all (const TlRoofline *m, const TlRooflineLayout *lay, const TlPaintStyle *style, double th,
           const guint *order, TlTaken *taken, Spot *spots)
{
  guint n = 0;
  for (guint k = 0; k < m->n_points; k++)
    {
      spots[order[k]].placed = FALSE;
      place (m, lay, style, th, order[k], taken, &spots[order[k]]);
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

/* A thin line from the marker's edge at (x, y) to the nearest point of a
 * label's box, for a label set a little away from its point. */
static void
leader (cairo_t *cr, const TlPaintStyle *style, double x, double y, double r, double lx, double ly,
        double w, double h)
{
  double nx = CLAMP (x, lx, lx + w), ny = CLAMP (y, ly, ly + h);
  double d = hypot (nx - x, ny - y);
  if (d <= r * 1.5)
    return;
  cairo_save (cr);
  cairo_set_line_width (cr, TL_LINE (style, 0.8));
  cairo_move_to (cr, x + (nx - x) * r * 1.3 / d, y + (ny - y) * r * 1.3 / d);
  cairo_line_to (cr, nx, ny);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The crowded points first, while the room beside them is still free;
 * the labels that found none then go first in up to seven more tries
 * (with every text a few pixels from the next, a crowded ladder needs
 * more than three), and the try that places the most is drawn.  Where none fits, the legend
 * names the point. */
void
tl_roofline_label_points (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
                          const TlPaintStyle *style, TlTaken *taken)
{
  if (m->n_points == 0)
    return;
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  tl_paint_set_fg (cr, style);
  double th = tl_paint_text_height (cr);
  g_autofree guint *crowd = g_new0 (guint, m->n_points);
  g_autofree guint *order = g_new0 (guint, m->n_points);
  g_autofree Spot *spots = g_new0 (Spot, m->n_points);
  g_autofree Spot *best = g_new0 (Spot, m->n_points);
  g_autofree TlTaken *trial = g_new (TlTaken, 1);
  g_autofree TlTaken *chosen = g_new (TlTaken, 1);
  for (guint i = 0; i < m->n_points; i++)
    {
      crowd[i] = neighbours (m, lay, i, th * 3);
      order[i] = i;
      point_label (m, i, spots[i].text, sizeof spots[i].text);
      spots[i].w = tl_paint_text_width (cr, spots[i].text);
    }
  g_qsort_with_data (order, m->n_points, sizeof *order, by_crowding, crowd);
  guint best_n = 0;
  for (guint attempt = 0; attempt < 8 && best_n < m->n_points; attempt++)
    {
      *trial = *taken;
      guint n = place_all (m, lay, style, th, order, trial, spots);
      if (attempt == 0 || n > best_n)
        {
          best_n = n;
          memcpy (best, spots, m->n_points * sizeof *spots);
          *chosen = *trial;
        }
      /* the ones left out first next time, each group in its order */
      g_autofree guint *next = g_new (guint, m->n_points);
      guint k = 0;
      for (int placed = 0; placed < 2; placed++)
        for (guint j = 0; j < m->n_points; j++)
          if (spots[order[j]].placed == placed)
            next[k++] = order[j];
      memcpy (order, next, m->n_points * sizeof *order);
    }
  *taken = *chosen;
  for (guint i = 0; i < m->n_points; i++)
    {
      if (!best[i].placed)
        continue;
      double x, y;
      point_at (m, lay, i, &x, &y);
      tl_paint_text (cr, best[i].x, best[i].y, 0, 0, best[i].text);
      if (best[i].far)
        leader (cr, style, x, y, lay->marker_r, best[i].x, best[i].y, best[i].w, th);
    }
}
