/* test-paint-heatmap.c — a known matrix puts known colours at known pixels. */
#include <math.h>
#include "paint/tl-paint-heatmap.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

static TlMatrix *
known_matrix (gsize rows, gsize cols)
{
  return tl_test_random_matrix (TL_DTYPE_FLOAT32, rows, cols, -4.0, 4.0);
}

static cairo_surface_t *
paint (const TlHeatmapModel *model, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  tl_paint_heatmap (cr, model, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return s;
}

static void
cell_centre (const TlHeatmapLayout *lay, double i, double j, double *x, double *y)
{
  *x = lay->plot_x + (j + 0.5 - lay->view_col0) * lay->px_per_col;
  *y = lay->plot_y + (i + 0.5 - lay->view_row0) * lay->px_per_row;
}

/* cells only: a 4×6 matrix in 60×40 style units gives 10-unit cells */
static void
test_cells (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      g_autoptr (TlMatrix) m = known_matrix (4, 6);
      tl_matrix_set (m, 2, 3, NAN);
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 1000, 1000, TL_POOL_MEAN, NULL, NULL);
      TlHeatmapModel model;
      tl_heatmap_model_init (&model);
      model.grid = g;
      model.show_axes = FALSE;
      model.show_colorbar = FALSE;
      tl_color_scale_init_auto (&model.scale, g->min, g->max);
      g_assert_cmpint (model.scale.map, ==, TL_COLORMAP_RDBU);

      cairo_surface_t *s = paint (&model, &style, (int) (60 * sc), (int) (40 * sc));
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
          {
            double x = (j + 0.5) * 10 * sc, y = (i + 0.5) * 10 * sc;
            guint32 want = tl_color_scale_argb (&model.scale, tl_matrix_get (m, i, j));
            tl_assert_pixel_near (s, x, y, want, 0);
            /* and the cell's corners (one pixel in) have the same colour */
            tl_assert_pixel_near (s, j * 10 * sc + 1, i * 10 * sc + 1, want, 0);
            tl_assert_pixel_near (s, (j + 1) * 10 * sc - 2, (i + 1) * 10 * sc - 2, want, 0);
          }
      tl_assert_pixel_near (s, 3.5 * 10 * sc, 2.5 * 10 * sc, TL_COLOR_NAN_ARGB, 0);

      /* the layout maps pixels back to the same cells */
      TlHeatmapLayout lay;
      gsize r, c;
      tl_paint_heatmap_layout (&model, &style, 60 * sc, 40 * sc, &lay);
      g_assert_true (tl_heatmap_layout_cell_at (&lay, &model, 3.5 * 10 * sc, 1.5 * 10 * sc, &r, &c));
      g_assert_cmpuint (r, ==, 1);
      g_assert_cmpuint (c, ==, 3);
      cairo_surface_destroy (s);
    }
}

/* with title, axes and colorbar: cells land where the layout says, the
 * colorbar shows both ends of the map */
