/* tl-paint-text-boxes.c — collecting and checking the boxes of drawn text. */
#include "paint/tl-paint-text-boxes.h"

#include <math.h>
#include <string.h>

/* what a reader does not notice: boxes may touch or overlap by this much */
#define TOLERANCE_PX 0.5

/* A plot of shaped data: a matrix (rows × cols), C under a block grid. */
typedef struct
{
  double rows, cols;      /* the data's shape */
  gboolean keeps_shape;   /* drawn in proportion (FALSE: stretched on purpose) */
  double x, y, w, h;      /* where, device pixels */
} PlotBox;

struct _TlPaintTextBoxes
{
  GArray *boxes; /* TlPaintTextBox */
  GArray *plots; /* PlotBox */
};

static const cairo_user_data_key_t boxes_key;

static void
box_clear (gpointer data)
{
  TlPaintTextBox *box = data;
  g_clear_pointer (&box->text, g_free);
}

TlPaintTextBoxes *
tl_paint_text_boxes_new (void)
{
  TlPaintTextBoxes *self = g_new0 (TlPaintTextBoxes, 1);
  self->boxes = g_array_new (FALSE, TRUE, sizeof (TlPaintTextBox));
  g_array_set_clear_func (self->boxes, box_clear);
  self->plots = g_array_new (FALSE, TRUE, sizeof (PlotBox));
  return self;
}

void
tl_paint_text_boxes_free (TlPaintTextBoxes *boxes)
{
  if (boxes == NULL)
    return;
  g_array_unref (boxes->boxes);
  g_array_unref (boxes->plots);
  g_free (boxes);
}

void
tl_paint_text_boxes_remove (TlPaintTextBoxes *boxes, guint i)
{
  g_return_if_fail (boxes != NULL && i < boxes->boxes->len);
  g_array_remove_index (boxes->boxes, i);
}

void
tl_paint_text_boxes_clear (TlPaintTextBoxes *boxes)
{
  g_return_if_fail (boxes != NULL);
  g_array_set_size (boxes->boxes, 0);
  g_array_set_size (boxes->plots, 0);
}

void
tl_paint_text_boxes_attach (cairo_t *cr, TlPaintTextBoxes *boxes)
{
  g_return_if_fail (cr != NULL);
  cairo_set_user_data (cr, &boxes_key, boxes, NULL);
}

TlPaintTextBoxes *
tl_paint_text_boxes_get (cairo_t *cr)
{
  g_return_val_if_fail (cr != NULL, NULL);
  return cairo_get_user_data (cr, &boxes_key);
}

guint
tl_paint_text_boxes_len (const TlPaintTextBoxes *boxes)
{
  g_return_val_if_fail (boxes != NULL, 0);
  return boxes->boxes->len;
}

const TlPaintTextBox *
tl_paint_text_boxes_index (const TlPaintTextBoxes *boxes, guint i)
{
  g_return_val_if_fail (boxes != NULL && i < boxes->boxes->len, NULL);
  return &g_array_index (boxes->boxes, TlPaintTextBox, i);
}

const TlPaintTextBox *
tl_paint_text_boxes_find (const TlPaintTextBoxes *boxes, const char *needle)
{
  g_return_val_if_fail (boxes != NULL && needle != NULL, NULL);
  for (guint i = 0; i < boxes->boxes->len; i++)
    {
      const TlPaintTextBox *b = &g_array_index (boxes->boxes, TlPaintTextBox, i);
      if (strstr (b->text, needle) != NULL)
        return b;
    }
  return NULL;
}

/* The device-space bounding box of a user-space rectangle (rotation
 * included), and its corners when corner_x and corner_y are not NULL. */
