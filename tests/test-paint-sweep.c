/* test-paint-sweep.c — the size sweep as the back row sees it: the whole
 * ladder presenting at 1024×768 and 1280×800 and in a window's Compare
 * page, its tags, its size axis. */
#include <math.h>
#include <string.h>
#include "view/tl-compare-bars.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-sweep.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint-test-util.h"

/* the ladder as the registry names it, a user's kernel besides */
static const struct
{
  const char *label, *tag;
  gboolean reference;
} ladder[] = {
  { "naive triple loop", NULL, FALSE },
  { "cache-blocked, multi-threaded", NULL, FALSE },
  { "OpenBLAS ?gemm", "OpenBLAS ?gemm", TRUE },
  { "01 naive (uncoalesced)", "01", FALSE },
  { "02 coalesced", "02", FALSE },
  { "03 shared memory 16×16", "03", FALSE },
  { "04 shared memory 32×32", "04", FALSE },
  { "05 seed 004: three kernels", "05", FALSE },
  { "06 1-D register tiling", "06", FALSE },
  { "07 2-D register tiling", "07", FALSE },
  { "08 vectorised, conflict-free", "08", FALSE },
  { "09 warp tiling + async copy", "09", FALSE },
  { "10 tensor cores (WMMA, TF32)", "10 TF32", FALSE },
  { "10 tensor cores (WMMA, BF16)", "10 BF16", FALSE },
  { "11 Hopper wgmma + TMA", "11", FALSE },
  { "12 register tiling, float64", "12", FALSE },
  { "13 Hopper wgmma, TF32", "13", FALSE },
  { "14 Hopper wgmma, persistent", "14", FALSE },
  { "15 FP64 tensor cores (DMMA)", "15", FALSE },
  { "16 double-buffered, 4×8 warps, planned", "16", FALSE },
  { "17 warp-specialised SIMT + TMA", "17", FALSE },
  { "cuBLAS SGEMM (pedantic)", "cuBLAS FP32", TRUE },
  { "cuBLAS TF32", "cuBLAS TF32", TRUE },
  { "cuBLAS BF16", "cuBLAS BF16", TRUE },
  { "cuBLAS DGEMM", "cuBLAS FP64", TRUE },
  { "mine.cu", NULL, FALSE },
};
enum { N_SERIES = G_N_ELEMENTS (ladder), N_SIZES = 6 };

/* the default sweep's sizes and 4096: cubes and one odd shape */
static const gsize shapes[N_SIZES * 3] = { 256, 256, 256, 512, 512, 512, 1000, 777, 1111,
                                           1024, 1024, 1024, 2048, 2048, 2048, 4096, 4096, 4096 };

typedef struct
{
  double n[N_SIZES];
  double gflops[N_SERIES][N_SIZES];
  TlSweepSeries series[N_SERIES];
  TlSweepModel model;
} Ladder;

static void
ladder_init (Ladder *l)
{
  for (guint j = 0; j < N_SIZES; j++)
    l->n[j] = cbrt ((double) shapes[3 * j] * shapes[3 * j + 1] * shapes[3 * j + 2]);
  for (guint i = 0; i < N_SERIES; i++)
    {
      for (guint j = 0; j < N_SIZES; j++)
        l->gflops[i][j] = tl_test_random (0.8, 1.2) * (i + 1) * 40 * (j + 1);
      l->series[i] = (TlSweepSeries) { .label = ladder[i].label, .tag = ladder[i].tag, .n = l->n,
                                       .gflops = l->gflops[i], .shape = shapes, .count = N_SIZES,
                                       .reference = ladder[i].reference };
    }
  l->model = (TlSweepModel) { .series = l->series, .n_series = N_SERIES,
                              .title = "Size sweep: GFLOP/s of 6 records on NVIDIA H200" };
}

/* The sweep drawn on a new w×h surface (the context holds it: destroy
 * the context), its texts collected in boxes, its layout in lay. */
static cairo_t *
draw_sweep (const TlSweepModel *model, const TlPaintStyle *style, int w, int h, TlPaintTextBoxes *boxes,
            TlSweepLayout *lay)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  cairo_surface_destroy (s);
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_sweep (cr, model, style, w, h);
  tl_paint_sweep_layout (model, style, cr, w, h, lay);
  g_test_message ("%d×%d: plot %.0f×%.0f, legend %u×%u", w, h, lay->plot_w, lay->plot_h, lay->legend.cols,
                  lay->legend.rows);
  return cr;
}