static void
test_full (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      g_autoptr (TlMatrix) m = known_matrix (7, 5);
      for (gsize i = 0; i < 7; i++)
        for (gsize j = 0; j < 5; j++)
          tl_matrix_set (m, i, j, fabs (tl_matrix_get (m, i, j)) + 0.1); /* non-negative: viridis */
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 1000, 1000, TL_POOL_MEAN, NULL, NULL);
      TlHeatmapModel model;
      tl_heatmap_model_init (&model);
      model.grid = g;
      model.title = "A";
      model.units = "value";
      tl_color_scale_init_auto (&model.scale, g->min, g->max);
      g_assert_cmpint (model.scale.map, ==, TL_COLORMAP_VIRIDIS);

      int w = (int) (420 * sc), h = (int) (360 * sc);
      cairo_surface_t *s = paint (&model, &style, w, h);
      TlHeatmapLayout lay;
      tl_paint_heatmap_layout (&model, &style, w, h, &lay);
      /* square cells or stretched towards the panel, never past 3:1, and
       * the 7×5 matrix stays taller than wide */
      g_assert_cmpfloat (lay.px_per_col / lay.px_per_row, <=, 3.0 + 1e-9);
      g_assert_cmpfloat (lay.px_per_col / lay.px_per_row, >=, 1.0 / 3.0 - 1e-9);
      g_assert_cmpfloat (lay.plot_h, >=, lay.plot_w - 1e-9);
      g_assert_cmpfloat (lay.plot_y, >, 0);       /* room for title and column indices */
      g_assert_cmpfloat (lay.plot_x, >, 0);       /* room for row indices */
      g_assert_cmpfloat (lay.cb_w, >, 0);
      g_assert_cmpfloat (lay.cb_x, >=, lay.plot_x + lay.plot_w);

      for (int i = 0; i < 7; i++)
        for (int j = 0; j < 5; j++)
          {
            double x, y;
            cell_centre (&lay, i, j, &x, &y);
            tl_assert_pixel_near (s, x, y, tl_color_scale_argb (&model.scale, tl_matrix_get (m, i, j)), 0);
          }

      /* colorbar: top is viridis(1), bottom viridis(0) */
      double bx = lay.cb_x + 11 * sc;
      tl_assert_pixel_near (s, bx, lay.cb_y + lay.cb_h * 0.5 - lay.cb_h * 0.45, tl_test_rgb (253, 231, 37), 20);
      tl_assert_pixel_near (s, bx, lay.cb_y + lay.cb_h * 0.97 - 12 * sc, tl_test_rgb (68, 1, 84), 20);

      /* the title is drawn: some dark pixels in the top band */
      gboolean ink = FALSE;
      for (int y = 0; y < lay.plot_y * 0.4 && !ink; y++)
        for (int x = (int) lay.plot_x; x < lay.plot_x + 40 * sc && !ink; x++)
          ink = tl_test_pixel_distance (tl_test_pixel (s, x, y), tl_test_rgb (255, 255, 255)) > 120;
      g_assert_true (ink);
      cairo_surface_destroy (s);
    }
}

/* pooling: 1000×600 to at most 100×100 draws the pooled cells */
static void
test_pooled_and_zoom (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      g_autoptr (TlMatrix) m = known_matrix (1000, 600);
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 100, 100, TL_POOL_MAX_ABS, NULL, NULL);
      g_assert_cmpuint (g->factor_r, ==, 10);
      g_assert_cmpuint (g->factor_c, ==, 6);
      TlHeatmapModel model;
      tl_heatmap_model_init (&model);
      model.grid = g;
      model.show_axes = FALSE;
      model.show_colorbar = FALSE;
      tl_color_scale_init_auto (&model.scale, g->min, g->max);

      /* zoom: rows 100–199, cols 60–179 into 120×100 units → 1 unit per element */
      model.view_row0 = 100;
      model.view_col0 = 60;
      model.view_rows = 100;
      model.view_cols = 120;
      cairo_surface_t *s = paint (&model, &style, (int) (120 * sc), (int) (100 * sc));
      for (int gr = 10; gr < 20; gr++)
        for (int gc = 10; gc < 30; gc++)
          {
            /* pooled cell (gr, gc) covers rows gr·10…, cols gc·6… */
            double x = ((gc * 6 + 3) - 60) * sc, y = ((gr * 10 + 5) - 100) * sc;
            tl_assert_pixel_near (s, x, y, tl_color_scale_argb (&model.scale, tl_pooled_grid_get (g, gr, gc)), 0);
          }
      cairo_surface_destroy (s);
    }
}

