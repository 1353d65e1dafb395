/* test-paint-timeline.c — a known block record puts bars at known pixels,
 * pixels map back to blocks, waves get their colours, two kernels share one
 * time scale. */
#include <math.h>
#include <string.h>
#include "core/tl-locale.h"
#include "view/tl-colormap.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-timeline.h"
#include "paint/tl-paint-util.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

/* 10 blocks on 4 SMs, one at a time: waves of 4, 4, 2; block i lasts
 * (100 − i) µs × stretch */
static void
known_blocks (TlBlockRecord *b, double stretch)
{
  for (guint i = 0; i < 10; i++)
    b[i] = (TlBlockRecord) {
      .block_x = i % 5, .block_y = i / 5, .unit = i % 4,
      .start_ns = (guint64) ((i / 4) * 100000 * stretch),
      .end_ns = (guint64) (((i / 4) * 100000 + 100000 - i * 1000) * stretch),
    };
}

/* The timeline painted on a w × h picture, its texts in boxes (when not NULL). */
static cairo_surface_t *
paint_texts (const TlTimelineModel *model, const TlPaintStyle *style, int w, int h,
             TlPaintTextBoxes *boxes)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_timeline (cr, model, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return s;
}

static cairo_surface_t *
paint (const TlTimelineModel *model, const TlPaintStyle *style, int w, int h)
{
  return paint_texts (model, style, w, h, NULL);
}

static guint32
rgb_to_argb (const double rgb[3])
{
  return tl_test_rgb ((int) (rgb[0] * 255 + 0.5), (int) (rgb[1] * 255 + 0.5), (int) (rgb[2] * 255 + 0.5));
}

static void
test_bars_at_known_pixels (void)
{
  TlBlockRecord b[10];
  known_blocks (b, 1.0);
  g_autoptr (TlBlockStats) st = tl_block_stats_new (b, 10, 4, 1, -1);

  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      TlTimelineTrack track = { .label = "gemm-03-smem16", .blocks = b, .n_blocks = 10,
                                .stats = st, .unit_label = "SM" };
      TlTimelineModel model;
      tl_timeline_model_init (&model);
      model.tracks = &track;
      model.n_tracks = 1;
      model.title = "SM timeline";

      int w = (int) (900 * sc), h = (int) (500 * sc);
      cairo_surface_t *s = paint (&model, &style, w, h);
      TlTimelineLayout lay;
      tl_paint_timeline_layout (&model, &style, w, h, &lay);
      const TlTimelineTrackLayout *tl = &lay.track[0];
      g_assert_cmpuint (lay.n_tracks, ==, 1);
      g_assert_cmpuint (tl->n_lanes, ==, 4);
      g_assert_cmpuint (tl->slots, ==, 1);
      g_assert_cmpfloat (lay.t_max_ns, ==, 292000.0);
      g_assert_cmpfloat_with_epsilon (lay.px_per_ns, tl->w / 292000.0, 1e-12);
      g_assert_cmpfloat (lay.cb_w, >, 0);
      g_assert_cmpfloat (tl->h, >, 100 * sc);

      TlColorScale scale;
      tl_color_scale_init (&scale, TL_COLORMAP_VIRIDIS, TL_SCALE_LINEAR, 91.0, 100.0);
      for (guint i = 0; i < 10; i++)
        {
          /* where block i must be: lane = its SM, x from its start and end */
          double x = tl->x + (b[i].start_ns + b[i].end_ns) / 2.0 * tl->w / 292000.0;
          double y = tl->y + (b[i].unit + 0.5) * tl->h / 4;
          guint32 want = tl_color_scale_argb (&scale, (100.0 - i));
          tl_assert_pixel_near (s, x, y, want, 1);
          /* a quarter into the bar, too */
          tl_assert_pixel_near (s, tl->x + (b[i].start_ns * 0.75 + b[i].end_ns * 0.25) * tl->w / 292000.0,
                                y, want, 1);
          guint t;
          gsize idx;
          g_assert_true (tl_timeline_layout_block_at (&lay, &model, x, y, &t, &idx));
          g_assert_cmpuint (t, ==, 0);
          g_assert_cmpuint (idx, ==, i);
        }
      /* SM 3 is idle in the tail (wave 3 has only 2 blocks): the tail is shaded red */
      double tx = tl->x + 250000 * tl->w / 292000.0, ty = tl->y + 3.5 * tl->h / 4;
      guint32 p = tl_test_pixel (s, tx, ty);
      g_assert_cmpint ((int) ((p >> 16) & 0xff), >, (int) ((p >> 8) & 0xff) + 10);
      gsize idx;
      g_assert_false (tl_timeline_layout_block_at (&lay, &model, tx, ty, NULL, &idx));
      g_assert_false (tl_timeline_layout_block_at (&lay, &model, tl->x - 3, ty, NULL, &idx));
      cairo_surface_destroy (s);

      /* highlight: an orange outline on the bar's top edge */
      model.highlight_track = 0;
      model.highlight_block = 5;
      s = paint (&model, &style, w, h);
      double bx, by, bw, bh;
      tl_timeline_layout_bar (&lay, &model, 0, 5, &bx, &by, &bw, &bh);
      tl_assert_pixel_near (s, bx + bw / 2, by, tl_test_rgb (255, 115, 0), 2);
      cairo_surface_destroy (s);

      /* by wave: waves 0, 1, 2 in the palette's order */
      model.highlight_block = -1;
      model.color = TL_TIMELINE_COLOR_WAVE;
      s = paint (&model, &style, w, h);
      tl_paint_timeline_layout (&model, &style, w, h, &lay);
      g_assert_cmpfloat (lay.cb_w, >, 0); /* the wave legend */
      static const guint order[3] = { 0, 1, 2 };
      for (guint i = 0; i < 10; i++)
        {
          double x, y, bw2, bh2, rgb[3];
          tl_timeline_layout_bar (&lay, &model, 0, i, &x, &y, &bw2, &bh2);
          tl_paint_series_rgb (order[i / 4], rgb);
          tl_assert_pixel_near (s, x + bw2 / 2, y + bh2 / 2, rgb_to_argb (rgb), 1);
        }
      cairo_surface_destroy (s);
    }
}

