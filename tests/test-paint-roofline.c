/* test-paint-roofline.c — the roofline's painter: labels clear of each other
 * (and two points' labels never run together) at the screens a lecture meets, every point where it belongs and hit by a
 * click there (the model: test-view-roofline.c). */
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "core/tl-locale.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-render.h"
#include "paint-test-util.h"
#include "roofline-test-util.h"

static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };

/* The roofline's area in the app on screens of 1024×768, 1280×800 and
 * 1920×1080: in a window (beside the sidebar, under the page's toolbar)
 * and presenting (the whole screen but the status line). */
static const int window_areas[][2] = { { 638, 525 }, { 900, 555 }, { 1540, 840 } };
static const int presenting_areas[][2] = { { 1024, 730 }, { 1280, 760 }, { 1920, 1040 } };

/* A point's label: "07", "10 TF32", "cuBLAS BF16", a user's kernel "mine.cu". */
static gboolean
is_point_label (const char *text)
{
  return g_regex_match_simple ("^([0-9][0-9]( [A-Z0-9]+)?|cuBLAS [A-Z0-9]+|[^ ]+\\.cu)$", text, 0, 0);
}

static gboolean
in_plot (const TlPaintTextBox *b, const TlRooflineLayout *lay)
{
  return is_point_label (b->text) && b->x >= lay->plot_x && b->y >= lay->plot_y
         && b->x + b->w <= lay->plot_x + lay->plot_w + 0.5 && b->y + b->h <= lay->plot_y + lay->plot_h + 0.5;
}

/* The number format a label's second word names: "FP64" for both FP64 units. */
static gboolean
math_named (TlMath math, const char *word)
{
  const char *label = tl_math_label (math == TL_MATH_FP64_TENSOR ? TL_MATH_FP64 : math);
  return strcmp (word, label) == 0;
}

/* The points a label names: "07" rung 7, "10 TF32" rung 10 in TF32,
 * "cuBLAS BF16" the BF16 reference, "mine.cu" the kernel off the ladder. */
static gboolean
label_names (const TlRoofline *r, const char *text, guint i)
{
  const TlRooflinePoint *p = &r->points[i];
  const char *space = strchr (text, ' ');
  if (g_str_has_prefix (text, "cuBLAS "))
    return p->number <= 0 && p->info && p->info->reference && math_named (p->math, space + 1);
  if (g_ascii_isdigit (text[0]) && g_ascii_isdigit (text[1]))
    return p->number == atoi (text) && (space == NULL || math_named (p->math, space + 1));
  return p->number <= 0 && !(p->info && p->info->reference);
}

/* Every point has its label on the plot; the ones without are named. */
static void
check_all_labelled (const TlRoofline *r, const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay,
                    const char *where)
{
  g_autoptr (GString) missing = g_string_new (NULL);
  for (guint i = 0; i < r->n_points; i++)
    {
      gboolean found = FALSE;
      for (guint b = 0; b < tl_paint_text_boxes_len (boxes) && !found; b++)
        {
          const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
          found = in_plot (box, lay) && label_names (r, box->text, i);
        }
      if (!found)
        g_string_append_printf (missing, " “%s”", tl_kernel_title (r->points[i].info, r->points[i].kernel_id));
    }
  if (missing->len > 0)
    g_error ("%s: no label for%s", where, missing->str);
}

/* How far the box is from the marker of point i, and whether it names it. */
static double
marker_distance (const TlRoofline *r, const TlRooflineLayout *lay, guint i, const TlPaintTextBox *box)
{
  double x, y;
  tl_roofline_layout_point (lay, r->points[i].intensity, r->points[i].flops_per_s, &x, &y);
  return hypot (x - CLAMP (x, box->x, box->x + box->w), y - CLAMP (y, box->y, box->y + box->h));
}

/* Whether a pixel within one of (x, y) is drawn darker than the white
 * background: a leader's line passes there. */
static gboolean
drawn_near (cairo_surface_t *s, double x, double y)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        guint32 p = tl_test_pixel (s, x + dx, y + dy);
        if (((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff) < 3 * 200)
          return TRUE;
      }
  return FALSE;
}

/* Whether a label own px from its marker's centre is set away from it
 * (a leader joins them), not at its edge: farther than the marker's
 * radius, its 0.6 more and the placer's gap (3 px at scale 1, 0.6 of a
 * radius too, both grown with the style's scale). */