/* tile grid and linked-hover highlight change exactly the pixels they should */
static void
test_overlays (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT64, 32, 32, NULL);
      double v = tl_test_random (1.0, 2.0);
      tl_matrix_fill (m, v);
      tl_matrix_set (m, 0, 0, 0.0); /* a range, so the colour is not mid-map by accident */
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 1000, 1000, TL_POOL_MEAN, NULL, NULL);
      TlHeatmapModel model;
      tl_heatmap_model_init (&model);
      model.grid = g;
      model.show_axes = FALSE;
      model.show_colorbar = FALSE;
      model.tile_m = model.tile_n = 8;
      model.show_tiles = TRUE;
      model.highlight_row = 20;
      tl_color_scale_init_auto (&model.scale, 0.0, 2.0);
      guint32 cell = tl_color_scale_argb (&model.scale, v);

      /* 10 units per element */
      cairo_surface_t *s = paint (&model, &style, (int) (320 * sc), (int) (320 * sc));
      /* tile boundary at column 8 → x = 80 units: not the cell colour */
      g_assert_cmpint (tl_test_pixel_distance (tl_test_pixel (s, 80 * sc, 45 * sc), cell), >, 30);
      /* inside a tile: the cell colour */
      tl_assert_pixel_near (s, 45 * sc, 45 * sc, cell, 0);
      /* highlighted row 20 (y 200–210 units) is tinted — the cell colour under
       * a 25% orange (255, 140, 0) veil, whatever random colour the cell has —
       * and row 10 is not */
      guint32 tinted = 0xff000000;
      for (int shift = 0; shift <= 16; shift += 8)
        {
          static const int tint[3] = { 0, 140, 255 }; /* b, g, r */
          double c = (cell >> shift) & 0xff;
          guint32 t = (guint32) lround (0.75 * c + 0.25 * tint[shift / 8]);
          tinted |= t << shift;
        }
      tl_assert_pixel_near (s, 45 * sc, 205 * sc, tinted, 3);
      tl_assert_pixel_near (s, 45 * sc, 105 * sc, cell, 0);

      /* the same without overlays: all plain */
      model.show_tiles = FALSE;
      model.highlight_row = -1;
      model.highlight_col = 3;
      cairo_surface_t *t = paint (&model, &style, (int) (320 * sc), (int) (320 * sc));
      tl_assert_pixel_near (t, 80 * sc + 3, 45 * sc, cell, 0);
      tl_assert_pixel_near (t, 45 * sc, 205 * sc, cell, 0);
      tl_assert_pixel_near (t, 35 * sc, 205 * sc, tinted, 3); /* column 3 is tinted */

      /* a band: the 8 rows of A one tile read (rows 16…23), for the linked hover */
      model.highlight_col = -1;
      model.highlight_row = 16;
      model.highlight_rows = 8;
      cairo_surface_t *u = paint (&model, &style, (int) (320 * sc), (int) (320 * sc));
      for (int r = 16; r < 24; r++)
        tl_assert_pixel_near (u, 45 * sc, (r * 10 + 5) * sc, tinted, 3);
      tl_assert_pixel_near (u, 45 * sc, 145 * sc, cell, 0);
      tl_assert_pixel_near (u, 45 * sc, 255 * sc, cell, 0);
      cairo_surface_destroy (u);
      cairo_surface_destroy (s);
      cairo_surface_destroy (t);
    }
}

/* Honest colours: the scale comes from every element, so a cell keeps its
 * colour when the view zooms in and the region is pooled again finer. */
static void
test_colour_stays_under_zoom (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  g_autoptr (TlMatrix) m = known_matrix (900, 700);
  /* one far extreme: its pooled cell is the only one that reaches it */
  tl_matrix_set (m, 812, 77, 40.0);
  g_autoptr (TlPooledGrid) whole = tl_pool_matrix (m, 0, 0, 0, 0, 90, 70, TL_POOL_MEAN, NULL, NULL);
  g_autoptr (TlPooledGrid) zoomed = tl_pool_matrix (m, 100, 200, 60, 50, 90, 70, TL_POOL_MEAN, NULL, NULL);
  TlValueRange all;
  g_assert_true (tl_pool_value_range (m, NULL, &all, NULL));
  /* the whole-matrix pooling saw every element, the zoomed one only its region */
  g_assert_cmpfloat (whole->range.max, ==, 40.0);
  g_assert_cmpfloat (all.max, ==, 40.0);
  g_assert_cmpfloat (all.min, ==, whole->range.min);
  g_assert_cmpfloat (zoomed->range.max, <, 40.0);

  TlHeatmapModel a, b;
  tl_heatmap_model_init (&a);
  a.grid = whole;
  a.show_axes = a.show_colorbar = FALSE;
  tl_color_scale_init_for_range (&a.scale, -1, TL_SCALE_LINEAR, &all);
  b = a;
  b.grid = zoomed;
  b.view_row0 = 100;
  b.view_col0 = 200;
  b.view_rows = 60;
  b.view_cols = 50;
  /* the zoomed view: 50×60 elements at 4 px; element (130, 230) */
  cairo_surface_t *sz = paint (&b, &style, 200, 240);
  double v = tl_matrix_get (m, 130, 230);
  guint32 want = tl_color_scale_argb (&a.scale, v);
  tl_assert_pixel_near (sz, (230 - 200 + 0.5) * 4, (130 - 100 + 0.5) * 4, want, 0);
  /* the same scale as the overview: ±40, not the region's own range */
  g_assert_cmpfloat (b.scale.vmax, ==, 40.0);
  g_assert_cmpfloat (b.scale.vmin, ==, -40.0);
  cairo_surface_destroy (sz);
}