static void
test_two_kernels_one_scale (void)
{
  TlBlockRecord a[10], b[10];
  known_blocks (a, 1.0);
  known_blocks (b, 0.5);
  g_autoptr (TlBlockStats) sa = tl_block_stats_new (a, 10, 4, 1, -1);
  g_autoptr (TlBlockStats) sb = tl_block_stats_new (b, 10, 4, 1, -1);

  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      TlTimelineTrack tracks[2] = {
        { .label = "slow", .blocks = a, .n_blocks = 10, .stats = sa, .unit_label = "SM" },
        { .label = "fast", .blocks = b, .n_blocks = 10, .stats = sb, .unit_label = "SM" },
      };
      TlTimelineModel model;
      tl_timeline_model_init (&model);
      model.tracks = tracks;
      model.n_tracks = 2;
      int w = (int) (900 * sc), h = (int) (700 * sc);
      cairo_surface_t *s = paint (&model, &style, w, h);
      TlTimelineLayout lay;
      tl_paint_timeline_layout (&model, &style, w, h, &lay);
      g_assert_cmpuint (lay.n_tracks, ==, 2);
      g_assert_cmpfloat (lay.t_max_ns, ==, 292000.0);
      g_assert_cmpfloat (lay.track[0].x, ==, lay.track[1].x);
      g_assert_cmpfloat (lay.track[0].w, ==, lay.track[1].w);
      g_assert_cmpfloat (lay.track[1].y, >, lay.track[0].y + lay.track[0].h);

      const TlTimelineTrackLayout *t1 = &lay.track[1];
      /* the fast kernel's first block ends at a quarter of the slow one's span… */
      double x = t1->x + 0.5 * 50000 * t1->w / 292000.0, y = t1->y + 0.5 * t1->h / 4;
      TlColorScale scale;
      tl_color_scale_init (&scale, TL_COLORMAP_VIRIDIS, TL_SCALE_LINEAR, 45.5, 100.0);
      tl_assert_pixel_near (s, x, y, tl_color_scale_argb (&scale, 50.0), 1);
      /* …and it is over by three quarters of the shared axis: background there */
      tl_assert_pixel_near (s, t1->x + 0.75 * t1->w, y, tl_test_rgb (255, 255, 255), 0);
      guint t;
      gsize i;
      g_assert_true (tl_timeline_layout_block_at (&lay, &model, x, y, &t, &i));
      g_assert_cmpuint (t, ==, 1);
      g_assert_cmpuint (i, ==, 0);
      cairo_surface_destroy (s);
    }
}