static gboolean
set_away (const TlRooflineLayout *lay, double own)
{
  return own > lay->marker_r * 2.2;
}

/* No point's label reads as another point's: at its marker's edge no
 * other marker is nearer it; set away, a leader joins it to its marker
 * and no other marker is nearer it within a line of it ("cuBLAS BF16"
 * beside the TF32 triangle).  A marker overlapping its own is let be. */
static void
check_labels_own_marker (const TlRoofline *r, const TlPaintTextBoxes *boxes,
                         const TlRooflineLayout *lay, cairo_surface_t *s)
{
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      double own = INFINITY, ox = 0, oy = 0;
      for (guint i = 0; in_plot (box, lay) && i < r->n_points; i++)
        if (label_names (r, box->text, i) && marker_distance (r, lay, i, box) < own)
          {
            own = marker_distance (r, lay, i, box);
            tl_roofline_layout_point (lay, r->points[i].intensity, r->points[i].flops_per_s, &ox, &oy);
          }
      if (!isfinite (own))
        continue;
      gboolean away = set_away (lay, own);
      double nx = CLAMP (ox, box->x, box->x + box->w), ny = CLAMP (oy, box->y, box->y + box->h);
      double t = (lay->marker_r * 1.3 + own) / 2 / own;
      if (away && s != NULL && !drawn_near (s, ox + (nx - ox) * t, oy + (ny - oy) * t))
        g_error ("label “%s” %.0f px from its point, no leader", box->text, own);
      for (guint j = 0; j < r->n_points; j++)
        {
          double x, y;
          tl_roofline_layout_point (lay, r->points[j].intensity, r->points[j].flops_per_s, &x, &y);
          double d = marker_distance (r, lay, j, box);
          if (label_names (r, box->text, j) || hypot (x - ox, y - oy) < 2 * lay->marker_r)
            continue;
          if (d < own - 0.5 && (!away || d < box->h - 0.5))
            g_error ("label “%s” %.0f px from another point's marker, %.0f px from its own", box->text, d, own);
        }
    }
}

/* Beside a roof's label, a point's keeps about an em: "13" never reads
 * into "TF32 535 TFLOP/s" as "13 TF32 535 TFLOP/s". */
static void
check_apart_from_roof_labels (const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay, double em)
{
  for (guint a = 0; a < tl_paint_text_boxes_len (boxes); a++)
    {
      const TlPaintTextBox *p = tl_paint_text_boxes_index (boxes, a);
      if (!in_plot (p, lay))
        continue;
      for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
        {
          const TlPaintTextBox *c = tl_paint_text_boxes_index (boxes, b);
          gboolean roof = (g_str_has_suffix (c->text, "FLOP/s") || strstr (c->text, "FP") || strstr (c->text, "TF32")
                           || strstr (c->text, "BF16")) && !is_point_label (c->text);
          gboolean upright = c->corner_y[0] == c->corner_y[1];
          if (!roof || !upright || p->y >= c->y + c->h || c->y >= p->y + p->h)
            continue;
          double gap = MAX (c->x - (p->x + p->w), p->x - (c->x + c->w));
          if (gap < em - 0.5)
            g_error ("point label “%s” %.1f px beside roof label “%s” (em %.0f px)", p->text, gap, c->text, em);
        }
    }
}

/* Every point's label lies near its point: within four lines of the
 * marker's edge (a leader joins the farther ones). */
static void
check_labels_near (const TlRoofline *r, const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay)
{
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      if (!in_plot (box, lay))
        continue;
      double nearest = INFINITY;
      for (guint i = 0; i < r->n_points; i++)
        {
          double x, y;
          if (!label_names (r, box->text, i))
            continue;
          tl_roofline_layout_point (lay, r->points[i].intensity, r->points[i].flops_per_s, &x, &y);
          nearest = MIN (nearest, hypot (x - CLAMP (x, box->x, box->x + box->w),
                                         y - CLAMP (y, box->y, box->y + box->h)));
        }
      if (nearest > lay->marker_r * 1.6 + 4 * box->h + 3)
        g_error ("label “%s” %.0f px from its point (text %.0f px tall)", box->text, nearest, box->h);
    }
}

