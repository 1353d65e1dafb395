/* tl-paint-gauss-side.c — the Gauss view's side: the chart of each block
 * step's time by phase, and the facts of the record and the frame. */
#include "paint/tl-paint-gauss-side.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "paint/tl-paint-util.h"

#define MAX_TICKS 16

static const char *const phase_labels[TL_LU_N_PHASES] = {
  N_("panel"), N_("row swaps"), N_("triangular solve"), N_("GEMM update"),
};

static void
phase_rgb (guint phase, double rgb[3])
{
  /* Okabe–Ito: sky blue, yellow, vermillion, blue — GEMM, the big one, darkest */
  static const guint idx[TL_LU_N_PHASES] = { 4, 6, 3, 0 };
  tl_paint_series_rgb (idx[phase], rgb);
}

/* text at (x, y) in the style's type at size — never shrunk, so
 * presentation mode keeps every line large — wrapped onto a second line
 * when it is too long; returns the height it took. */
static double
fit_text_lines (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w,
                double size, gboolean bold, guint max_lines, const char *text)
{
  cairo_save (cr);
  tl_paint_set_font (cr, style, size, bold);
  double line = TL_PX (style, size) * 1.27;
  guint n = tl_paint_text_wrap (cr, x, y, max_w, line, max_lines, text);
  cairo_restore (cr);
  return n * line;
}

static double
fit_text (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w, double size,
          gboolean bold, const char *text)
{
  return fit_text_lines (cr, style, x, y, max_w, size, bold, 2, text);
}

/* A line of the facts (wrapped onto two when needed); returns how far
 * the next one goes down. */
static double
facts_line (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w, double size,
            gboolean bold, const char *text, double line)
{
  double h = fit_text (cr, style, x, y, max_w, size, bold, text);
  return MAX (h, line * 1.4);
}

/* A fact on one line, its type a little smaller where a translation is
 * longer than the box; returns how far the next one goes down. */
static double
fact_one_line (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w,
               const char *text, double line)
{
  cairo_save (cr);
  double size = tl_paint_fit_font (cr, style, style->font_size * 1.1, style->font_size * 0.85, FALSE,
                                   max_w, text);
  tl_paint_set_font (cr, style, size, FALSE);
  tl_paint_text_fit (cr, x, y, 0, 0, max_w, text);
  cairo_restore (cr);
  return line * 1.4;
}

/* the longest block step, all its phases together (1 when none took time) */
static double
longest_step (const TlLuRecorder *rec)
{
  double tmax = 0;
  for (guint b = 0; b < rec->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      double t = 0;
      for (guint p = 0; p < TL_LU_N_PHASES; p++)
        t += MAX (bs->phase_ns[p], 0);
      tmax = MAX (tmax, t);
    }
  return tmax > 0 ? tmax : 1;
}

/* The legend's two columns at size: the phases 0 and 2 on the left,
 * 1 and 3 on the right, each as wide as its longest label and swatch;
 * returns the second column's x offset, the whole width in *need. */
static double
legend_columns (cairo_t *cr, const TlPaintStyle *style, double size, double w, double *need)
{
  double font = TL_PX (style, size), col[2] = { 0, 0 };
  tl_paint_set_font (cr, style, size, FALSE);
  for (guint p = 0; p < TL_LU_N_PHASES; p++)
    col[p % 2] = MAX (col[p % 2], font * 1.3 + tl_paint_text_width (cr, _(phase_labels[p])));
  *need = col[0] + font * 0.7 + col[1];
  return MIN (MAX (w / 2, col[0] + font * 0.7), w - col[1]);
}

/* The least type of the chart's title and legend on a short box: so much
 * of the body's (German's "Zeilenvertauschungen" in high contrast's bold
 * beside "Dreieckslösung" at 1920×1080 presenting), never under 14 px. */