/* Each kernel on its own time scale: the fast kernel fills its track, the
 * axes say so, and a block maps to its own scale's pixels. */
static void
test_two_kernels_own_scales (void)
{
  TlBlockRecord a[10], b[10];
  known_blocks (a, 1.0);
  known_blocks (b, 0.01);
  g_autoptr (TlBlockStats) sa = tl_block_stats_new (a, 10, 4, 1, -1);
  g_autoptr (TlBlockStats) sb = tl_block_stats_new (b, 10, 4, 1, -1);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlTimelineTrack tracks[2] = {
    { .label = "slow", .kernel_id = "gemm-03-smem16", .blocks = a, .n_blocks = 10, .stats = sa, .unit_label = "SM" },
    { .label = "fast", .kernel_id = "gemm-11-wgmma", .blocks = b, .n_blocks = 10, .stats = sb, .unit_label = "SM" },
  };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = tracks;
  model.n_tracks = 2;
  int w = 900, h = 700;

  for (int own = 0; own < 2; own++)
    {
      model.own_time_scale = own;
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      cairo_surface_t *s = paint_texts (&model, &style, w, h, boxes);
      TlTimelineLayout lay;
      tl_paint_timeline_layout (&model, &style, w, h, &lay);
      const TlTimelineTrackLayout *t0 = &lay.track[0], *t1 = &lay.track[1];
      g_assert_cmpfloat (t0->t_max_ns, ==, 292000.0);
      g_assert_cmpfloat (t1->t_max_ns, ==, own ? 2920.0 : 292000.0);
      /* the fast kernel's last block (8, ending at 2.92 µs) ends at the right end of its own axis */
      double x, y, bw, bh;
      tl_timeline_layout_bar (&lay, &model, 1, 8, &x, &y, &bw, &bh);
      if (own)
        g_assert_cmpfloat_with_epsilon (x + bw, t1->x + t1->w, 1e-6);
      else
        g_assert_cmpfloat (x + bw, <, t1->x + t1->w * 0.02);
      /* the picture says which scale it uses */
      const char *says = own ? "each kernel on its own time scale" : "one time scale for all kernels";
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, says));
      /* the fast track's axis counts to 2.92 µs on its own scale */
      if (own)
        g_assert_nonnull (tl_paint_text_boxes_find (boxes, "(µs)"));
      /* the kernel's colour in its header */
      TlKernelLook look;
      tl_kernel_look ("gemm-11-wgmma", &look);
      const TlPaintTextBox *fast = tl_paint_text_boxes_find (boxes, "fast");
      g_assert_nonnull (fast);
      tl_assert_pixel_near (s, fast->x - TL_PX (&style, style.font_size) * 0.9, fast->y + fast->h / 2,
                            rgb_to_argb (look.rgb), 1);
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_surface_destroy (s);
    }
}

/* "64 blocks on 1 thread", "up to 1 block": plurals by count */
static void
test_summary_words (void)
{
  TlBlockRecord b[3];
  for (guint i = 0; i < 3; i++)
    b[i] = (TlBlockRecord) { .block_x = i, .unit = 0, .start_ns = i * 1000, .end_ns = i * 1000 + 900 };
  g_autoptr (TlBlockStats) one = tl_block_stats_new (b, 3, 1, 1, -1);
  g_autofree char *head = tl_block_stats_headline (one, "thread");
  g_assert_nonnull (strstr (head, "3 blocks on 1 thread ·"));
  g_assert_nonnull (strstr (head, "3 waves of up to 1 block ("));
  g_autoptr (TlBlockStats) single = tl_block_stats_new (b, 1, 4, 1, -1);
  g_autofree char *h1 = tl_block_stats_headline (single, "SM");
  g_assert_nonnull (strstr (h1, "1 block on 4 SMs"));
  g_assert_nonnull (strstr (h1, "1 wave of up to 4 blocks"));
}