/* Every flat roof is labelled (roofs of one height share a label), and
 * both slanted ones. */
static void
check_roofs_labelled (const TlRoofline *r, const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay)
{
  guint roofs = 0, labels = 0;
  for (int k = 0; k < TL_MATH_COUNT; k++)
    {
      gboolean seen = FALSE;
      for (int j = 0; j < k; j++)
        seen |= r->peak[j] > 0 && fabs (r->peak[j] / r->peak[k] - 1.0) <= 0.02;
      roofs += r->peak[k] > 0 && !seen;
    }
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      labels += g_str_has_suffix (box->text, "FLOP/s") && box->y + box->h <= lay->plot_y + lay->plot_h;
    }
  g_assert_cmpuint (labels, ==, roofs);
  if (r->dram_bytes_per_s > 0)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, "DRAM "));
  if (r->l2_bytes_per_s > 0)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, "L2 "));
}

/* Two points' labels side by side keep half a line's height apart, so
 * they never read as one ("17 cuBLAS FP32"); returns how many there are. */
static guint
check_point_labels_apart (const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay)
{
  guint n = 0;
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    {
      const TlPaintTextBox *a = tl_paint_text_boxes_index (boxes, i);
      if (!in_plot (a, lay))
        continue;
      n++;
      for (guint j = i + 1; j < tl_paint_text_boxes_len (boxes); j++)
        {
          const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, j);
          if (!in_plot (b, lay) || a->y >= b->y + b->h || b->y >= a->y + a->h)
            continue;
          double gap = MAX (b->x - (a->x + a->w), a->x - (b->x + b->w));
          if (gap < 0.45 * a->h)
            g_error ("point labels “%s” and “%s” only %.1f px apart", a->text, b->text, gap);
        }
    }
  return n;
}

static TlPaintTextBoxes *
draw_and_check (const TlRoofline *r, int selected, const TlPaintStyle *style, int w, int h,
                cairo_surface_t **out_surface)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_roofline (cr, r, selected, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  TlRooflineLayout lay;
  tl_paint_roofline_layout (r, style, cr, w, h, &lay);
  cairo_destroy (cr);
  g_autoptr (GString) report = g_string_new (NULL);
  guint problems = tl_paint_text_boxes_check (boxes, w, h, report);
  if (problems > 0)
    g_error ("roofline at %d×%d, scale %.1f, selected %d: %u problems:\n%s", w, h, style->scale,
             selected, problems, report->str);
  /* the roofs are labelled with their numbers and units */
  if (r->peak[TL_MATH_BF16] > 0)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, "BF16 1071 TFLOP/s"));
  if (r->dram_bytes_per_s > 0)
    {
      g_autofree char *dram = g_strdup_printf ("DRAM %.2f TB/s", r->dram_bytes_per_s / 1e12);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, dram));
    }
  if (selected >= 0)
    {
      /* whole, perhaps on two lines */
      g_autofree char *limit = tl_roofline_limiter_text (r, &r->points[selected]);
      g_autoptr (GString) all = g_string_new (NULL);
      for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
        g_string_append_printf (all, "%s ", tl_paint_text_boxes_index (boxes, b)->text);
      g_assert_nonnull (strstr (all->str, limit));
    }
  if (r->note != NULL)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, r->note));
  check_roofs_labelled (r, boxes, &lay);
  check_labels_near (r, boxes, &lay);
  check_labels_own_marker (r, boxes, &lay, s);
  check_apart_from_roof_labels (boxes, &lay, TL_PX (style, style->font_size));
  /* on a projector's screen every point gets its label */
  guint labelled = check_point_labels_apart (boxes, &lay);
  if (w >= 1280)
    g_assert_cmpuint (labelled, ==, r->n_points);
  if (out_surface)
    *out_surface = s;
  else
    cairo_surface_destroy (s);
  return g_steal_pointer (&boxes);
}

static void
test_paint_layout (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int mode = 0; mode < 3; mode++)
      for (int sel = -1; sel < (int) r->n_points; sel++)
        {
          TlPaintStyle style;
          if (mode == 1)
            tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
          else
            tl_paint_style_init (&style, 1.0);
          tl_paint_style_set_high_contrast (&style, mode == 2);
          tl_paint_text_boxes_free (draw_and_check (r, sel, &style, sizes[k][0], sizes[k][1], NULL));
        }
}