/* The ladder's names in the legend (boxes right of and under its top
 * left that start as a name does), each never the same words as another. */
static guint
legend_names (const TlPaintTextBoxes *boxes, const TlSweepLayout *lay)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint named = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      gboolean in_legend = box->x >= lay->legend_x - 1 && box->y >= lay->legend_y - 1;
      for (guint i = 0; i < N_SERIES && in_legend; i++)
        if (strncmp (box->text, ladder[i].label, 4) == 0)
          {
            g_assert_false (g_hash_table_contains (seen, box->text));
            g_hash_table_add (seen, box->text);
            named++;
            break;
          }
    }
  return named;
}

/* The names in the legend that end in "…". */
static guint
names_cut (const TlPaintTextBoxes *boxes, const TlSweepLayout *lay)
{
  guint cut = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      if (box->x >= lay->legend_x - 1 && box->y >= lay->legend_y - 1 && strstr (box->text, "…"))
        cut++;
    }
  g_test_message ("%u names cut in the legend", cut);
  return cut;
}

/* The texts in the legend: each a kernel's name whole, its tag, or its
 * name cut to at least six characters around its "…"s, the pieces found
 * in the name in order, the first one starting it unless the text starts
 * with "…" ("cuBLAS S…", tl_paint_fit_distinct's "14…persistent",
 * "(W…BF16)", "…cache-b…"); "04 sh…", "1…T…" and "c…S…" named no kernel
 * on a slide.  Returns how many there are. */
static gboolean
is_cut_from (const char *text, const char *label)
{
  g_auto (GStrv) pieces = g_strsplit (text, "…", -1);
  const char *at = label;
  for (guint p = 0; pieces[p] != NULL; p++)
    {
      if (pieces[p][0] == '\0')
        continue;
      const char *found = strstr (at, pieces[p]);
      if (found == NULL || (p == 0 && found != label))
        return FALSE;
      at = found + strlen (pieces[p]);
    }
  return TRUE;
}

static guint
legend_readable (const TlPaintTextBoxes *boxes, const TlSweepLayout *lay)
{
  guint named = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    {
      const TlPaintTextBox *box = tl_paint_text_boxes_index (boxes, b);
      if (box->x < lay->legend_x - 1 || box->y < lay->legend_y - 1)
        continue;
      const char *ell = strstr (box->text, "…");
      if (ell)
        {
          g_auto (GStrv) pieces = g_strsplit (box->text, "…", -1);
          g_autofree char *joined = g_strjoinv ("", pieces);
          g_assert_cmpint (g_utf8_strlen (joined, -1), >=, 6);
        }
      gboolean found = FALSE;
      for (guint i = 0; i < N_SERIES && !found; i++)
        found = g_strcmp0 (box->text, ladder[i].label) == 0 || g_strcmp0 (box->text, ladder[i].tag) == 0
                || (ell && is_cut_from (box->text, ladder[i].label));
      if (!found)
        g_error ("the legend's “%s” names no kernel", box->text);
      named++;
    }
  return named;
}

/* The ladder under the Compare bars presenting (render -p --view compare
 * over two records: the sweep gets the picture's lower 45%): the legend
 * beside the plot names every kernel readably, by its tag where its name
 * does not fit ("10 TF32", was "1…T…"), and the plot keeps 28% of the width. */
static void
check_under_bars (const TlSweepModel *model, const TlPaintStyle *style, int w, int h)
{
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  TlSweepLayout lay;
  cairo_t *cr = draw_sweep (model, style, w, (int) (h * 0.45), boxes, &lay);
  g_assert_cmpuint (legend_readable (boxes, &lay), ==, N_SERIES);
  g_assert_cmpfloat (lay.plot_w, >=, w * 0.28);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, (int) (h * 0.45), NULL), ==, 0);
  cairo_destroy (cr);
}

/* Presenting the whole ladder on a projector: the plot takes half the
 * picture or more, every word is 14 px or taller, no two legend names
 * read the same, each line's end carries its tag, nothing overlaps; and
 * under the Compare bars, every legend name readable. */