#define LEGEND_LEAST 0.7
#define TITLE_LEAST 0.8
static double
least_type (const TlPaintStyle *style, double share)
{
  return MIN (style->font_size, MAX (style->font_size * share, 14.0 / style->scale));
}

/* the phases' colours, two per line when they fit — on a short box at a
 * type down to LEGEND_LEAST of the body's, that the bars keep the rows —
 * else one per line at the body's type; returns the height it took */
static double
chart_legend (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w,
              gboolean short_box)
{
  double size = style->font_size, need;
  double least = short_box ? least_type (style, LEGEND_LEAST) : size;
  double second = legend_columns (cr, style, size, w, &need);
  while (need > w && size > least)
    {
      size = MAX (size * 0.95, least);
      second = legend_columns (cr, style, size, w, &need);
    }
  guint per_line = need <= w ? 2 : 1;
  if (per_line == 1)
    size = style->font_size;
  double font = TL_PX (style, size), row = short_box ? 1.2 : 1.35;
  tl_paint_set_font (cr, style, size, FALSE);
  for (guint p = 0; p < TL_LU_N_PHASES; p++)
    {
      double rgb[3];
      double lx = x + (p % per_line) * second;
      double ly = y + (p / per_line) * font * row;
      phase_rgb (p, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lx, ly + font * 0.15, font * 0.9, font * 0.9);
      cairo_fill (cr);
      tl_paint_set_fg (cr, style);
      tl_paint_text (cr, lx + font * 1.3, ly, 0, 0, _(phase_labels[p]));
    }
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  return font * row * (TL_LU_N_PHASES / per_line) + TL_PX (style, style->font_size) * 0.5;
}

/* The plot's area and scale: time 0 … tmax (ns) shown in unit_div ns
 * per unit, nb block steps in slots of slot pixels. */
typedef struct
{
  double px, py, pw, ph;
  double tmax, unit_div, slot, tick;
} ChartPlot;

/* the value axis: ticks, labels and faint grid lines across the plot */
static void
chart_value_axis (cairo_t *cr, const TlPaintStyle *style, const ChartPlot *c)
{
  double ticks[MAX_TICKS];
  guint n = tl_paint_axis_ticks (cr, 0, c->tmax / c->unit_div, c->ph / (c->tmax / c->unit_div), TRUE,
                                 FALSE, tl_format_value, ticks, MAX_TICKS);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  for (guint i = 0; i < n; i++)
    {
      double yy = round (c->py + c->ph - ticks[i] * c->unit_div / c->tmax * c->ph) + 0.5;
      char buf[32];
      cairo_move_to (cr, c->px - c->tick, yy);
      cairo_line_to (cr, c->px, yy);
      cairo_stroke (cr);
      tl_paint_set_fg_alpha (cr, style, 0.15);
      cairo_move_to (cr, c->px, yy);
      cairo_line_to (cr, c->px + c->pw, yy);
      cairo_stroke (cr);
      tl_paint_set_fg (cr, style);
      tl_format_value (ticks[i], buf, sizeof buf);
      tl_paint_text (cr, c->px - c->tick - TL_PX (style, 2), yy, 1.0, 0.5, buf);
    }
}