/* Every point is drawn in its kernel's colour where the layout puts it,
 * and a click there finds it. */
static void
test_paint_points (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  cairo_surface_t *s = NULL;
  tl_paint_text_boxes_free (draw_and_check (r, -1, &style, 1280, 800, &s));
  cairo_t *cr = cairo_create (s);
  TlRooflineLayout lay;
  tl_paint_roofline_layout (r, &style, cr, 1280, 800, &lay);
  cairo_destroy (cr);
  for (guint i = 0; i < r->n_points; i++)
    {
      double x, y;
      TlKernelLook look;
      tl_roofline_layout_point (&lay, r->points[i].intensity, r->points[i].flops_per_s, &x, &y);
      tl_kernel_look (r->points[i].kernel_id, &look);
      tl_assert_pixel_near (s, x, y, tl_test_rgb ((int) round (look.rgb[0] * 255),
                                                  (int) round (look.rgb[1] * 255),
                                                  (int) round (look.rgb[2] * 255)), 8);
      g_assert_cmpint (tl_roofline_layout_hit (&lay, r, x + 1, y - 1), ==, (int) i);
    }
  g_assert_cmpint (tl_roofline_layout_hit (&lay, r, lay.plot_x + 2, lay.plot_y + 2), ==, -1);
  cairo_surface_destroy (s);
}

/* The roofline of a record of docs/records with counters. */
static TlRoofline *
docs_roofline (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "records", name, NULL);
  TlRenderInput input;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (&input, path, &error));
  TlRoofline *r = tl_roofline_from_record (input.record);
  tl_render_input_clear (&input);
  return r;
}

/* The H200 ladder of docs/records with its counters. */
static TlRoofline *
ladder_roofline (void)
{
  return docs_roofline ("h200-gemm-4096-fp32-counters.json");
}

static void
init_style (TlPaintStyle *style, gboolean presenting)
{
  if (presenting)
    tl_paint_style_init_presentation (style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  else
    tl_paint_style_init (style, 1.0);
}

/* The H200 ladder of docs/records (nineteen points, eight of them within
 * a factor of two of each other under the FP32 roof) at every screen,
 * window and presenting: every point labelled where the screen is a
 * projector's, and no two labels run together. */
static void
test_paint_ladder (void)
{
  g_autoptr (TlRoofline) r = ladder_roofline ();
  g_assert_cmpuint (r->n_points, >=, 15);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int presenting = 0; presenting < 2; presenting++)
      {
        TlPaintStyle style;
        init_style (&style, presenting);
        tl_paint_text_boxes_free (draw_and_check (r, -1, &style, sizes[k][0], sizes[k][1], NULL));
      }
}

/* The legend beside the plot names every point whole (none ends in "…"),
 * and the plot keeps at least share of the page's height: at 1920×1080
 * presenting the legend took two columns of names cut to "03 sha…16×16",
 * "cuBLAS SGEM…" (in German too). */
static void
check_legend_whole (const TlRoofline *r, const TlPaintTextBoxes *boxes, const TlRooflineLayout *lay,
                    double height, double share, const char *where)
{
  guint entries = 0, cut = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      if (box->x < lay->legend_x - 0.5 || box->y < lay->legend_y - 0.5
          || box->y > lay->legend_y + lay->legend.rows * lay->legend.row_h)
        continue;
      entries++;
      if (strstr (box->text, "…") != NULL)
        {
          g_printerr ("%s: legend name cut: “%s”\n", where, box->text);
          cut++;
        }
    }
  g_assert_cmpuint (entries, ==, r->n_points);
  if (cut > 0)
    g_error ("%s: %u of %u legend names cut", where, cut, entries);
  if (lay->plot_h < share * height)
    g_error ("%s: the plot takes %.0f%% of the page's height, under %.0f%%", where,
             100 * lay->plot_h / height, 100 * share);
}

/* The ladder as the app shows it, in a window and presenting at
 * 1024×768, 1280×800 and 1920×1080: every point labelled near its point,
 * every roof labelled, presenting no text under 14 px. */