static void
test_sweep_presenting (void)
{
  static const int screens[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };
  Ladder l;
  ladder_init (&l);
  TlPaintStyle style;
  tl_test_style_init (&style, TRUE);
  for (guint k = 0; k < G_N_ELEMENTS (screens); k++)
    {
      int w = screens[k][0], h = screens[k][1];
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      TlSweepLayout lay;
      cairo_t *cr = draw_sweep (&l.model, &style, w, h, boxes, &lay);
      g_assert_cmpfloat (lay.plot_h, >=, h * 0.5);
      g_assert_cmpfloat (lay.plot_w, >=, w * 0.5);
      for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
        g_assert_cmpfloat (tl_paint_text_boxes_index (boxes, b)->h, >=, 14.0);
      g_assert_cmpuint (legend_names (boxes, &lay), ==, N_SERIES);
      /* columns as wide as their own longest name: every name whole
       * (equal columns cut one at 1024×768 and 1280×800) */
      g_assert_cmpuint (names_cut (boxes, &lay), ==, 0);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "17"));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "cuBLAS TF32"));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "1000×777×1111"));
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_destroy (cr);
      check_under_bars (&l.model, &style, w, h);
    }
}

/* The whole ladder in a window's Compare page at 1024×768 (the chart 640
 * px wide beside the sidebar), as tall as it asks (under the bars) and
 * as tall as the page (alone): the legend under the plot ends inside the
 * picture, every kernel named in it, and the plot keeps 40% of the
 * height (26 names left it 90 of 280 px, a smear of lines); alone, the
 * names mostly whole. */
static void
test_sweep_window (void)
{
  Ladder l;
  ladder_init (&l);
  TlPaintStyle style;
  tl_test_style_init (&style, FALSE);
  int w = 640, least = (int) ceil (tl_paint_sweep_min_height (&l.model, &style, w));
  int heights[] = { least, 518 };
  for (guint k = 0; k < G_N_ELEMENTS (heights); k++)
    {
      int h = heights[k];
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      TlSweepLayout lay;
      cairo_t *cr = draw_sweep (&l.model, &style, w, h, boxes, &lay);
      g_assert_cmpfloat (lay.plot_h, >=, h * 0.4);
      g_assert_cmpfloat (lay.legend_y, >, lay.plot_y + lay.plot_h);
      g_assert_cmpfloat (lay.legend_y + lay.legend.rows * lay.legend.row_h, <=, h);
      g_assert_cmpuint (legend_names (boxes, &lay), ==, N_SERIES);
      /* alone on the page, the legend takes the columns that leave the
       * plot half the height, not more: four cut 19 of 26 names short */
      if (h > least)
        g_assert_cmpuint (names_cut (boxes, &lay), <=, N_SERIES / 3);
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_destroy (cr);
    }
}

/* A title longer than a narrow picture (German, two records on two
 * machines) gives way to its short form, never "…auf…": both sweeps'
 * titles carry one. */
static void
test_sweep_title_narrow (void)
{
  Ladder l;
  ladder_init (&l);
  TlPaintStyle style;
  tl_test_style_init (&style, FALSE);
  g_autoptr (GPtrArray) none = g_ptr_array_new ();
  g_autoptr (TlSweepData) session = tl_sweep_data_new_session (none, FALSE);
  g_autoptr (TlSweepData) records = tl_sweep_data_new_records (none, TRUE);
  g_assert_nonnull (strstr (session->model.title, "\nSize sweep: GFLOP/s"));
  g_assert_nonnull (strstr (records->model.title, "\nSize sweep: % of the vendor"));

  l.model.title = "Größen-Sweep: GFLOP/s aus 2 Laufaufzeichnungen auf 2 Rechnern\n"
                  "Größen-Sweep: GFLOP/s";
  int w = 480, h = (int) ceil (tl_paint_sweep_min_height (&l.model, &style, w));
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  TlSweepLayout lay;
  cairo_t *cr = draw_sweep (&l.model, &style, w, h, boxes, &lay);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "Größen-Sweep: GFLOP/s"));
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    g_assert_false (g_str_has_prefix (tl_paint_text_boxes_index (boxes, b)->text, "Größen-Sweep: GFLOP/s aus"));
  cairo_destroy (cr);
}

/* The size axis ends just past the largest size and starts just before
 * the smallest, a tick at each size measured ("1000", not only powers of
 * two), in a window and presenting. */
