/* tl-paint-sweep-legend.c — the sweep's legend: the machines' line styles, then each kernel once. */
#include "paint/tl-paint-sweep-legend.h"

#include <math.h>
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

/* a swatch: a short line with the kernel's marker, then its name */
#define LEGEND_SWATCH_EM 2.6
#define LEGEND_LINE_EM 1.9
#define LEGEND_TEXT_EM 2.3
#define LEGEND_LABEL_CAP_EM 22.0
/* beside the plot, a name cut shorter than this many ems reads as a riddle */
#define LEGEND_LABEL_MIN_EM 14.0
/* under it, columns narrow down to this many ems a name to keep the plot tall */
#define LEGEND_LABEL_FLOOR_EM 9.0
/* the plot keeps at least this many ems of height when the legend goes under it */
#define PLOT_MIN_EM 8.0
/* a legend beside the plot with its names cut may take this share of the
 * picture's width more than the plot leaves it, for the short names */
#define LEGEND_BESIDE_GROW 0.2

/* A line of the legend: a kernel (its colour and marker, and its
 * machine's line style, solid when it ran on several), or, first when the
 * sweep spans machines, a machine's line style in the text colour. */
typedef struct
{
  const char *label;
  guint series;     /* the kernel's first series; G_MAXUINT: a machine's key */
  guint machine;    /* the line style */
  gboolean several; /* the kernel ran on more than one machine */
} LegendEntry;

void
tl_sweep_legend_style (const TlPaintStyle *style, TlPaintStyle *out)
{
  *out = *style;
  double px = TL_PX (style, style->font_size);
  double key_px = MAX (px * 0.8, MIN (px, 12.0));
  out->font_size = style->font_size * key_px / px;
}

static gboolean
same_kernel (const TlSweepSeries *a, const TlSweepSeries *b)
{
  if (a->kernel_id || b->kernel_id)
    return g_strcmp0 (a->kernel_id, b->kernel_id) == 0;
  return a->label && g_strcmp0 (a->label, b->label) == 0;
}

/* The machines' key, then each kernel once: a kernel run on two machines
 * keeps one colour and marker, and the key tells its lines apart, so no
 * name carries its machine ("… · NVIDIA H200" cut the names short). */
static GArray *
legend_entries (const TlSweepModel *model)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));
  if (model->n_machines > 1)
    for (guint m = 0; m < model->n_machines; m++)
      {
        LegendEntry e = { model->machines[m], G_MAXUINT, m, FALSE };
        g_array_append_val (entries, e);
      }
  guint first_kernel = entries->len;
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      gboolean seen = FALSE;
      for (guint j = first_kernel; j < entries->len && !seen; j++)
        {
          LegendEntry *e = &g_array_index (entries, LegendEntry, j);
          if (same_kernel (&model->series[e->series], se))
            {
              e->several |= e->machine != se->machine;
              seen = TRUE;
            }
        }
      if (!seen)
        {
          LegendEntry e = { se->label, s, se->machine, FALSE };
          g_array_append_val (entries, e);
        }
    }
  return entries;
}

guint
tl_sweep_legend_count (const TlSweepModel *model)
{
  g_autoptr (GArray) entries = legend_entries (model);
  return entries->len;
}

static double
widest_label (const GArray *entries, const TlPaintStyle *style, cairo_t *cr)
{
  double label_w = 0;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      if (e->label)
        label_w = MAX (label_w, tl_paint_text_width (cr, e->label));
    }
  return label_w;
}

/* The widest of the legend's short names: a kernel's tag where it has
 * one, else its name up to LEGEND_LABEL_FLOOR_EM. */
static double
widest_short (const GArray *entries, const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr)
{
  double font = TL_PX (style, style->font_size), w = 0;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      const char *tag = e->series == G_MAXUINT ? NULL : model->series[e->series].tag;
      if (tag)
        w = MAX (w, tl_paint_text_width (cr, tag));
      else if (e->label)
        w = MAX (w, MIN (tl_paint_text_width (cr, e->label), font * LEGEND_LABEL_FLOOR_EM));
    }
  return w;
}

/* The most columns n entries take under a plot width wide in key's type
 * (names cut to LEGEND_LABEL_FLOOR_EM at the least); 2 when width is 0. */
static guint
columns_under (const TlPaintStyle *key, guint n, double width)
{
  if (width <= 0)
    return MIN (n, 2);
  double font = TL_PX (key, key->font_size);
  double narrowest = font * (LEGEND_SWATCH_EM + 0.8 + LEGEND_LABEL_FLOOR_EM);
  return (guint) CLAMP (floor ((width - font * 1.2) / narrowest), 1, MAX (n, 1));
}

double
tl_sweep_legend_under_height (const TlSweepModel *model, const TlPaintStyle *style, double width)
{
  TlPaintStyle key;
  tl_sweep_legend_style (style, &key);
  double font = TL_PX (&key, key.font_size);
  guint n = tl_sweep_legend_count (model);
  guint cols = MAX (columns_under (&key, n, width), 1);
  return ((n + cols - 1) / cols) * font * 1.45 + font * 0.5;
}

double
tl_sweep_plot_floor (const TlPaintStyle *style, double height)
{
  return MAX (TL_PX (style, style->font_size) * PLOT_MIN_EM, height * TL_SWEEP_PLOT_MIN_SHARE);
}

/* The legend under the plot, as wide as the picture: the columns its
 * names take whole, or more and narrower ones until the plot keeps
 * plot_min_h (down to LEGEND_LABEL_FLOOR_EM a name).  Returns its height,
 * or 0 when even then the plot would keep less than plot_floor. */
