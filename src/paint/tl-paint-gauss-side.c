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
fit_text (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w, double size,
          gboolean bold, const char *text)
{
  cairo_save (cr);
  tl_paint_set_font (cr, style, size, bold);
  double line = TL_PX (style, size) * 1.27;
  guint n = tl_paint_text_wrap (cr, x, y, max_w, line, 2, text);
  cairo_restore (cr);
  return n * line;
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

void
tl_paint_gauss_chart (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                      double box_x, double box_y, double box_w, double box_h)
{
  const TlLuRecorder *rec = frame->record;
  guint nb = rec->blocks->len;
  double font = TL_PX (style, style->font_size);
  double tick = TL_PX (style, 5);

  if (box_w <= 0 || nb == 0)
    return;

  double tmax = 0;
  for (guint b = 0; b < nb; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      double t = 0;
      for (guint p = 0; p < TL_LU_N_PHASES; p++)
        t += MAX (bs->phase_ns[p], 0);
      tmax = MAX (tmax, t);
    }
  if (tmax <= 0)
    tmax = 1;
  const char *unit = tmax < 2e6 ? "µs" : "ms";
  double div = tmax < 2e6 ? 1e3 : 1e6;

  cairo_save (cr);
  tl_paint_set_fg (cr, style);
  double y = box_y;
  y += fit_text (cr, style, box_x, y, box_w, style->font_size * 1.05, TRUE,
                 _("Time per block step (seed 004, Fig. 5)"));
  y += font * 0.2;

  /* legend, two per line when they fit, else one per line */
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double widest = 0;
  for (guint p = 0; p < TL_LU_N_PHASES; p++)
    widest = MAX (widest, tl_paint_text_width (cr, _(phase_labels[p])));
  guint per_line = 2 * (widest + font * 2.0) <= box_w ? 2 : 1;
  for (guint p = 0; p < TL_LU_N_PHASES; p++)
    {
      double rgb[3];
      double lx = box_x + (p % per_line) * box_w / 2;
      double ly = y + (p / per_line) * font * 1.35;
      phase_rgb (p, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lx, ly + font * 0.15, font * 0.9, font * 0.9);
      cairo_fill (cr);
      tl_paint_set_fg (cr, style);
      tl_paint_text (cr, lx + font * 1.3, ly, 0, 0, _(phase_labels[p]));
    }
  y += font * 1.35 * (TL_LU_N_PHASES / per_line) + font * 0.5;

  /* the value axis' unit, as a caption above it */
  char ylab[64];
  g_snprintf (ylab, sizeof ylab, _("time per block step (%s)"), unit);
  tl_paint_text_fit (cr, box_x, y, 0, 0, box_w, ylab);
  y += font * 1.4;
  double px = box_x + font * 3.6, pw = box_w - font * 3.8;
  /* room above the tallest bar for its "now" */
  double py = y + font * 1.2, ph = box_y + box_h - py - tick - font * 2.8;
  if (ph < font * 2 || pw < font * 2)
    {
      cairo_restore (cr);
      return;
    }

  /* value axis */
  double ticks[MAX_TICKS];
  guint n = tl_paint_axis_ticks (cr, 0, tmax / div, ph / (tmax / div), TRUE, FALSE,
                                 tl_format_value, ticks, MAX_TICKS);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  for (guint i = 0; i < n; i++)
    {
      double yy = round (py + ph - ticks[i] * div / tmax * ph) + 0.5;
      char buf[32];
      cairo_move_to (cr, px - tick, yy);
      cairo_line_to (cr, px, yy);
      cairo_stroke (cr);
      tl_paint_set_fg_alpha (cr, style, 0.15);
      cairo_move_to (cr, px, yy);
      cairo_line_to (cr, px + pw, yy);
      cairo_stroke (cr);
      tl_paint_set_fg (cr, style);
      tl_format_value (ticks[i], buf, sizeof buf);
      tl_paint_text (cr, px - tick - TL_PX (style, 2), yy, 1.0, 0.5, buf);
    }

  /* stacked bars */
  double slot = pw / nb, bw = MAX (slot * 0.7, 1.0);
  for (guint b = 0; b < nb; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      double bx = px + b * slot + (slot - bw) / 2, acc = 0;
      for (guint p = 0; p < TL_LU_N_PHASES; p++)
        {
          double t = MAX (bs->phase_ns[p], 0);
          double rgb[3];
          if (t <= 0)
            continue;
          phase_rgb (p, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          double y1 = py + ph - (acc + t) / tmax * ph, y0 = py + ph - acc / tmax * ph;
          cairo_rectangle (cr, bx, y1, bw, y0 - y1);
          cairo_fill (cr);
          acc += t;
        }
      if ((gint) b == frame->block)
        {
          double top = py + ph - acc / tmax * ph;
          cairo_set_source_rgb (cr, 0, 0, 0);
          cairo_set_line_width (cr, TL_PX (style, 2.5));
          cairo_rectangle (cr, bx - TL_PX (style, 2), top - TL_PX (style, 2), bw + TL_PX (style, 4),
                           py + ph - top + TL_PX (style, 2));
          cairo_stroke (cr);
          tl_paint_set_font (cr, style, style->font_size * 0.9, TRUE);
          tl_paint_text (cr, bx + bw / 2, top - TL_PX (style, 4), 0.5, 1.0, _("now"));
          tl_paint_set_font (cr, style, style->font_size, FALSE);
        }
    }

  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  cairo_move_to (cr, px, py);
  cairo_line_to (cr, px, py + ph);
  cairo_line_to (cr, px + pw, py + ph);
  cairo_stroke (cr);
  /* block steps 1 … nb under their bars, as many as their labels allow */
  double steps[MAX_TICKS];
  guint ns = tl_paint_axis_ticks (cr, 1, nb, slot, FALSE, TRUE, tl_format_index, steps,
                                  MAX_TICKS);
  for (guint i = 0; i < ns; i++)
    {
      char buf[16];
      tl_format_index (steps[i], buf, sizeof buf);
      tl_paint_text (cr, px + (steps[i] - 0.5) * slot, py + ph + TL_PX (style, 2), 0.5, 0, buf);
    }
  tl_paint_text (cr, px + pw / 2, py + ph + font * 1.35, 0.5, 0, _("block step"));
  cairo_restore (cr);
}

void
tl_paint_gauss_facts (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                      double box_x, double box_y, double box_w, double box_h)
{
  const TlGaussFrame *f = frame;
  const TlLuRecorder *rec = f->record;
  double font = TL_PX (style, style->font_size) * 1.1;
  double y = box_y, x = box_x;
  const TlLuStep *prev = f->step > 0 ? &g_array_index (rec->steps, TlLuStep, f->step - 1) : NULL;
  char buf[160], v[32];

  double growth = prev ? prev->growth : 1.0;
  int sign = prev ? prev->det_sign : 1;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, box_w, box_h);
  cairo_clip (cr);
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size * 1.1, FALSE);

  g_snprintf (buf, sizeof buf, _("steps done        %u of %u"), f->step, f->n_steps);
  tl_paint_text (cr, x, y, 0, 0, buf);
  y += font * 1.4;
  g_snprintf (buf, sizeof buf, _("row swaps so far  %u"), f->swaps_so_far);
  tl_paint_text (cr, x, y, 0, 0, buf);
  y += font * 1.4;
  if (rec->modulus == 0)
    {
      tl_format_value (growth, v, sizeof v);
      g_snprintf (buf, sizeof buf, _("growth factor     %s   (max|U| / max|A|)"), v);
      /* at full size: without its explanation when that does not fit */
      if (tl_paint_text_width (cr, buf) > box_w)
        g_snprintf (buf, sizeof buf, _("growth factor     %s"), v);
      y += facts_line (cr, style, x, y, box_w, style->font_size * 1.1, FALSE, buf, font);
      if (rec->rows == rec->cols)
        {
          g_snprintf (buf, sizeof buf, _("sign of det so far  %s"), sign > 0 ? "+1" : sign < 0 ? "−1" : "0");
          tl_paint_text (cr, x, y, 0, 0, buf);
          y += font * 1.4;
        }
    }
  else
    {
      guint64 dm = prev ? prev->det_mod : 1;
      g_snprintf (buf, sizeof buf, _("GF(%" PRIu64 "): every value exact"), rec->modulus);
      y += facts_line (cr, style, x, y, box_w, style->font_size * 1.1, FALSE, buf, font);
      g_snprintf (buf, sizeof buf, _("det so far ≡ %" PRIu64 " (mod %" PRIu64 ")"),
                  dm, rec->modulus);
      tl_paint_text (cr, x, y, 0, 0, buf);
      y += font * 1.4;
    }
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
      fit_text (cr, style, x, y, box_w, style->font_size * 1.1, TRUE, buf);
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
      fit_text (cr, style, x, y, box_w, style->font_size * 1.1, TRUE, buf);
    }
  if (!f->exact)
    {
      y += font * 1.4;
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      g_snprintf (buf, sizeof buf, _("(matrix as after step %u: large records keep snapshots only)"),
                  f->matrix_steps);
      fit_text (cr, style, x, y, box_w, style->font_size, FALSE, buf);
    }
  cairo_restore (cr);
}