static void
test_paint_app_areas (void)
{
  g_autoptr (TlRoofline) r = ladder_roofline ();
  for (guint k = 0; k < G_N_ELEMENTS (window_areas); k++)
    for (int presenting = 0; presenting < 2; presenting++)
      for (int sel = -1; sel < (int) r->n_points; sel += 6)
        {
          TlPaintStyle style;
          const int *area = presenting ? presenting_areas[k] : window_areas[k];
          init_style (&style, presenting);
          g_autoptr (TlPaintTextBoxes) boxes = draw_and_check (r, sel, &style, area[0], area[1], NULL);
          cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 4, 4);
          cairo_t *cr = cairo_create (s);
          TlRooflineLayout lay;
          tl_paint_roofline_layout (r, &style, cr, area[0], area[1], &lay);
          cairo_destroy (cr);
          cairo_surface_destroy (s);
          g_autofree char *where = g_strdup_printf ("%d×%d %s, selected %d", area[0], area[1],
                                                    presenting ? "presenting" : "window", sel);
          check_all_labelled (r, boxes, &lay, where);
          check_point_labels_apart (boxes, &lay);
          /* the legend's names whole but in the 638 px window of a
           * 1024×768 screen, where "16 double-buffered, 4×8 warps,
           * planned" still loses its end */
          if (sel == -1 && (presenting || k > 0))
            check_legend_whole (r, boxes, &lay, area[1], 0.6, where);
          for (guint b = 0; presenting && b < tl_paint_text_boxes_len (boxes); b++)
            {
              const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
              double tall = box->w > box->h * 3 ? box->h : MIN (box->w, box->h);
              if (tall < 14 && box->h < 14)
                g_error ("“%s” only %.0f px tall presenting", box->text, box->h);
            }
        }
}

/* Where a point's label set away from its marker has its leader: from the
 * marker's edge to the box's nearest point (as the painter draws it).
 * FALSE for a label at its marker's edge or one not a point's. */
static gboolean
leader_of (const TlRoofline *r, const TlRooflineLayout *lay, const TlPaintTextBox *box,
           double seg[4])
{
  double own = INFINITY;
  for (guint i = 0; in_plot (box, lay) && i < r->n_points; i++)
    if (label_names (r, box->text, i) && marker_distance (r, lay, i, box) < own)
      {
        own = marker_distance (r, lay, i, box);
        tl_roofline_layout_point (lay, r->points[i].intensity, r->points[i].flops_per_s, &seg[0], &seg[1]);
      }
  if (!isfinite (own) || !set_away (lay, own))
    return FALSE;
  seg[2] = CLAMP (seg[0], box->x, box->x + box->w);
  seg[3] = CLAMP (seg[1], box->y, box->y + box->h);
  /* drawn from the marker's edge on */
  double d = hypot (seg[2] - seg[0], seg[3] - seg[1]), t = lay->marker_r * 1.3 / d;
  seg[0] += (seg[2] - seg[0]) * t;
  seg[1] += (seg[3] - seg[1]) * t;
  return TRUE;
}

/* Whether the segments a and b cross (not merely touch at an end):
 * a0 + s·(a1 − a0) = b0 + t·(b1 − b0) with s and t inside (0, 1). */
static gboolean
segments_cross (const double a[4], const double b[4])
{
  double rx = a[2] - a[0], ry = a[3] - a[1], qx = b[2] - b[0], qy = b[3] - b[1];
  double denom = rx * qy - ry * qx;
  if (fabs (denom) < 1e-9)
    return FALSE;
  double sa = ((b[0] - a[0]) * qy - (b[1] - a[1]) * qx) / denom;
  double tb = ((b[0] - a[0]) * ry - (b[1] - a[1]) * rx) / denom;
  return sa > 1e-6 && sa < 1 - 1e-6 && tb > 1e-6 && tb < 1 - 1e-6;
}

/* Whether the segment passes through the box, shrunk by a pixel. */
static gboolean
segment_through_box (const double s[4], const TlPaintTextBox *box)
{
  double x0 = box->x + 1, y0 = box->y + 1, x1 = box->x + box->w - 1, y1 = box->y + box->h - 1;
  double sides[4][4] = { { x0, y0, x1, y0 }, { x1, y0, x1, y1 }, { x1, y1, x0, y1 }, { x0, y1, x0, y0 } };
  for (int k = 0; k < 4; k++)
    if (segments_cross (s, sides[k]))
      return TRUE;
  return FALSE;
}