static void
device_bounds (cairo_t *cr, double x, double y, double w, double h, double out[4], double *corner_x,
               double *corner_y)
{
  double xs[4] = { x, x + w, x + w, x }, ys[4] = { y, y, y + h, y + h };
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (int i = 0; i < 4; i++)
    {
      cairo_user_to_device (cr, &xs[i], &ys[i]);
      x0 = MIN (x0, xs[i]);
      x1 = MAX (x1, xs[i]);
      y0 = MIN (y0, ys[i]);
      y1 = MAX (y1, ys[i]);
    }
  out[0] = x0;
  out[1] = y0;
  out[2] = x1 - x0;
  out[3] = y1 - y0;
  if (corner_x && corner_y)
    for (int i = 0; i < 4; i++)
      {
        corner_x[i] = xs[i];
        corner_y[i] = ys[i];
      }
}

void
tl_paint_text_boxes_record (cairo_t *cr, const char *text, double x, double y, double w, double h)
{
  TlPaintTextBoxes *boxes = cairo_get_user_data (cr, &boxes_key);
  if (boxes == NULL || text == NULL || *text == '\0')
    return;

  TlPaintTextBox box = { .text = g_strdup (text) };
  double b[4], clip[4];
  double cx0, cy0, cx1, cy1;

  device_bounds (cr, x, y, w, h, b, box.corner_x, box.corner_y);
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  device_bounds (cr, cx0, cy0, cx1 - cx0, cy1 - cy0, clip, NULL, NULL);
  box.x = b[0];
  box.y = b[1];
  box.w = b[2];
  box.h = b[3];
  box.area_x = clip[0];
  box.area_y = clip[1];
  box.area_w = clip[2];
  box.area_h = clip[3];
  g_array_append_val (boxes->boxes, box);
}

void
tl_paint_text_boxes_record_plot (cairo_t *cr, double rows, double cols, gboolean keeps_shape,
                                 double x, double y, double w, double h)
{
  TlPaintTextBoxes *boxes = cairo_get_user_data (cr, &boxes_key);
  if (boxes == NULL || !(rows > 0) || !(cols > 0))
    return;
  double b[4];
  device_bounds (cr, x, y, w, h, b, NULL, NULL);
  PlotBox plot = { rows, cols, keeps_shape, b[0], b[1], b[2], b[3] };
  g_array_append_val (boxes->plots, plot);
}

/* A plot that should keep its data's shape and does not: its width is off
 * the height × cols/rows by more than a pixel and a half and 2 %.  A
 * matrix thinner than 1:8 may be widened, its drawn ratio anywhere from
 * its own to 1:8. */
static gboolean
out_of_proportion (const PlotBox *p)
{
  if (!p->keeps_shape || p->w < 4 || p->h < 4)
    return FALSE;
  double data = p->cols / p->rows, drawn = p->w / p->h;
  if (data > 8)
    return drawn > data * 1.02 || drawn < 8 * 0.98;
  if (data < 1.0 / 8)
    return drawn < data * 0.98 || drawn > 1.02 / 8;
  double want_w = p->h * data;
  return fabs (p->w - want_w) > MAX (1.5, 0.02 * want_w);
}

static gboolean
ends_cut (const char *text)
{
  return g_str_has_suffix (text, "…");
}

/* How far the corners of a and b overlap along the direction (dx, dy). */
static double
overlap_along (const TlPaintTextBox *a, const TlPaintTextBox *b, double dx, double dy)
{
  double a0 = INFINITY, a1 = -INFINITY, b0 = INFINITY, b1 = -INFINITY;
  for (int i = 0; i < 4; i++)
    {
      double pa = a->corner_x[i] * dx + a->corner_y[i] * dy, pb = b->corner_x[i] * dx + b->corner_y[i] * dy;
      a0 = MIN (a0, pa);
      a1 = MAX (a1, pa);
      b0 = MIN (b0, pb);
      b1 = MAX (b1, pb);
    }
  return MIN (a1, b1) - MAX (a0, b0);
}

/* Two texts overlap where their boxes do, and — for a turned text, whose
 * box is larger than its words — where no side of either text separates
 * them (the separating axis test on their corners). */
