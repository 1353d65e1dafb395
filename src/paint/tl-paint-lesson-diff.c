/* tl-paint-lesson-diff.c — the lesson's two kernels as a diff: removed
 * lines tinted red with −, added ones green with +, unchanged stretches
 * folded into one line, what does not fit counted at the foot. */
#include "paint/tl-paint-lesson-diff.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "paint/tl-paint-util.h"


/* The indentation every shown line shares (spaces), to leave out. */
static guint
common_indent (const TlLineDiff *diff, guint n)
{
  guint indent = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      const TlDiffLine *d = &g_array_index (diff->lines, TlDiffLine, i);
      if (d->text == NULL)
        continue;
      guint k = 0;
      while (d->text[k] == ' ')
        k++;
      if (d->text[k] != '\0')
        indent = MIN (indent, k);
    }
  return indent == G_MAXUINT ? 0 : indent;
}

/* A line of code cut to max_w in a monospace font: its start and its end
 * with "…" between, since a changed line and the line it replaces often
 * differ only at the end ("template <int BM, …bool GUARD>"). */
static char *
cut_code_line (cairo_t *cr, const char *text, double max_w)
{
  glong n = g_utf8_strlen (text, -1);
  double char_w = tl_paint_text_width (cr, "0");
  glong fit = char_w > 0 ? (glong) floor (max_w / char_w) - 1 : n;
  if (n <= fit + 1 || fit < 8)
    return g_strdup (text);
  glong tail = fit / 3, head = fit - tail;
  g_autofree char *start = g_utf8_substring (text, 0, head);
  g_autofree char *end = g_utf8_substring (text, n - tail, n);
  return g_strconcat (start, "…", end, NULL);
}

static void
paint_diff_line (cairo_t *cr, const TlPaintStyle *style, const TlDiffLine *d, guint indent,
                 double x, double y, double w, double lh)
{
  static const double added_rgb[3] = { 0.0, 0.62, 0.45 };
  const double *tint = d->op == TL_DIFF_ADDED ? added_rgb : d->op == TL_DIFF_REMOVED ? style->error
                                                                                     : NULL;
  if (tint != NULL)
    {
      cairo_set_source_rgba (cr, tint[0], tint[1], tint[2], style->high_contrast ? 0.35 : 0.2);
      cairo_rectangle (cr, x, y, w, lh);
      cairo_fill (cr);
    }
  tl_paint_set_fg (cr, style);
  if (d->op == TL_DIFF_FOLDED)
    {
      g_autofree char *text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "⋯ %u unchanged line", "⋯ %u unchanged lines", d->n_folded),
        d->n_folded);
      tl_paint_set_fg_alpha (cr, style, 0.6);
      tl_paint_text_fit (cr, x, y + lh / 2, 0, 0.5, w, text);
      return;
    }
  const char *mark = d->op == TL_DIFF_ADDED ? "+" : d->op == TL_DIFF_REMOVED ? "−" : " ";
  double mark_w = tl_paint_text_width (cr, "+ ");
  tl_paint_text (cr, x, y + lh / 2, 0, 0.5, mark);
  const char *text = d->text + MIN (indent, (guint) strlen (d->text));
  g_autofree char *shown = cut_code_line (cr, text, w - mark_w);
  if (*shown != '\0')
    tl_paint_text_fit (cr, x + mark_w, y + lh / 2, 0, 0.5, w - mark_w, shown);
}

/* The diff's heading at x, y in bold: "The kernels, 03 → 04: −12 +15
 * lines", in a narrow column "03 → 04: −12 +15", else "−12 +15"; its
 * height. */
static double
paint_diff_heading (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double x, double y,
                    double w)
{
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  double head_h = tl_paint_text_height (cr) * 1.3;
  g_autofree char *head = NULL, *pair = g_strdup_printf ("%s → %s", l->lower_short, l->upper_short);
  if (l->diff != NULL)
    {
      /* TRANSLATORS: the diff's heading: "The kernels, 03 → 04: −12 +15 lines" (12 lines
         out, 15 in) */
      g_autofree char *whole = g_strdup_printf (_("The kernels, %s → %s: −%u +%u lines"),
                                                l->lower_short, l->upper_short, l->diff->n_removed,
                                                l->diff->n_added);
      /* a narrow column: "03 → 04: −12 +15", else "−12 +15" */
      head = g_strdup_printf ("%s\n%s: −%u +%u\n−%u +%u", whole, pair, l->diff->n_removed,
                              l->diff->n_added, l->diff->n_removed, l->diff->n_added);
    }
  else
    {
      g_autofree char *whole = g_strdup_printf (_("The kernels, %s → %s"), l->lower_short,
                                                l->upper_short);
      head = g_strdup_printf ("%s\n%s", whole, pair);
    }
  tl_paint_text_fit_choice (cr, x, y, 0, 0, w, head);
  return head_h;
}

/* The changed lines from the first not shown on, counted at y in the
 * diff's last line, in the body's type: in words, or where they do not
 * fit the column ("… und 323 weitere geänderte Zeilen (Seite Q…" at
 * 1024×768 presenting) as the heading counts them, "… −120 +203". */
static void
paint_diff_more (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, guint shown, double x,
                 double y, double w)
{
  guint removed = 0, added = 0;
  for (guint i = shown; i < l->diff->lines->len; i++)
    {
      TlDiffOp op = g_array_index (l->diff->lines, TlDiffLine, i).op;
      removed += op == TL_DIFF_REMOVED;
      added += op == TL_DIFF_ADDED;
    }
  g_autofree char *words = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "… and %u more changed line (Source page)",
                 "… and %u more changed lines (Source page)", removed + added),
    removed + added);
  g_autofree char *choices = g_strdup_printf ("%s\n… −%u +%u", words, removed, added);
  tl_paint_set_font (cr, style, style->font_size * 0.85, FALSE);
  tl_paint_set_fg_alpha (cr, style, 0.75);
  tl_paint_text_fit_choice (cr, x, y, 0, 0.5, w, choices);
}

void
tl_paint_lesson_diff (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double x,
                      double y, double w, double h, double line_h)
{
  double bottom = y + h;
  y += paint_diff_heading (cr, l, style, x, y, w);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  if (l->diff == NULL)
    {
      tl_paint_text_wrap (cr, x, y, w, line_h, 4, l->diff_note ? l->diff_note : "");
      return;
    }

  TlPaintStyle mono = *style;
  mono.font_family = "Monospace";
  tl_paint_set_font (cr, &mono, style->font_size * 0.85, FALSE);
  double lh = tl_paint_text_height (cr) * 1.12;
  guint n = l->diff->lines->len;
  guint fit = (guint) MAX (floor ((bottom - y) / lh), 1);
  gboolean cut = n > fit;
  guint shown = cut ? fit - 1 : n;
  guint indent = common_indent (l->diff, shown);

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, bottom - y);
  cairo_clip (cr);
  for (guint i = 0; i < shown; i++)
    paint_diff_line (cr, &mono, &g_array_index (l->diff->lines, TlDiffLine, i), indent, x,
                     y + i * lh, w, lh);
  if (cut)
    paint_diff_more (cr, l, style, shown, x, y + shown * lh + lh / 2, w);
  cairo_restore (cr);
}