/* No two leaders cross, and none runs through another label: the eye
 * follows a leader to its label and must not be led astray. */
static void
check_leaders_clear (const TlRoofline *r, const TlPaintTextBoxes *boxes,
                     const TlRooflineLayout *lay, const char *where)
{
  guint n = tl_paint_text_boxes_len (boxes);
  for (guint a = 0; a < n; a++)
    {
      double sa[4], sb[4];
      const TlPaintTextBox *ba = tl_paint_text_boxes_index (boxes, a);
      if (!leader_of (r, lay, ba, sa))
        continue;
      for (guint b = 0; b < n; b++)
        {
          const TlPaintTextBox *bb = tl_paint_text_boxes_index (boxes, b);
          gboolean upright = bb->corner_y[0] == bb->corner_y[1];
          if (b != a && leader_of (r, lay, bb, sb) && segments_cross (sa, sb))
            g_error ("%s: the leaders of “%s” and “%s” cross", where, ba->text, bb->text);
          if (b != a && upright && segment_through_box (sa, bb))
            g_error ("%s: the leader of “%s” runs through “%s”", where, ba->text, bb->text);
        }
    }
}

/* The ladder as `tilelab-cli render -p` draws it on a whole screen of
 * 1024×768, 1280×800 and 1920×1080 (type grown with the canvas): every
 * point labelled, each label nearer its own marker than another's (or
 * joined to it by a leader), the DRAM roof's bandwidth written on it;
 * at 1024×768 no two leaders crossing nor one running through a label.
 * In German too (test-paint-roofline-render-de): "DRAM 3.85 TB/s" and
 * "cuBLAS BF16" were left out at 1920×1080; leaders crossed at 1024×768
 * ("08" and "17"; "09" ran through "07").  The legend's names whole and the
 * plot at least 60% of the page's height. */
static void
test_paint_render_sizes (void)
{
  g_autoptr (TlRoofline) r = ladder_roofline ();
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      TlPaintStyle style;
      TlRenderOptions render;
      tl_render_options_init (&render);
      render.presentation = TRUE;
      tl_render_style_init (&style, &render, sizes[k][0], sizes[k][1], 1.0);
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, sizes[k][0], sizes[k][1]);
      cairo_t *cr = cairo_create (s);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_roofline (cr, r, -1, &style, sizes[k][0], sizes[k][1]);
      TlRooflineLayout lay;
      tl_paint_roofline_layout (r, &style, cr, sizes[k][0], sizes[k][1], &lay);
      cairo_destroy (cr);
      g_autofree char *where = g_strdup_printf ("render -p %d×%d", sizes[k][0], sizes[k][1]);
      check_all_labelled (r, boxes, &lay, where);
      check_labels_own_marker (r, boxes, &lay, s);
      /* larger, the top right cluster's labels still need crossing
       * leaders to be placed at all */
      if (k == 0)
        check_leaders_clear (r, boxes, &lay, where);
      check_legend_whole (r, boxes, &lay, sizes[k][1], 0.6, where);
      if (tl_paint_text_boxes_find (boxes, "3.85 TB/s") == NULL)
        g_error ("%s: the DRAM roof's bandwidth not written", where);
      cairo_surface_destroy (s);
    }
}

/* On a narrow page (the roofline beside the sidebar, a half screen) the
 * title and the caption wrap rather than end in "…": the title over the
 * plot, the caption under the x axis's title (from 529 px on: the caption's
 * line for no selection keeps its shortest wording cut below), every
 * label clear of the others (narrower, the roofs' labels give way). */
static void
check_nothing_cut (const TlRoofline *r, int selected, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_roofline (cr, r, selected, style, w, h);
  TlRooflineLayout lay;
  tl_paint_roofline_layout (r, style, cr, w, h, &lay);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  g_autoptr (GString) report = g_string_new (NULL);
  if (w >= 529 && tl_paint_text_boxes_check (boxes, w, h, report) > 0)
    g_error ("roofline at %d×%d, scale %.1f, selected %d:\n%s", w, h, style->scale, selected, report->str);
  g_autoptr (GString) title = g_string_new (NULL);
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      gboolean over = box->y + box->h <= lay.plot_y, under = box->y >= lay.caption_y - 0.5;
      if ((over || (under && w >= 529)) && strstr (box->text, "…") != NULL)
        g_error ("“%s” cut at %d×%d, scale %.1f, selected %d", box->text, w, h, style->scale, selected);
      if (over)
        g_string_append_printf (title, "%s%s", title->len ? " " : "", box->text);
    }
  g_assert_cmpstr (title->str, ==, r->title);
}