/* one stacked bar per block step; the frame's step outlined, "now" above it */
static void
chart_bars (cairo_t *cr, const TlPaintStyle *style, const TlGaussFrame *frame, const ChartPlot *c)
{
  const TlLuRecorder *rec = frame->record;
  double bw = MAX (c->slot * 0.7, 1.0);
  for (guint b = 0; b < rec->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      double bx = c->px + b * c->slot + (c->slot - bw) / 2, acc = 0, base = c->py + c->ph;
      for (guint p = 0; p < TL_LU_N_PHASES; p++)
        {
          double t = MAX (bs->phase_ns[p], 0);
          double rgb[3];
          if (t <= 0)
            continue;
          phase_rgb (p, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          double y1 = base - (acc + t) / c->tmax * c->ph, y0 = base - acc / c->tmax * c->ph;
          cairo_rectangle (cr, bx, y1, bw, y0 - y1);
          cairo_fill (cr);
          acc += t;
        }
      if ((gint) b != frame->block)
        continue;
      double top = base - acc / c->tmax * c->ph;
      /* in the text's colour: black was lost on a dark theme */
      tl_paint_set_fg (cr, style);
      cairo_set_line_width (cr, TL_PX (style, 2.5));
      cairo_rectangle (cr, bx - TL_PX (style, 2), top - TL_PX (style, 2), bw + TL_PX (style, 4),
                       base - top + TL_PX (style, 2));
      cairo_stroke (cr);
      tl_paint_set_font (cr, style, style->font_size * 0.9, TRUE);
      /* on a patch over the bars beside it, and right of the value axis's
       * labels when the step is the first */
      const char *now = _("now");
      double half = tl_paint_text_width (cr, now) / 2 + TL_PX (style, 2);
      double nx = CLAMP (bx + bw / 2, c->px + half, c->px + c->pw - half);
      tl_paint_label_on_patch (cr, style, nx, top - TL_PX (style, 4), 0.5, 1.0, NULL, now);
      tl_paint_set_font (cr, style, style->font_size, FALSE);
    }
}

/* the axes' lines and the block steps 1 … nb under their bars, as many as
 * their labels allow */
static void
chart_step_axis (cairo_t *cr, const TlPaintStyle *style, const ChartPlot *c, guint nb)
{
  double font = TL_PX (style, style->font_size);
  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  cairo_move_to (cr, c->px, c->py);
  cairo_line_to (cr, c->px, c->py + c->ph);
  cairo_line_to (cr, c->px + c->pw, c->py + c->ph);
  cairo_stroke (cr);
  double steps[MAX_TICKS];
  guint ns = tl_paint_axis_ticks (cr, 1, nb, c->slot, FALSE, TRUE, tl_format_index, steps, MAX_TICKS);
  for (guint i = 0; i < ns; i++)
    {
      char buf[16];
      tl_format_index (steps[i], buf, sizeof buf);
      tl_paint_text (cr, c->px + (steps[i] - 0.5) * c->slot, c->py + c->ph + TL_PX (style, 2), 0.5, 0, buf);
    }
  tl_paint_text (cr, c->px + c->pw / 2, c->py + c->ph + font * 1.35, 0.5, 0, _("block step"));
}

/* The chart's head in the box: its title, the phases' legend and the
 * value axis' unit, painted; the plot's place under them in *c. */
static void
chart_head (cairo_t *cr, const TlLuRecorder *rec, const TlPaintStyle *style, double box_x,
            double box_y, double box_w, double box_h, ChartPlot *c)
{
  double font = TL_PX (style, style->font_size);
  *c = (ChartPlot) { .tmax = longest_step (rec), .tick = TL_PX (style, 5) };
  const char *unit = c->tmax < 2e6 ? "µs" : "ms";
  c->unit_div = c->tmax < 2e6 ? 1e3 : 1e6;

  tl_paint_set_fg (cr, style);
  double y = box_y;
  /* a short box (a 16:9 page presenting) packs the title on one line
   * and the legend's rows */
  gboolean short_box = box_h < font * 24;
  const char *title = _("Time per block step (seed 004, Fig. 5)");
  double title_size = style->font_size * 1.05;
  if (short_box)
    title_size = tl_paint_fit_font (cr, style, title_size, least_type (style, TITLE_LEAST), TRUE,
                                    box_w, title);
  y += fit_text (cr, style, box_x, y, box_w, title_size, TRUE, title);
  y += font * 0.2;
  y += chart_legend (cr, style, box_x, y, box_w, short_box);

  /* the value axis' unit, as a caption above it; on a short box (a 16:9
   * render presenting) the unit alone, at the axis' top beside the
   * "now", that the bars keep three lines of type */
  char ylab[64];
  g_snprintf (ylab, sizeof ylab, _("time per block step (%s)"), unit);
  if (!short_box)
    {
      tl_paint_text_fit (cr, box_x, y, 0, 0, box_w, ylab);
      y += font * 1.4;
    }
  else
    tl_paint_text (cr, box_x, y, 0, 0, unit);
  c->px = box_x + font * 3.6;
  c->pw = box_w - font * 3.8;
  /* room above the tallest bar for its "now" */
  c->py = y + font * 1.2;
  c->ph = box_y + box_h - c->py - c->tick - font * 2.8;
}

void
tl_paint_gauss_chart (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                      double box_x, double box_y, double box_w, double box_h)
{
  const TlLuRecorder *rec = frame->record;
  guint nb = rec->blocks->len;
  double font = TL_PX (style, style->font_size);

  if (box_w <= 0 || nb == 0)
    return;

  ChartPlot c;
  cairo_save (cr);
  chart_head (cr, rec, style, box_x, box_y, box_w, box_h, &c);
  if (c.ph >= font * 2 && c.pw >= font * 2)
    {
      c.slot = c.pw / nb;
      chart_value_axis (cr, style, &c);
      chart_bars (cr, style, frame, &c);
      chart_step_axis (cr, style, &c, nb);
    }
  cairo_restore (cr);
}

double
tl_paint_gauss_chart_plot_height (const TlGaussFrame *frame, const TlPaintStyle *style,
                                  double box_w, double box_h)
{
  if (box_w <= 0 || frame->record->blocks->len == 0)
    return 0;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  ChartPlot c;
  chart_head (cr, frame->record, style, 0, 0, box_w, box_h, &c);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return MAX (c.ph, 0);
}

/* The record so far: steps, swaps, and the growth factor and sign of
 * the determinant (or over GF(p), the determinant mod p); returns where
 * the next line goes. */
static double
facts_so_far (cairo_t *cr, const TlPaintStyle *style, const TlGaussFrame *f, double x, double y,
              double box_w, double font)
{
  const TlLuRecorder *rec = f->record;
  const TlLuStep *prev = f->step > 0 ? &g_array_index (rec->steps, TlLuStep, f->step - 1) : NULL;
  char buf[160], v[32];
  double growth = prev ? prev->growth : 1.0;
  int sign = prev ? prev->det_sign : 1;

  /* each line fitted to the box: translations are longer */
  g_snprintf (buf, sizeof buf, _("steps done        %u of %u"), f->step, f->n_steps);
  y += fact_one_line (cr, style, x, y, box_w, buf, font);
  g_snprintf (buf, sizeof buf, _("row swaps so far  %u"), f->swaps_so_far);
  y += fact_one_line (cr, style, x, y, box_w, buf, font);
  if (rec->modulus == 0)
    {
      tl_format_value (growth, v, sizeof v);
      g_snprintf (buf, sizeof buf, _("growth factor     %s   (max|U| / max|A|)"), v);
      /* at full size: without its explanation when that does not fit */
      if (tl_paint_text_width (cr, buf) > box_w)
        g_snprintf (buf, sizeof buf, _("growth factor     %s"), v);
      y += fact_one_line (cr, style, x, y, box_w, buf, font);
      if (rec->rows == rec->cols)
        {
          g_snprintf (buf, sizeof buf, _("sign of det so far  %s"), sign > 0 ? "+1" : sign < 0 ? "−1" : "0");
          y += fact_one_line (cr, style, x, y, box_w, buf, font);
        }
    }
  else
    {
      guint64 dm = prev ? prev->det_mod : 1;
      g_snprintf (buf, sizeof buf, _("GF(%" PRIu64 "): every value exact"), rec->modulus);
      y += fact_one_line (cr, style, x, y, box_w, buf, font);
      g_snprintf (buf, sizeof buf, _("det so far ≡ %" PRIu64 " (mod %" PRIu64 ")"),
                  dm, rec->modulus);
      y += fact_one_line (cr, style, x, y, box_w, buf, font);
    }
  return y;
}

/* The step on show: its pivot and swap; or when all are done, the
 * factorisation's rank (and determinant); returns where its last line ends. */
static double
facts_step (cairo_t *cr, const TlPaintStyle *style, const TlGaussFrame *f, double x, double y,
            double box_w, double font)
{
  const TlLuRecorder *rec = f->record;
  char buf[160], v[32];

  if (f->current)
    {
      const TlLuStep *st = f->current;
      if (rec->modulus > 0)
        g_snprintf (v, sizeof v, "%.0f", st->pivot_value);
      else
        tl_format_value (st->pivot_value, v, sizeof v);
      if (st->zero_pivot)
        g_snprintf (buf, sizeof buf, _("step %u: column %u is zero below the diagonal — no pivot"),
                    st->k, st->k);
      else if (st->swapped)
        {
          g_snprintf (buf, sizeof buf, _("step %u: pivot %s in row %" PRId64), st->k, v,
                      st->pivot_row);
          y += facts_line (cr, style, x, y, box_w, style->font_size * 1.1, TRUE, buf, font);
          g_snprintf (buf, sizeof buf, _("swap rows %u ↔ %" PRId64), st->k, st->pivot_row);
        }
      else
        {
          g_snprintf (buf, sizeof buf, _("step %u: pivot %s"), st->k, v);
          y += facts_line (cr, style, x, y, box_w, style->font_size * 1.1, TRUE, buf, font);
          g_snprintf (buf, sizeof buf, _("already in row %u: no swap"), st->k);
        }
      tl_paint_set_font (cr, style, style->font_size * 1.1, TRUE);
    }
  else
    {
      tl_paint_set_font (cr, style, style->font_size * 1.1, TRUE);
      if (rec->modulus == 0 && rec->rows == rec->cols && rec->finished)
        {
          tl_format_value (rec->log_abs_det, v, sizeof v);
          g_snprintf (buf, sizeof buf, _("done: PA = LU, rank %zu, det sign %s, ln|det| %s"),
                      rec->rank, rec->det_sign > 0 ? "+1" : rec->det_sign < 0 ? "−1" : "0", v);
        }
      else
        g_snprintf (buf, sizeof buf, _("done: PA = LU, rank %zu"), rec->rank);
    }
  /* the finished factorisation's rank, sign and ln|det| on up to three
   * lines (German, a narrow column presenting) */
  return y + fit_text_lines (cr, style, x, y, box_w, style->font_size * 1.1, TRUE, 3, buf);
}

/* The facts from x, y down; returns where they end. */
static double
paint_facts (cairo_t *cr, const TlGaussFrame *f, const TlPaintStyle *style, double x, double y,
             double box_w)
{
  double font = TL_PX (style, style->font_size) * 1.1;
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size * 1.1, FALSE);

  y = facts_so_far (cr, style, f, x, y, box_w, font);
  y = facts_step (cr, style, f, x, y, box_w, font);
  if (!f->exact)
    {
      char buf[160];
      y += font * 0.13; /* 1.4 lines under the last line's top, as one line is 1.27 */
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      g_snprintf (buf, sizeof buf, _("(matrix as after step %u: large records keep snapshots only)"),
                  f->matrix_steps);
      y += fit_text (cr, style, x, y, box_w, style->font_size, FALSE, buf);
    }
  return y;
}

void
tl_paint_gauss_facts (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                      double box_x, double box_y, double box_w, double box_h)
{
  cairo_save (cr);
  cairo_rectangle (cr, box_x, box_y, box_w, box_h);
  cairo_clip (cr);
  paint_facts (cr, frame, style, box_x, box_y, box_w);
  cairo_restore (cr);
}

double
tl_paint_gauss_facts_height (const TlGaussFrame *frame, const TlPaintStyle *style, double box_w)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  double h = paint_facts (cr, frame, style, 0, 0, box_w);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return h;
}