static gboolean
overlap (const TlPaintTextBox *a, const TlPaintTextBox *b)
{
  double ox = MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x);
  double oy = MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y);
  if (ox <= TOLERANCE_PX || oy <= TOLERANCE_PX)
    return FALSE;
  const TlPaintTextBox *both[] = { a, b };
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 2; i++)
      {
        double ex = both[k]->corner_x[i + 1] - both[k]->corner_x[i];
        double ey = both[k]->corner_y[i + 1] - both[k]->corner_y[i];
        double len = hypot (ex, ey);
        if (len > 0 && overlap_along (a, b, -ey / len, ex / len) <= TOLERANCE_PX)
          return FALSE;
      }
  return TRUE;
}

/* How far the box reaches beyond the rectangle, in pixels (0 inside). */
static double
beyond (const TlPaintTextBox *b, double x, double y, double w, double h)
{
  double d = 0;
  d = MAX (d, x - b->x);
  d = MAX (d, y - b->y);
  d = MAX (d, (b->x + b->w) - (x + w));
  d = MAX (d, (b->y + b->h) - (y + h));
  return d;
}

static void
describe (GString *report, const TlPaintTextBox *b)
{
  g_string_append_printf (report, "“%s” at %.0f,%.0f %.0f×%.0f", b->text, b->x, b->y, b->w, b->h);
}

guint
tl_paint_text_boxes_check (const TlPaintTextBoxes *boxes, double width, double height,
                           GString *report)
{
  g_return_val_if_fail (boxes != NULL, 0);

  guint problems = 0;
  guint n = boxes->boxes->len;

  for (guint i = 0; i < n; i++)
    {
      const TlPaintTextBox *a = &g_array_index (boxes->boxes, TlPaintTextBox, i);
      double out = beyond (a, 0, 0, width, height);
      if (out > TOLERANCE_PX)
        {
          problems++;
          if (report)
            {
              g_string_append (report, "off the picture: ");
              describe (report, a);
              g_string_append_printf (report, " reaches %.1f px beyond %.0f×%.0f\n", out, width,
                                      height);
            }
        }
      else
        {
          double cut = beyond (a, a->area_x, a->area_y, a->area_w, a->area_h);
          if (cut > TOLERANCE_PX)
            {
              problems++;
              if (report)
                {
                  g_string_append (report, "clipped: ");
                  describe (report, a);
                  g_string_append_printf (report, " reaches %.1f px beyond its area %.0f,%.0f %.0f×%.0f\n",
                                          cut, a->area_x, a->area_y, a->area_w, a->area_h);
                }
            }
        }
      for (guint j = i + 1; j < n; j++)
        {
          const TlPaintTextBox *b = &g_array_index (boxes->boxes, TlPaintTextBox, j);
          if (ends_cut (a->text) && strcmp (a->text, b->text) == 0)
            {
              problems++;
              if (report)
                {
                  g_string_append (report, "cut to the same words: ");
                  describe (report, a);
                  g_string_append (report, " and ");
                  describe (report, b);
                  g_string_append_c (report, '\n');
                }
            }
          if (!overlap (a, b))
            continue;
          problems++;
          if (report)
            {
              g_string_append (report, "overlap: ");
              describe (report, a);
              g_string_append (report, " and ");
              describe (report, b);
              g_string_append_c (report, '\n');
            }
        }
    }
  for (guint i = 0; i < boxes->plots->len; i++)
    {
      const PlotBox *p = &g_array_index (boxes->plots, PlotBox, i);
      if (!out_of_proportion (p))
        continue;
      problems++;
      if (report)
        g_string_append_printf (report, "out of proportion: %.0f×%.0f data drawn %.0f×%.0f at %.0f,%.0f\n",
                                p->rows, p->cols, p->w, p->h, p->x, p->y);
    }
  return problems;
}
