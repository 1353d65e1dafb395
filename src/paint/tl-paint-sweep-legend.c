/* tl-paint-sweep-legend.c — the sweep's legend: the machines' line styles, then each kernel once. */
#include "paint/tl-paint-sweep-legend.h"

#include <math.h>
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

/* a swatch: a short line with the kernel's marker, then its name */
#define LEGEND_SWATCH_EM 2.6
#define LEGEND_LINE_EM 1.9
#define LEGEND_TEXT_EM 2.3
/* a legend under the plot: the gap above its rows and the air below
 * them, as its rows (TL_LEGEND_FIT_ROW_EM) leave the text little */
#define LEGEND_UNDER_PAD_EM 0.8
#define LEGEND_LABEL_CAP_EM 22.0
/* under it, columns narrow down to this many ems a name to keep the plot tall */
#define LEGEND_LABEL_FLOOR_EM 9.0
/* beside the plot, columns share its room down to this many ems a name */
#define LEGEND_LABEL_LEAST_EM 3.2
/* the plot keeps at least this many ems of height when the legend goes under it */
#define PLOT_MIN_EM 8.0
/* a legend beside the plot with its names cut may take this share of the
 * picture's width more than the plot leaves it, for the short names */
#define LEGEND_BESIDE_GROW 0.2
/* beside Compare's plot on a wide slide, names may take this share of the
 * legend's type (28 px at 1920×1080 presenting, the bars' labels 17 px) to stay
 * whole, the type no smaller than LEGEND_LEAST_PX */
#define LEGEND_SMALLER 0.85
#define LEGEND_LEAST_PX 14.0

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

/* Each entry's name's width in style's type (0 for none). */
static void
label_widths (const GArray *entries, const TlPaintStyle *style, cairo_t *cr, double *widths)
{
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      widths[i] = e->label ? tl_paint_text_width (cr, e->label) : 0;
    }
}

/* Each entry's short name's width: a kernel's tag where it has one, else
 * its name up to cap_em ems. */
static void
short_widths (const GArray *entries, const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr,
              double cap_em, double *widths)
{
  double font = TL_PX (style, style->font_size);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      const char *tag = e->series == G_MAXUINT ? NULL : model->series[e->series].tag;
      if (tag)
        widths[i] = tl_paint_text_width (cr, tag);
      else
        widths[i] = e->label ? MIN (tl_paint_text_width (cr, e->label), font * cap_em) : 0;
    }
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
  return ((n + cols - 1) / cols) * font * TL_LEGEND_FIT_ROW_EM + font * LEGEND_UNDER_PAD_EM;
}

double
tl_sweep_plot_floor (const TlPaintStyle *style, double height)
{
  return MAX (TL_PX (style, style->font_size) * PLOT_MIN_EM, height * TL_SWEEP_PLOT_MIN_SHARE);
}

/* Whether each column of grid leaves its names (widths) at least
 * LEGEND_LABEL_FLOOR_EM, or whole where they are shorter. */
static gboolean
names_keep_floor (const TlLegendGrid *grid, const double *widths, guint n, double font)
{
  for (guint i = 0; i < n; i++)
    {
      double room = tl_paint_legend_entry_width (grid, i) - font * (LEGEND_TEXT_EM + 0.5);
      if (room + 0.5 < MIN (widths[i], font * LEGEND_LABEL_FLOOR_EM))
        return FALSE;
    }
  return TRUE;
}

/* The legend under the plot, as wide as the picture, its columns each as
 * wide as its longest name: the rows that cut the fewest names while the
 * plot keeps plot_min_h, or, where that leaves no row, plot_floor.
 * Returns its height, or 0 when not even one row leaves the plot that or
 * a name would be cut under LEGEND_LABEL_FLOOR_EM. */
static double
legend_under (const TlPaintStyle *key, guint n, const double *widths, double width, double avail_h,
              double plot_min_h, double plot_floor, TlLegendGrid *grid)
{
  double font = TL_PX (key, key->font_size), row_h = font * TL_LEGEND_FIT_ROW_EM;
  const double plot_keeps[] = { plot_min_h, plot_floor };
  for (guint k = 0; k < G_N_ELEMENTS (plot_keeps); k++)
    {
      double rows_h = avail_h - plot_keeps[k] - font * LEGEND_UNDER_PAD_EM;
      if (rows_h < row_h)
        continue;
      tl_paint_legend_grid_fit (key, n, widths, LEGEND_SWATCH_EM, LEGEND_LABEL_CAP_EM, LEGEND_LABEL_FLOOR_EM,
                                (guint) floor (rows_h / row_h), width - font * 1.2, TRUE, grid);
      if (names_keep_floor (grid, widths, n, font)
          && tl_paint_legend_grid_width (grid) <= width - font * 1.2 + 0.5)
        return grid->rows * grid->row_h + font * LEGEND_UNDER_PAD_EM;
    }
  return 0;
}

/* The legend beside the plot by the kernels' tags, in key's type, its
 * rows down foot_h, max_w wide, a name without a tag cut to cap_em ems;
 * how many labels the columns cut (a name cut to cap_em not counted). */
