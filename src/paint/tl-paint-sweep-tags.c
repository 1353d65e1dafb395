/* tl-paint-sweep-tags.c — a short name at each line's end, as plotting
 * tools label many series directly: "17", "cuBLAS TF32".
 *
 * Two dozen lines keyed by colour alone cannot be told apart from the back
 * of a lecture hall (ten colours repeat, markers are small).  The rung's
 * number beside the end of its line can.  Lines that end close together
 * have their tags stacked one under another, each joined to its line's
 * last point by a thin line of the line's colour.
 */
#include "paint/tl-paint-sweep-tags.h"

#include <math.h>
#include "paint/tl-paint-util.h"

/* a tag wider than this many ems (a long title) is cut */
#define TAG_CAP_EM 8.0
/* the tag's text starts this far right of the plot's frame */
#define TAG_GAP_EM 0.9

typedef struct
{
  guint series;
  double end_x, end_y; /* the line's last point */
  double y;            /* the tag's middle */
  double value;        /* the last point's value: the fastest are kept first */
  gboolean picked;     /* the kernel picked on the bars */
  gboolean reference;
  gboolean alone;      /* no other line ends within a tag's height of it */
} Tag;

static gboolean
last_point (const TlSweepModel *model, const TlSweepLayout *lay, guint s, double *x, double *y,
            double *value)
{
  const TlSweepSeries *se = &model->series[s];
  for (guint i = se->count; i-- > 0;)
    if (tl_sweep_point_ok (se, i))
      {
        tl_sweep_layout_point (lay, se->n[i], se->gflops[i], x, y);
        *value = se->gflops[i];
        return TRUE;
      }
  return FALSE;
}

double
tl_sweep_tags_width (cairo_t *cr, const TlSweepModel *model, const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size), w = 0;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint s = 0; s < model->n_series; s++)
    if (model->series[s].tag)
      w = MAX (w, tl_paint_text_width (cr, model->series[s].tag));
  return w > 0 ? MIN (w, font * TAG_CAP_EM) + font * (TAG_GAP_EM + 0.3) : 0;
}

/* the picked kernel's, the references', then the lines that end alone
 * (their tags cost no room: "01" far below the rest), then the highest */
static gint
tag_priority_cmp (gconstpointer a, gconstpointer b)
{
  const Tag *p = a, *q = b;
  if (p->picked != q->picked)
    return p->picked ? -1 : 1;
  if (p->reference != q->reference)
    return p->reference ? -1 : 1;
  if (p->alone != q->alone)
    return p->alone ? -1 : 1;
  return (p->value < q->value) - (p->value > q->value);
}

static void
mark_alone (GArray *tags, double tag_h)
{
  for (guint i = 0; i < tags->len; i++)
    {
      Tag *t = &g_array_index (tags, Tag, i);
      t->alone = TRUE;
      for (guint j = 0; j < tags->len && t->alone; j++)
        t->alone = j == i || fabs (g_array_index (tags, Tag, j).end_y - t->end_y) >= tag_h;
    }
}

static gint
tag_y_cmp (gconstpointer a, gconstpointer b)
{
  const Tag *p = a, *q = b;
  return (p->end_y > q->end_y) - (p->end_y < q->end_y);
}

/* Sets the tags (sorted by end_y) of group [from, to) one under another,
 * centred on their lines' ends, kept between top and bottom. */
static void
stack_group (GArray *tags, guint from, guint to, double tag_h, double top, double bottom)
{
  double mean = 0;
  for (guint i = from; i < to; i++)
    mean += g_array_index (tags, Tag, i).end_y;
  mean /= to - from;
  double first = mean - (to - from - 1) * tag_h / 2;
  first = MAX (MIN (first, bottom - (to - from - 1) * tag_h), top);
  for (guint i = from; i < to; i++)
    g_array_index (tags, Tag, i).y = first + (i - from) * tag_h;
}