static void
test_sweep_size_axis (void)
{
  static const double n[] = { 300, 1000, 5000 };
  double g[3] = { tl_test_random (1, 10), tl_test_random (10, 100), tl_test_random (100, 1000) };
  TlSweepSeries series = { .label = "03 shared memory 16×16", .tag = "03", .n = n, .gflops = g, .count = 3 };
  TlSweepModel model = { .series = &series, .n_series = 1, .title = "sweep" };
  for (int presenting = 0; presenting < 2; presenting++)
    {
      TlPaintStyle style;
      tl_test_style_init (&style, presenting);
      int w = 900, h = 500;
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      TlSweepLayout lay;
      cairo_t *cr = draw_sweep (&model, &style, w, h, boxes, &lay);
      g_assert_cmpfloat (lay.n_hi, >, 5000);
      g_assert_cmpfloat (lay.n_hi, <=, 5000 * 1.15);
      g_assert_cmpfloat (lay.n_lo, <, 300);
      g_assert_cmpfloat (lay.n_lo, >=, 300 / 1.25);
      for (guint i = 0; i < 3; i++)
        {
          char label[16];
          g_snprintf (label, sizeof label, "%.0f", n[i]);
          const TlPaintTextBox *b = tl_paint_text_boxes_find (boxes, label);
          g_assert_nonnull (b);
          double x, y;
          tl_sweep_layout_point (&lay, n[i], g[i], &x, &y);
          g_assert_cmpfloat (fabs (b->x + b->w / 2 - x), <, 1.5);
        }
      /* the last point's marker inside the frame, its tag right of it */
      double x, y;
      tl_sweep_layout_point (&lay, 5000, g[2], &x, &y);
      g_assert_cmpfloat (x + TL_PX (&style, 4), <=, lay.plot_x + lay.plot_w);
      const TlPaintTextBox *tag = tl_paint_text_boxes_find (boxes, "03");
      g_assert_nonnull (tag);
      g_assert_cmpfloat (tag->x, >, lay.plot_x + lay.plot_w);
      g_assert_cmpfloat (fabs (tag->y + tag->h / 2 - y), <, 1.5);
      g_assert_null (tl_paint_text_boxes_find (boxes, "4096"));
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_destroy (cr);
    }
}

/* A kernel picked on the bars: its line in its own colour, bold, its tag
 * kept; the others faded most of the way to the background. */
static void
test_sweep_picked (void)
{
  static const double n[] = { 256, 1024, 4096 };
  static const char *const ids[] = { "gemm-03-smem16", "gemm-07-regtile2d", "cublas-fp32" };
  static const char *const tags[] = { "03", "07", "cuBLAS FP32" };
  double g[3][3];
  TlSweepSeries series[3];
  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        g[i][j] = pow (10, i + 1) * (j + 1) * tl_test_random (0.9, 1.1);
      series[i] = (TlSweepSeries) { .label = tags[i], .kernel_id = ids[i], .tag = tags[i], .n = n,
                                    .gflops = g[i], .count = 3, .reference = i == 2 };
    }
  TlSweepModel model = { .series = series, .n_series = 3, .title = "sweep", .picked = ids[1] };
  TlPaintStyle style;
  tl_test_style_init (&style, FALSE);
  int w = 900, h = 500;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  TlSweepLayout lay;
  cairo_t *cr = draw_sweep (&model, &style, w, h, boxes, &lay);
  cairo_surface_t *s = cairo_get_target (cr);
  for (guint i = 0; i < 3; i++)
    {
      TlKernelLook look;
      tl_kernel_look (ids[i], &look);
      double keep = i == 1 ? 1.0 : 0.3, x, y;
      guint32 want = tl_test_rgb ((int) lround ((keep * look.rgb[0] + 1 - keep) * 255),
                                  (int) lround ((keep * look.rgb[1] + 1 - keep) * 255),
                                  (int) lround ((keep * look.rgb[2] + 1 - keep) * 255));
      tl_sweep_layout_point (&lay, n[1], g[i][1], &x, &y);
      tl_assert_pixel_near (s, x, y, want, 2);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, tags[i]));
    }
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_destroy (cr);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep/presenting", test_sweep_presenting);
  g_test_add_func ("/sweep/window", test_sweep_window);
  g_test_add_func ("/sweep/size-axis", test_sweep_size_axis);
  g_test_add_func ("/sweep/picked", test_sweep_picked);
  g_test_add_func ("/sweep/title-narrow", test_sweep_title_narrow);
  return g_test_run ();
}