/* Max |a| pooling keeps a lone extreme that mean pooling averages away;
 * max pooling keeps the largest value. */
static void
test_pooling_keeps_extremes (void)
{
  g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT64, 512, 512, 0.0, 1e-3);
  tl_matrix_set (m, 300, 17, -0.5);
  tl_matrix_set (m, 40, 400, 0.25);
  g_autoptr (TlPooledGrid) mean = tl_pool_matrix (m, 0, 0, 0, 0, 16, 16, TL_POOL_MEAN, NULL, NULL);
  g_autoptr (TlPooledGrid) maxabs = tl_pool_matrix (m, 0, 0, 0, 0, 16, 16, TL_POOL_MAX_ABS, NULL, NULL);
  g_autoptr (TlPooledGrid) mx = tl_pool_matrix (m, 0, 0, 0, 0, 16, 16, TL_POOL_MAX, NULL, NULL);
  g_assert_cmpuint (maxabs->factor_r, ==, 32);
  g_assert_cmpfloat (tl_pooled_grid_get (maxabs, 300 / 32, 17 / 32), ==, -0.5);
  g_assert_cmpfloat (tl_pooled_grid_get (mx, 40 / 32, 400 / 32), ==, 0.25);
  g_assert_cmpfloat (fabs (tl_pooled_grid_get (mean, 300 / 32, 17 / 32)), <, 0.5 / 100);
  /* the max cell of the block with −0.5 is its largest (positive) element */
  g_assert_cmpfloat (tl_pooled_grid_get (mx, 300 / 32, 17 / 32), >, 0);
  g_autofree char *note = tl_pooled_grid_describe_cells (maxabs);
  g_assert_cmpstr (note, ==, "each cell: max |value| of 32×32");

  /* on screen: the extreme's cell has the colour of the bottom of the map */
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlHeatmapModel model;
  tl_heatmap_model_init (&model);
  model.grid = maxabs;
  model.show_axes = model.show_colorbar = FALSE;
  tl_color_scale_init_for_range (&model.scale, -1, TL_SCALE_LINEAR, &maxabs->range);
  cairo_surface_t *s = paint (&model, &style, 160, 160);
  guint8 low[3];
  tl_colormap_rgb (model.scale.map, 0.0, low);
  tl_assert_pixel_near (s, (17 / 32 + 0.5) * 10, (300 / 32 + 0.5) * 10, tl_test_rgb (low[0], low[1], low[2]), 0);
  cairo_surface_destroy (s);
}

/* A log scale masks values ≤ 0 in the mask colour, says so under the colour
 * bar, and never colours them by |a|. */