/* Each tag as near its line's end as the others allow: tags that would
 * overlap become a group, stacked and centred on their ends, until no two
 * groups overlap (the labels of a plot's lines, as plotting tools spread
 * them). */
static void
spread_tags (GArray *tags, double tag_h, double top, double bottom)
{
  guint n = tags->len;
  g_autofree guint *group_start = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    group_start[i] = i; /* the first tag of i's group */
  gboolean merged = TRUE;
  while (merged)
    {
      merged = FALSE;
      for (guint i = 0; i < n; i++)
        if (group_start[i] == i)
          {
            guint end = i + 1;
            while (end < n && group_start[end] == i)
              end++;
            stack_group (tags, i, end, tag_h, top, bottom);
          }
      for (guint i = 0; i + 1 < n && !merged; i++)
        if (group_start[i + 1] != group_start[i]
            && g_array_index (tags, Tag, i + 1).y - g_array_index (tags, Tag, i).y < tag_h - 0.01)
          {
            for (guint j = i + 1; j < n && group_start[j] == i + 1; j++)
              group_start[j] = group_start[i];
            merged = TRUE;
          }
    }
}

/* The tags of the lines that reach the largest size, right of the plot:
 * one a kernel (a kernel's lines on two machines share its colour), as
 * many as the plot's height holds — the references' and the fastest
 * lines' first. */
static GArray *
place_end_tags (const TlSweepModel *model, const TlSweepLayout *lay, double tag_h)
{
  GArray *tags = g_array_new (FALSE, FALSE, sizeof (Tag));
  double right_end = -INFINITY;
  for (guint s = 0; s < model->n_series; s++)
    {
      Tag t = { .series = s, .reference = model->series[s].reference,
                .picked = model->picked != NULL && !tl_sweep_series_faded (model, s) };
      if (model->series[s].tag && last_point (model, lay, s, &t.end_x, &t.end_y, &t.value))
        {
          g_array_append_val (tags, t);
          right_end = MAX (right_end, t.end_x);
        }
    }
  mark_alone (tags, tag_h);
  g_array_sort (tags, tag_priority_cmp);
  guint kept = 0, fit = (guint) MAX (floor (lay->plot_h / tag_h), 0);
  for (guint i = 0; i < tags->len && kept < fit; i++)
    {
      const Tag *t = &g_array_index (tags, Tag, i);
      gboolean seen = t->end_x < right_end - 0.5;
      for (guint j = 0; j < kept && !seen; j++)
        seen = g_strcmp0 (model->series[g_array_index (tags, Tag, j).series].tag,
                          model->series[t->series].tag) == 0;
      if (!seen)
        g_array_index (tags, Tag, kept++) = *t;
    }
  g_array_set_size (tags, kept);
  g_array_sort (tags, tag_y_cmp);
  spread_tags (tags, tag_h, lay->plot_y + tag_h / 2, lay->plot_y + lay->plot_h - tag_h / 2);
  return tags;
}

void
tl_sweep_paint_tags (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                     const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  g_autoptr (GArray) tags = place_end_tags (model, lay, tl_paint_text_height (cr) * 1.05);
  double text_x = lay->plot_x + lay->plot_w + font * TAG_GAP_EM;
  for (guint i = 0; i < tags->len; i++)
    {
      const Tag *t = &g_array_index (tags, Tag, i);
      double rgb[3];
      tl_sweep_series_rgb (model, t->series, style, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, TL_LINE (style, t->picked ? 3.0 : 1.5));
      cairo_move_to (cr, t->end_x, t->end_y);
      cairo_line_to (cr, text_x - font * 0.2, t->y);
      cairo_stroke (cr);
      tl_paint_set_fg (cr, style);
      tl_paint_set_font (cr, style, style->font_size, t->picked);
      tl_paint_text_fit (cr, text_x, t->y, 0, 0.5, font * TAG_CAP_EM, model->series[t->series].tag);
    }
}