static void
test_paint_narrow (void)
{
  const char *records[] = { "h200-gemm-4096-fp32-counters.json", "h100-gemm-4096-fp32-counters.json" };
  const int widths[] = { 400, 529, 652 };
  for (guint f = 0; f < G_N_ELEMENTS (records); f++)
    {
      g_autoptr (TlRoofline) r = docs_roofline (records[f]);
      for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
        for (int presenting = 0; presenting < 2; presenting++)
          for (int sel = -1; sel < (int) r->n_points; sel++)
            {
              TlPaintStyle style;
              init_style (&style, presenting);
              check_nothing_cut (r, sel, &style, widths[k], 700);
            }
    }
}

/* How far apart two texts are at least: the largest gap along a side of
 * either (a turned text's sides included); below 0 where they overlap. */
static double
text_gap (const TlPaintTextBox *a, const TlPaintTextBox *b)
{
  double best = -INFINITY;
  const TlPaintTextBox *both[] = { a, b };
  for (int k = 0; k < 2; k++)
    for (int e = 0; e < 2; e++)
      {
        double ex = both[k]->corner_x[e + 1] - both[k]->corner_x[e];
        double ey = both[k]->corner_y[e + 1] - both[k]->corner_y[e];
        double len = hypot (ex, ey), a0 = INFINITY, a1 = -INFINITY, b0 = INFINITY, b1 = -INFINITY;
        if (len == 0)
          continue;
        for (int c = 0; c < 4; c++)
          {
            double pa = (a->corner_x[c] * -ey + a->corner_y[c] * ex) / len;
            double pb = (b->corner_x[c] * -ey + b->corner_y[c] * ex) / len;
            a0 = MIN (a0, pa);
            a1 = MAX (a1, pa);
            b0 = MIN (b0, pb);
            b1 = MAX (b1, pb);
          }
        best = MAX (best, MAX (b0 - a1, a0 - b1));
      }
  return best;
}

/* The texts of the roofline drawn at w × h, none cut nor off the picture. */
static TlPaintTextBoxes *
draw_texts (const TlRoofline *r, int selected, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  TlPaintTextBoxes *boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_roofline (cr, r, selected, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  g_autoptr (GString) report = g_string_new (NULL);
  if (tl_paint_text_boxes_check (boxes, w, h, report) > 0)
    g_error ("roofline at %d×%d, scale %.1f, selected %d:\n%s", w, h, style->scale, selected, report->str);
  return boxes;
}

/* Two lines of one label, one right under the other, both upright and
 * starting at the same place ("FP32 · FP64 tensor" over "66.9 TFLOP/s"):
 * the lines of a text, which keep the font's line height, not a gap. */
static gboolean
lines_of_one_label (const TlPaintTextBox *a, const TlPaintTextBox *b)
{
  gboolean upright = a->corner_y[0] == a->corner_y[1] && b->corner_y[0] == b->corner_y[1];
  double between = MAX (b->y - (a->y + a->h), a->y - (b->y + b->h));
  return upright && fabs (between) <= 0.5 && fabs (a->x - b->x) <= 2;
}

/* Presenting, the legend beside the plot is one column: in two, every
 * name was cut to half ("01 naiv (ohn…" at 1024×768 in German). */
static void
check_legend_one_column (const TlRoofline *r, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 4, 4);
  cairo_t *cr = cairo_create (s);
  TlRooflineLayout lay;
  tl_paint_roofline_layout (r, style, cr, w, h, &lay);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  if (lay.legend.cols != 1)
    g_error ("presenting at %d×%d, the legend in %u columns", w, h, lay.legend.cols);
}

/* The records of docs/records with counters, as the app shows them at
 * 1024×768, 1280×800 and 1920×1080, in a window and presenting, plain
 * and high contrast, with no point and with each point selected: no text
 * touches another (a ceiling's label flush against a point's, "17" on
 * "FP32 · FP64 tensor 66.9 TFLOP/s"); two keep 2 px at least; presenting,
 * the legend is one column.  Runs in German too (test-paint-roofline-de). */