static void
test_log_masks (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT64, 6, 8, 0.01, 10.0);
  tl_matrix_set (m, 1, 2, 0.0);
  tl_matrix_set (m, 4, 5, -tl_test_random (1, 5));
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 100, 100, TL_POOL_MEAN, NULL, NULL);
  TlHeatmapModel model;
  tl_heatmap_model_init (&model);
  model.grid = g;
  model.units = "value";
  tl_color_scale_init_for_range (&model.scale, -1, TL_SCALE_LOG, &g->range);
  g_assert_cmpint (model.scale.map, ==, TL_COLORMAP_VIRIDIS);
  g_assert_cmpfloat (model.scale.vmin, >, 0);

  int w = 520, h = 360;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_heatmap (cr, &model, &style, w, h);
  cairo_destroy (cr);
  TlHeatmapLayout lay;
  tl_paint_heatmap_layout (&model, &style, w, h, &lay);

  guint8 mask[3];
  tl_colormap_mask_rgb (TL_COLORMAP_VIRIDIS, mask);
  guint32 mask_px = tl_test_rgb (mask[0], mask[1], mask[2]);
  double x, y;
  cell_centre (&lay, 1, 2, &x, &y);
  tl_assert_pixel_near (s, x, y, mask_px, 0);
  cell_centre (&lay, 4, 5, &x, &y);
  tl_assert_pixel_near (s, x, y, mask_px, 0);
  /* a positive cell is on the map, not masked */
  cell_centre (&lay, 0, 0, &x, &y);
  g_assert_cmpint (tl_test_pixel_distance (tl_test_pixel (s, x, y), mask_px), >, 10);
  tl_assert_pixel_near (s, x, y, tl_color_scale_argb (&model.scale, tl_matrix_get (m, 0, 0)), 0);
  /* the colour bar says it: "value, log scale" and a "≤ 0" swatch */
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "value, log scale"));
  const TlPaintTextBox *sw = tl_paint_text_boxes_find (boxes, "≤ 0");
  g_assert_nonnull (sw);
  /* the swatch left of its label has the mask colour */
  tl_assert_pixel_near (s, lay.cb_x + TL_PX (&style, 11), sw->y + sw->h / 2, mask_px, 0);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_surface_destroy (s);
}

/* The error map on a log scale in a narrow panel (the Matrices page's
 * fourth heatmap at 1024×768): the colour bar's label says less —
 * "|C − ref| (log)" — rather than end in "log sc…". */
static void
test_log_label_narrow (void)
{
  static const int sizes[][2] = { { 200, 190 }, { 240, 170 }, { 320, 240 } };
  g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT64, 64, 64, 1e-9, 1e-5);
  tl_matrix_set (m, 3, 7, 0.0);
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 100, 100, TL_POOL_MAX_ABS, NULL, NULL);
  TlHeatmapModel model;
  tl_heatmap_model_init (&model);
  model.grid = g;
  model.units = "|C − ref|";
  tl_color_scale_init_for_range (&model.scale, -1, TL_SCALE_LOG, &g->range);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int presenting = 0; presenting < 2; presenting++)
      {
        TlPaintStyle style;
        if (presenting)
          tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
        else
          tl_paint_style_init (&style, 1);
        int w = sizes[k][0] * (presenting ? 2 : 1), h = sizes[k][1] * (presenting ? 2 : 1);
        cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
        cairo_t *cr = cairo_create (s);
        g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
        tl_paint_text_boxes_attach (cr, boxes);
        tl_paint_heatmap (cr, &model, &style, w, h);
        cairo_destroy (cr);
        cairo_surface_destroy (s);
        const TlPaintTextBox *label = tl_paint_text_boxes_find (boxes, "|C − ref|");
        g_assert_nonnull (label);
        if (strstr (label->text, "…") != NULL)
          g_error ("%d×%d%s: the colour bar's label cut to “%s”", w, h, presenting ? " presenting" : "",
                   label->text);
      }
}

/* a model of g on a linear scale, as the Matrices page shows a matrix */
static void
linear_model (TlHeatmapModel *model, TlPooledGrid *g)
{
  tl_heatmap_model_init (model);
  model->grid = g;
  tl_color_scale_init_for_range (&model->scale, -1, TL_SCALE_LINEAR, &g->range);
}