static void
test_concurrent_slots (void)
{
  /* two blocks at once on SM 0: sub-lanes, one above the other */
  TlBlockRecord b[] = {
    { .unit = 0, .start_ns = 0, .end_ns = 1000 },
    { .block_x = 1, .unit = 0, .start_ns = 0, .end_ns = 1000 },
    { .block_x = 2, .unit = 1, .start_ns = 0, .end_ns = 500 },
  };
  g_autoptr (TlBlockStats) st = tl_block_stats_new (b, 3, 2, 0, -1);
  TlTimelineTrack track = { .label = "k", .blocks = b, .n_blocks = 3, .stats = st, .unit_label = "SM" };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = &track;
  model.n_tracks = 1;
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlTimelineLayout lay;
  tl_paint_timeline_layout (&model, &style, 600, 400, &lay);
  g_assert_cmpuint (lay.track[0].slots, ==, 2);
  double x0, y0, w0, h0, x1, y1, w1, h1;
  tl_timeline_layout_bar (&lay, &model, 0, 0, &x0, &y0, &w0, &h0);
  tl_timeline_layout_bar (&lay, &model, 0, 1, &x1, &y1, &w1, &h1);
  g_assert_cmpfloat (x0, ==, x1);
  g_assert_cmpfloat (y1, >=, y0 + h0);
  g_assert_cmpfloat (y1 + h1, <=, lay.track[0].y + lay.track[0].lane_h + 1e-9);
  guint t;
  gsize i;
  g_assert_true (tl_timeline_layout_block_at (&lay, &model, x1 + w1 / 2, y1 + h1 / 2, &t, &i));
  g_assert_cmpuint (i, ==, 1);

  TlTimelineColor c;
  g_assert_true (tl_timeline_color_from_name ("wave", &c));
  g_assert_cmpint (c, ==, TL_TIMELINE_COLOR_WAVE);
  g_assert_false (tl_timeline_color_from_name ("start", &c));
}

/* A track's title with a shorter wording after it (the lesson's "10
 * tensor cores (WMMA, BF16)" then "10 BF16"): the long one where it fits,
 * the short one whole where it does not, never the long one cut. */
static void
test_track_title_choice (void)
{
  TlBlockRecord b[10];
  known_blocks (b, 1.0);
  g_autoptr (TlBlockStats) st = tl_block_stats_new (b, 10, 4, 0, -1);
  TlTimelineTrack track = { .label = "10 tensor cores (WMMA, BF16)\n10 BF16", .kernel_id = "gemm-10-wmma-bf16",
                            .blocks = b, .n_blocks = 10, .stats = st, .unit_label = "SM" };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = &track;
  model.n_tracks = 1;
  TlPaintStyle style;
  tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  static const int widths[] = { 900, 340 };
  static const char *const titles[] = { "10 tensor cores (WMMA, BF16)", "10 BF16" };
  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, widths[k], 400);
      cairo_t *cr = cairo_create (s);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_timeline (cr, &model, &style, widths[k], 400);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
      gboolean found = FALSE;
      for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
        {
          const char *text = tl_paint_text_boxes_index (boxes, i)->text;
          found |= g_strcmp0 (text, titles[k]) == 0;
          g_assert_false (g_str_has_prefix (text, "10 tensor") && strstr (text, "…"));
        }
      g_assert_true (found);
    }
}