static double
legend_under (guint n, double label_w, double font, double width, double avail_h, double plot_min_h,
              double plot_floor, TlLegendGrid *grid)
{
  double full_w = width - font * 1.2;
  double room = font * (LEGEND_SWATCH_EM + 0.8);
  double col_w = room + MIN (label_w, font * LEGEND_LABEL_CAP_EM);
  guint cols = (guint) CLAMP (floor (full_w / col_w), 1, n);
  while (cols < n && ((n + cols - 1) / cols) * grid->row_h + font * 0.5 > avail_h - plot_min_h
         && full_w / (cols + 1) - room >= font * LEGEND_LABEL_FLOOR_EM)
    cols++;
  guint rows = (n + cols - 1) / cols;
  double legend_h = rows * grid->row_h + font * 0.5;
  if (avail_h - legend_h < plot_floor)
    return 0;
  grid->rows = rows;
  grid->cols = cols;
  grid->col_w = full_w / cols;
  return legend_h;
}

double
tl_sweep_legend_layout (const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr,
                        double width, double beside_w, double avail_h, double height,
                        TlSweepLayout *out)
{
  TlPaintStyle key;
  tl_sweep_legend_style (style, &key);
  double font = TL_PX (&key, key.font_size);
  g_autoptr (GArray) entries = legend_entries (model);
  guint n = entries->len;
  double label_w = widest_label (entries, &key, cr);
  double swatch = font * LEGEND_SWATCH_EM;
  TlLegendGrid *grid = &out->legend;
  tl_paint_legend_grid (&key, n, label_w, LEGEND_SWATCH_EM, LEGEND_LABEL_CAP_EM, avail_h, MAX (beside_w, 0), grid);
  gboolean cut = grid->col_w - swatch - font * 0.8 < MIN (label_w, font * LEGEND_LABEL_MIN_EM) - 0.5
                 || grid->cols * grid->col_w > beside_w;
  if (!cut || n == 0)
    return 0;
  double under_h = legend_under (n, label_w, font, width, avail_h, height * 0.5,
                                 tl_sweep_plot_floor (style, height), grid);
  if (under_h > 0)
    return under_h;
  /* beside and cut (a chart under the Compare bars): the names give way
   * to their tags, and the legend takes a bit more of the plot's width so
   * that those read whole ("10 TF32", not "1…T…") */
  tl_paint_legend_grid (&key, n, widest_short (entries, model, &key, cr), LEGEND_SWATCH_EM,
                        LEGEND_LABEL_CAP_EM, avail_h, MAX (beside_w, 0) + width * LEGEND_BESIDE_GROW, grid);
  return 0;
}

/* Entry e's swatch at (x, y): its line style and, for a kernel, its
 * colour and marker. */
static void
paint_swatch (cairo_t *cr, const TlSweepModel *model, const LegendEntry *e, double x, double y,
              const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  const TlSweepSeries *se = e->series == G_MAXUINT ? NULL : &model->series[e->series];
  TlKernelLook look;
  if (se)
    {
      tl_sweep_series_look (model, e->series, &look);
      cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
    }
  else
    tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, se && se->reference ? 3.0 : 2.5));
  tl_sweep_set_dash (cr, style, e->several ? 0 : e->machine);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + font * LEGEND_LINE_EM, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (se)
    tl_paint_marker (cr, look.marker, x + font * LEGEND_LINE_EM / 2, y, TL_PX (style, 4));
}

/* Each entry's text in label_w: its name whole; in a column narrower
 * than LEGEND_LABEL_FLOOR_EM the tag its line ends with ("04", "10 TF32":
 * the bars above and the plot's tags name the rung the same), as names
 * cut that short read "1…T…" and "c…S…"; else its name cut, told apart
 * from the others ("cuBL…TF32"). */
static char **
entry_labels (cairo_t *cr, const TlSweepModel *model, const GArray *entries, const TlPaintStyle *key,
              double label_w)
{
  tl_paint_set_font (cr, key, key->font_size, FALSE);
  gboolean narrow = label_w < TL_PX (key, key->font_size) * LEGEND_LABEL_FLOOR_EM;
  const char **names = g_newa (const char *, entries->len + 1);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      const char *tag = e->series == G_MAXUINT ? NULL : model->series[e->series].tag;
      gboolean whole = e->label == NULL || tl_paint_text_width (cr, e->label) <= label_w;
      names[i] = narrow && !whole && tag && tl_paint_text_width (cr, tag) <= label_w ? tag : e->label;
    }
  return tl_paint_legend_labels (cr, key, names, entries->len, label_w);
}

void
tl_sweep_paint_legend (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                       const TlPaintStyle *style)
{
  TlPaintStyle key;
  tl_sweep_legend_style (style, &key);
  double font = TL_PX (&key, key.font_size);
  double label_w = lay->legend.col_w - font * (LEGEND_TEXT_EM + 0.5);
  g_autoptr (GArray) entries = legend_entries (model);
  g_auto (GStrv) labels = entry_labels (cr, model, entries, &key, label_w);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      double lx, ly;
      tl_paint_legend_entry_at (&lay->legend, lay->legend_x, lay->legend_y, i, &lx, &ly);
      paint_swatch (cr, model, e, lx, ly, &key);
      tl_paint_set_fg (cr, &key);
      if (e->label)
        tl_paint_text_fit (cr, lx + font * LEGEND_TEXT_EM, ly, 0, 0.5, label_w, labels[i]);
    }
}