static guint
beside_tags_fit (const GArray *entries, const TlSweepModel *model, const TlPaintStyle *key, cairo_t *cr,
                 double cap_em, double foot_h, double max_w, double *widths, TlLegendGrid *grid)
{
  double font = TL_PX (key, key->font_size);
  guint rows = (guint) MAX (floor (foot_h / (font * TL_LEGEND_FIT_ROW_EM) - 0.3), 1);
  short_widths (entries, model, key, cr, cap_em, widths);
  return tl_paint_legend_grid_fit (key, entries->len, widths, LEGEND_SWATCH_EM, LEGEND_LABEL_CAP_EM,
                                   LEGEND_LABEL_LEAST_EM, rows, max_w, FALSE, grid);
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
  double *widths = g_newa (double, n + 1);
  label_widths (entries, &key, cr, widths);
  TlLegendGrid *grid = &out->legend;
  /* beside the plot, rows down its whole height before a name is cut */
  guint beside_rows = (guint) MAX (floor (avail_h / (font * TL_LEGEND_FIT_ROW_EM)), 1);
  guint cut = tl_paint_legend_grid_fit (&key, n, widths, LEGEND_SWATCH_EM, LEGEND_LABEL_CAP_EM,
                                        LEGEND_LABEL_LEAST_EM, beside_rows, MAX (beside_w, 0), FALSE, grid);
  if (n == 0 || (cut == 0 && tl_paint_legend_grid_width (grid) <= beside_w + 0.5))
    return 0;
  double under_h = legend_under (&key, n, widths, width, avail_h, height * 0.5,
                                 tl_sweep_plot_floor (style, height), grid);
  if (under_h > 0)
    return under_h;
  /* beside and cut (a chart under the Compare bars): the names give way
   * to their tags, the legend takes a bit more of the plot's width so
   * that those read whole ("10 TF32", not "1…T…"), and its rows go on
   * down beside the size axis to the picture's foot (at 1920×1080 six
   * rows of four columns cut eight names: "cu…TF…"); a kernel with no
   * tag keeps its whole name where that cuts no other ("cache-blocked,
   * multi-threaded"), in a smaller type where that does and the type
   * stays LEGEND_LEAST_PX, else its first LEGEND_LABEL_FLOOR_EM ems */
  out->legend_tags = TRUE;
  double max_w = MAX (beside_w, 0) + width * LEGEND_BESIDE_GROW, foot_h = height - out->plot_y;
  TlPaintStyle small = key;
  small.font_size *= LEGEND_SMALLER;
  if (beside_tags_fit (entries, model, &key, cr, LEGEND_LABEL_CAP_EM, foot_h, max_w, widths, grid) == 0)
    return 0;
  if (font * LEGEND_SMALLER >= LEGEND_LEAST_PX
      && beside_tags_fit (entries, model, &small, cr, LEGEND_LABEL_CAP_EM, foot_h, max_w, widths, grid) == 0)
    {
      out->legend_type = LEGEND_SMALLER;
      return 0;
    }
  beside_tags_fit (entries, model, &key, cr, LEGEND_LABEL_FLOOR_EM, foot_h, max_w, widths, grid);
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

/* Each entry's text in label_w: its name whole; with tags (the legend
 * laid out for them) or in a column narrower
 * than LEGEND_LABEL_FLOOR_EM the tag its line ends with ("04", "10 TF32":
 * the bars above and the plot's tags name the rung the same), as names
 * cut that short read "1…T…" and "c…S…"; else its name cut, told apart
 * from the others ("cuBL…TF32"). */
static char **
entry_labels (cairo_t *cr, const TlSweepModel *model, const GArray *entries, const TlPaintStyle *key,
              double label_w, gboolean tags)
{
  tl_paint_set_font (cr, key, key->font_size, FALSE);
  gboolean narrow = tags || label_w < TL_PX (key, key->font_size) * LEGEND_LABEL_FLOOR_EM;
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

/* The texts of the entries in the column col of the grid: each name
 * whole where the column has room, else as entry_labels cuts it there. */
static void
column_labels (cairo_t *cr, const TlSweepModel *model, const GArray *entries, const TlPaintStyle *key,
               const TlSweepLayout *lay, guint col, double label_w, char **out)
{
  const TlLegendGrid *grid = &lay->legend;
  g_auto (GStrv) labels = entry_labels (cr, model, entries, key, label_w, lay->legend_tags);
  guint rows = MAX (grid->rows, 1);
  for (guint i = col * rows; i < MIN (entries->len, (col + 1) * rows); i++)
    {
      out[i] = labels[i] ? labels[i] : g_strdup ("");
      labels[i] = g_strdup ("");
    }
}

void
tl_sweep_paint_legend (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                       const TlPaintStyle *style)
{
  TlPaintStyle key;
  tl_sweep_legend_style (style, &key);
  key.font_size *= lay->legend_type > 0 ? lay->legend_type : 1;
  double font = TL_PX (&key, key.font_size);
  g_autoptr (GArray) entries = legend_entries (model);
  g_auto (GStrv) labels = g_new0 (char *, entries->len + 1);
  for (guint c = 0; c < lay->legend.cols; c++)
    {
      double label_w = tl_paint_legend_entry_width (&lay->legend, c * MAX (lay->legend.rows, 1))
                       - font * (LEGEND_TEXT_EM + 0.5);
      column_labels (cr, model, entries, &key, lay, c, label_w, labels);
    }
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      double lx, ly;
      double label_w = tl_paint_legend_entry_width (&lay->legend, i) - font * (LEGEND_TEXT_EM + 0.5);
      tl_paint_legend_entry_at (&lay->legend, lay->legend_x, lay->legend_y, i, &lx, &ly);
      paint_swatch (cr, model, e, lx, ly, &key);
      tl_paint_set_fg (cr, &key);
      if (e->label && labels[i])
        tl_paint_text_fit (cr, lx + font * LEGEND_TEXT_EM, ly, 0, 0.5, label_w, labels[i]);
    }
}