/* SVG and PDF heatmaps are rectangles, not an image viewers would smooth. */
static void
test_vector_cells (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  g_autoptr (TlMatrix) m = known_matrix (12, 9);
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 100, 100, TL_POOL_MEAN, NULL, NULL);
  TlHeatmapModel model;
  linear_model (&model, g);
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (rec);
  tl_paint_heatmap (cr, &model, &style, 400, 300);
  cairo_destroy (cr);
  /* replayed onto an image, every cell has its exact colour, edge to edge */
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 300);
  cr = cairo_create (img);
  cairo_set_source_surface (cr, rec, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  TlHeatmapLayout lay;
  tl_paint_heatmap_layout (&model, &style, 400, 300, &lay);
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 9; j++)
      {
        double x, y;
        guint32 want = tl_color_scale_argb (&model.scale, tl_matrix_get (m, i, j));
        cell_centre (&lay, i, j, &x, &y);
        tl_assert_pixel_near (img, x, y, want, 1);
        tl_assert_pixel_near (img, x - lay.px_per_col * 0.4, y - lay.px_per_row * 0.4, want, 1);
      }
  cairo_surface_destroy (img);
  cairo_surface_destroy (rec);
}

/* A matrix keeps its proportions in any panel: 512×512 square in the
 * narrow panels of a 1024×768 window (its colour bar then under it) and in
 * a wide one (the bar beside it); 1000×777 as wide as it is tall in
 * proportion; filling the panel is the explicit choice `stretch`. */
static void
test_true_proportions (void)
{
  static const struct { gsize rows, cols; double w, h; } cases[] = {
    { 512, 512, 205, 275 }, { 512, 512, 600, 260 }, { 512, 512, 335, 330 },
    { 1000, 777, 205, 275 }, { 1000, 777, 700, 300 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (double sc = 1; sc <= 1.6; sc += 0.6)
      {
        TlPaintStyle style;
        tl_paint_style_init (&style, sc);
        g_autoptr (TlMatrix) m = known_matrix (cases[i].rows, cases[i].cols);
        g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 256, 256, TL_POOL_MEAN, NULL, NULL);
        TlHeatmapModel model;
        linear_model (&model, g);
        model.title = "A";
        TlHeatmapLayout lay;
        tl_paint_heatmap_layout (&model, &style, cases[i].w, cases[i].h, &lay);
        g_assert_cmpfloat_with_epsilon (lay.px_per_row, lay.px_per_col, 1e-9);
        g_assert_cmpfloat_with_epsilon (lay.plot_w / lay.plot_h, (double) cases[i].cols / cases[i].rows, 1e-9);
        /* in the narrow panel the bar goes under the plot and the cells
         * take the panel's width */
        if (cases[i].w < cases[i].h)
          {
            g_assert_true (lay.cb_horizontal);
            g_assert_cmpfloat (lay.cb_y, >, lay.plot_y + lay.plot_h);
            g_assert_cmpfloat (lay.cb_y + lay.cb_h, <=, cases[i].h + 0.5);
          }
        model.stretch = TRUE;
        TlHeatmapLayout filled;
        tl_paint_heatmap_layout (&model, &style, cases[i].w, cases[i].h, &filled);
        g_assert_cmpfloat (filled.plot_w * filled.plot_h, >=, lay.plot_w * lay.plot_h - 1e-6);
      }
}

/* Presenting a 512² matrix in a Matrices panel of a 1024×768 screen (about
 * 330×325 px): the colour bar goes under the plot with its label right of
 * the strip, so the cells take the room (the bar beside left them a square
 * of 120 px, its ticks and label as wide as that); the cells stay square
 * and every text whole, inside the panel and 14 px or more. */
static void
test_presenting_takes_the_room (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.6);
  g_autoptr (TlMatrix) m = known_matrix (512, 512);
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 512, 512, TL_POOL_MEAN, NULL, NULL);
  TlHeatmapModel model;
  linear_model (&model, g);
  model.title = "A";
  model.units = "value";

  int w = 330, h = 325;
  TlHeatmapLayout lay;
  tl_paint_heatmap_layout (&model, &style, w, h, &lay);
  g_assert_true (lay.cb_horizontal);
  g_assert_true (lay.cb_label_beside);
  g_assert_cmpfloat_with_epsilon (lay.px_per_row, lay.px_per_col, 1e-9);
  g_assert_cmpfloat (lay.plot_w, >=, 0.42 * h);
  g_assert_cmpfloat (lay.cb_x + lay.cb_w, <=, w + 0.5);
  g_assert_cmpfloat (lay.cb_y + lay.cb_h, <=, h + 0.5);

  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_heatmap (cr, &model, &style, w, h);
  cairo_destroy (cr);
  g_autoptr (GString) report = g_string_new (NULL);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, report), ==, 0);
  /* the label on the strip's line, right of the plot's right edge */
  const TlPaintTextBox *label = tl_paint_text_boxes_find (boxes, "value");
  g_assert_nonnull (label);
  g_assert_cmpfloat (label->x, >=, lay.plot_x + lay.plot_w);
  g_assert_cmpfloat (label->y, <, lay.cb_y + TL_PX (&style, 4 + 14));
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    g_assert_cmpfloat (tl_paint_text_boxes_index (boxes, i)->h, >=, 14);
  cairo_surface_destroy (s);
}