/* WCAG's relative luminance of an opaque pixel, and the contrast of two */
static double
luminance (guint32 p)
{
  double l = 0;
  static const double weight[3] = { 0.2126, 0.7152, 0.0722 };
  for (int c = 0; c < 3; c++)
    {
      double v = ((p >> (16 - 8 * c)) & 0xff) / 255.0;
      l += weight[c] * (v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4));
    }
  return l;
}

static double
contrast (guint32 a, guint32 b)
{
  double la = luminance (a), lb = luminance (b);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* The tail's sentence reads from the back of the hall in every theme: its
 * words against their box at least 7:1 (WCAG AAA) — the dark theme's red
 * on its dark background was 2.3:1 — and the box the same colour over the
 * bars at every scale. */
static void
test_tail_label_contrast (void)
{
  /* light, Adwaita dark, HighContrast, HighContrastInverse */
  static const struct
  {
    double fg, bg, error[3];
    gboolean high_contrast;
  } themes[] = {
    { 0.18, 1.0, { 0.80, 0.0, 0.0 }, FALSE },
    { 0.93, 0.18, { 0.80, 0.0, 0.0 }, FALSE },
    { 0.0, 1.0, { 0.80, 0.0, 0.0 }, TRUE },
    { 1.0, 0.0, { 0.80, 0.0, 0.0 }, TRUE },
  };
  TlBlockRecord b[10];
  known_blocks (b, 1.0);
  g_autoptr (TlBlockStats) st = tl_block_stats_new (b, 10, 4, 1, -1);
  TlTimelineTrack track = { .label = "k", .blocks = b, .n_blocks = 10, .stats = st, .unit_label = "SM" };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = &track;
  model.n_tracks = 1;

  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    {
      guint32 box_at_1x = 0;
      for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
        {
          TlPaintStyle style;
          tl_paint_style_init (&style, scales[k]);
          for (int c = 0; c < 3; c++)
            {
              style.fg[c] = themes[t].fg;
              style.bg[c] = themes[t].bg;
              style.error[c] = themes[t].error[c];
            }
          tl_paint_style_set_high_contrast (&style, themes[t].high_contrast);
          int w = (int) (900 * scales[k]), h = (int) (500 * scales[k]);
          cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
          cairo_t *cr = cairo_create (s);
          g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
          tl_paint_text_boxes_attach (cr, boxes);
          tl_paint_timeline (cr, &model, &style, w, h);
          tl_paint_text_boxes_attach (cr, NULL);
          cairo_destroy (cr);
          g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);

          const TlPaintTextBox *tb = tl_paint_text_boxes_find (boxes, "tail: last wave 2 of 4");
          g_assert_nonnull (tb);
          /* the box: left of the words, over the bars (the kernel ends at the right edge) */
          guint32 box = tl_test_pixel (s, tb->x - 2, tb->y + tb->h / 2);
          if (k == 0)
            box_at_1x = box;
          else
            g_assert_cmphex (box, ==, box_at_1x);
          /* the words: their strongest pixel is fg, and it stands out */
          guint32 ink = box;
          for (double y = tb->y; y < tb->y + tb->h; y++)
            for (double x = tb->x; x < tb->x + tb->w; x++)
              {
                guint32 p = tl_test_pixel (s, x, y);
                if (contrast (p, box) > contrast (ink, box))
                  ink = p;
              }
          g_assert_cmpint (tl_test_pixel_distance (ink, rgb_to_argb (style.fg)), <=, 2);
          g_assert_cmpfloat (contrast (ink, box), >=, 7.0);
          cairo_surface_destroy (s);
        }
    }
}

/* 328 blocks of 100 µs on 132 SMs, two at a time: a wave of 264 slots,
 * then a tail of 64 — the numbers of the H200's 1000×500×1000. */
static TlBlockRecord *
tail_blocks (gsize *n)
{
  *n = 328;
  TlBlockRecord *b = g_new0 (TlBlockRecord, *n);
  for (guint i = 0; i < *n; i++)
    b[i] = (TlBlockRecord) { .block_x = i % 41, .block_y = i / 41, .unit = (i % 264) / 2,
                             .start_ns = (i / 264) * 100000, .end_ns = (i / 264) * 100000 + 100000 };
  return b;
}