static void
test_paint_records_apart (void)
{
  const char *records[] = { "h200-gemm-4096-fp32-counters.json", "h100-gemm-4096-fp32-counters.json",
                            "h100-gemm-4096-fp64-counters.json" };
  for (guint f = 0; f < G_N_ELEMENTS (records); f++)
    {
      g_autoptr (TlRoofline) r = docs_roofline (records[f]);
      for (guint k = 0; k < G_N_ELEMENTS (window_areas); k++)
        for (int mode = 0; mode < 4; mode++)
          for (int sel = -1; sel < (int) r->n_points; sel++)
            {
              TlPaintStyle style;
              const int *area = mode & 1 ? presenting_areas[k] : window_areas[k];
              init_style (&style, mode & 1);
              tl_paint_style_set_high_contrast (&style, mode >= 2);
              g_autoptr (TlPaintTextBoxes) boxes = draw_texts (r, sel, &style, area[0], area[1]);
              if (mode & 1)
                check_legend_one_column (r, &style, area[0], area[1]);
              guint n = tl_paint_text_boxes_len (boxes);
              for (guint i = 0; i < n; i++)
                for (guint j = i + 1; j < n; j++)
                  {
                    const TlPaintTextBox *a = tl_paint_text_boxes_index (boxes, i);
                    const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, j);
                    if (text_gap (a, b) < 2 && !lines_of_one_label (a, b))
                      g_error ("%s at %d×%d, %s%s, selected %d: “%s” and “%s” %.1f px apart",
                               records[f], area[0], area[1], mode & 1 ? "presenting" : "window",
                               mode >= 2 ? " high contrast" : "", sel, a->text, b->text, text_gap (a, b));
                  }
            }
    }
}

/* Nothing to place: the roofs and the sentence, no crash. */
static void
test_paint_empty (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  for (guint i = 0; i < record->runs->len; i++)
    g_clear_pointer (&((TlKernelRun *) record->runs->pdata[i])->counters, tl_counters_free);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  tl_paint_text_boxes_free (draw_and_check (r, -1, &style, 1280, 800, NULL));
  record->has_device = FALSE;
  record->has_bandwidth = FALSE;
  g_autoptr (TlRoofline) bare = tl_roofline_from_record (record);
  tl_paint_text_boxes_free (draw_and_check (bare, -1, &style, 1024, 768, NULL));
}

/* A kernel off the ladder (a user's kernel file) is labelled with its
 * name, never as a reference: its number is 0 like cuBLAS's. */
static void
test_paint_user_kernel (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_ptr_array_add (record->runs, gpu_run ("mine.cu", TL_GPU_COUNTER_FFMA, 2.0 * 4096 * 4096 * 4096,
                                          6.8e8, 3e9, 0.43, 18.3));
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  g_autoptr (TlPaintTextBoxes) boxes = draw_and_check (r, -1, &style, 1280, 800, NULL);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "mine.cu"));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "cuBLAS BF16"));
  g_assert_null (tl_paint_text_boxes_find (boxes, "cuBLAS FP32"));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  /* LANGUAGE=de (test-paint-roofline-de): the build tree's catalogue */
  tl_locale_init ();
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0
      && strcmp (g_dgettext (GETTEXT_PACKAGE, "median time"), "median time") == 0)
    g_error ("LANGUAGE=de, but no German catalogue in %s", tl_locale_dir ());
  g_test_add_func ("/roofline/paint/layout", test_paint_layout);
  g_test_add_func ("/roofline/paint/points", test_paint_points);
  g_test_add_func ("/roofline/paint/empty", test_paint_empty);
  g_test_add_func ("/roofline/paint/user-kernel", test_paint_user_kernel);
  g_test_add_func ("/roofline/paint/ladder", test_paint_ladder);
  g_test_add_func ("/roofline/paint/app-areas", test_paint_app_areas);
  g_test_add_func ("/roofline/paint/render-sizes", test_paint_render_sizes);
  g_test_add_func ("/roofline/paint/narrow", test_paint_narrow);
  g_test_add_func ("/roofline/paint/records-apart", test_paint_records_apart);
  return g_test_run ();
}