static void
test_empty (void)
{
  TlPaintStyle style;
  TlHeatmapModel model;
  tl_paint_style_init (&style, 1);
  tl_heatmap_model_init (&model);
  model.empty_text = "No matrix";
  cairo_surface_t *s = paint (&model, &style, 200, 100);
  tl_assert_pixel_near (s, 2, 2, tl_test_rgb (255, 255, 255), 0);
  cairo_surface_destroy (s);

  /* a panel narrower than its words wraps them, whole (the Matrices
   * page's C panel presenting at 1024×768 in German cut them: "C: für
   * diese A, B „Ausführen“ d…") */
  const char *words = "C: für diese A, B „Ausführen“ drücken";
  model.empty_text = words;
  tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 210, 200);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_heatmap (cr, &model, &style, 210, 200);
  g_autoptr (GString) drawn = g_string_new (NULL);
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    g_string_append_printf (drawn, "%s%s", i ? " " : "", tl_paint_text_boxes_index (boxes, i)->text);
  g_assert_cmpstr (drawn->str, ==, words);
  g_assert_cmpuint (tl_paint_text_boxes_len (boxes), >, 1);
  g_autoptr (GString) report = g_string_new (NULL);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 210, 200, report), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* a pooled grid becomes one opaque pixel per cell, NaN in magenta */
static void
test_colorize (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT64, 6, 9, -2.0, 2.0);
  tl_matrix_set (m, 5, 8, NAN);
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 6, 9, TL_POOL_MEAN, NULL, &error);
  TlColorScale s;
  tl_color_scale_init_auto (&s, g->min, g->max);
  cairo_surface_t *img = tl_pooled_grid_colorize (g, &s);
  g_assert_cmpint (cairo_image_surface_get_width (img), ==, 9);
  g_assert_cmpint (cairo_image_surface_get_height (img), ==, 6);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 9; j++)
      g_assert_cmphex (tl_test_pixel (img, j, i), ==, tl_color_scale_argb (&s, tl_matrix_get (m, i, j)));
  g_assert_cmphex (tl_test_pixel (img, 8, 5), ==, TL_COLOR_NAN_ARGB);
  cairo_surface_destroy (img);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heatmap/cells", test_cells);
  g_test_add_func ("/heatmap/full", test_full);
  g_test_add_func ("/heatmap/pooled-zoom", test_pooled_and_zoom);
  g_test_add_func ("/heatmap/overlays", test_overlays);
  g_test_add_func ("/heatmap/colour-stays-under-zoom", test_colour_stays_under_zoom);
  g_test_add_func ("/heatmap/pooling-keeps-extremes", test_pooling_keeps_extremes);
  g_test_add_func ("/heatmap/log-masks", test_log_masks);
  g_test_add_func ("/heatmap/vector-cells", test_vector_cells);
  g_test_add_func ("/heatmap/true-proportions", test_true_proportions);
  g_test_add_func ("/heatmap/presenting-takes-the-room", test_presenting_takes_the_room);
  g_test_add_func ("/heatmap/empty", test_empty);
  g_test_add_func ("/heatmap/log-label-narrow", test_log_label_narrow);
  g_test_add_func ("/heatmap/colorize", test_colorize);
  return g_test_run ();
}