/* The tail's label on a narrow track (the Blocks page beside the
 * sidebar, two kernels, German "Ende: 64/264, 10…"): in fewer words,
 * the numbers alone, or not at all, never cut; on a short track (two
 * kernels under the tile grid, 45 px) not over the bars it labels.  The
 * test runs again as test-paint-timeline-de. */
static void
test_tail_label_narrow (void)
{
  gsize n;
  g_autofree TlBlockRecord *blocks = tail_blocks (&n);
  g_autoptr (TlBlockStats) st = tl_block_stats_new (blocks, n, 132, 2, -1);
  g_assert_cmpuint (st->last_wave_blocks, ==, 64);
  g_assert_cmpuint (st->capacity, ==, 264);
  TlTimelineTrack tracks[2] = {
    { .label = "gemm-07-regtile2d", .blocks = blocks, .n_blocks = n, .stats = st, .unit_label = "SM" },
    { .label = "gemm-08-vectorized", .blocks = blocks, .n_blocks = n, .stats = st, .unit_label = "SM" },
  };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = tracks;
  model.n_tracks = 2;
  guint labels = 0;
  /* narrow to wide tracks, 600 px high; two tracks of 40 to 70 px high
   * (about the labels' least), 460 and 900 px wide */
  int sizes[38 + 2 * 15][2], n_sizes = 0;
  for (int w = 160; w <= 900; w += 20, n_sizes++)
    sizes[n_sizes][0] = w, sizes[n_sizes][1] = 600;
  for (int h = 250; h < 400; h += 10, n_sizes += 2)
    {
      sizes[n_sizes][0] = 460, sizes[n_sizes][1] = h;
      sizes[n_sizes + 1][0] = 900, sizes[n_sizes + 1][1] = h;
    }
  g_assert_cmpint (n_sizes, ==, G_N_ELEMENTS (sizes));
  for (int presenting = 0; presenting < 2; presenting++)
    for (int i = 0; i < n_sizes; i++)
      {
        int w = sizes[i][0], h = sizes[i][1];
        TlPaintStyle style;
        if (presenting)
          tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
        else
          tl_paint_style_init (&style, 1.0);
        g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
        cairo_surface_destroy (paint_texts (&model, &style, w, h, boxes));
        TlTimelineLayout lay;
        tl_paint_timeline_layout (&model, &style, w, h, &lay);
        for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
          {
            const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
            if (strstr (b->text, "/264") == NULL)
              continue;
            labels++;
            if (g_str_has_suffix (b->text, "…") || strstr (b->text, "64/264") == NULL)
              g_error ("%d×%d px%s: the tail's label is cut: “%s”", w, h,
                       presenting ? ", presenting" : "", b->text);
            /* the words over at most 30% of the lanes (their box over a third;
             * 45 px lanes under a box of 20 px with the words 15 px high hid
             * the bars) */
            if (b->h > lay.track[0].h * 0.3)
              g_error ("%d×%d px%s: the tail's label, %.0f px high, hides a %.0f px track", w, h,
                       presenting ? ", presenting" : "", b->h, lay.track[0].h);
          }
      }
  /* most widths show it */
  g_assert_cmpuint (labels, >, 40);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* LANGUAGE=de (test-paint-timeline-de): the build tree's catalogue */
  tl_locale_init ();
  g_test_add_func ("/paint-timeline/known-pixels", test_bars_at_known_pixels);
  g_test_add_func ("/paint-timeline/two-kernels", test_two_kernels_one_scale);
  g_test_add_func ("/paint-timeline/own-scales", test_two_kernels_own_scales);
  g_test_add_func ("/paint-timeline/summary-words", test_summary_words);
  g_test_add_func ("/paint-timeline/slots", test_concurrent_slots);
  g_test_add_func ("/paint-timeline/track-title-choice", test_track_title_choice);
  g_test_add_func ("/paint-timeline/tail-label-contrast", test_tail_label_contrast);
  g_test_add_func ("/paint-timeline/tail-label-narrow", test_tail_label_narrow);
  return g_test_run ();
}
