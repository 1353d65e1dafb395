/* tl-paint-labels.c — labels that fit their room and stay told apart. */
#include "paint/tl-paint-labels.h"

#include <string.h>

#include "paint/tl-paint-util.h"

/* characters a and b share at their start */
static glong
common_start (const char *a, const char *b)
{
  glong n = 0;
  while (*a && *a == *b)
    {
      const char *na = g_utf8_next_char (a), *nb = g_utf8_next_char (b);
      if (na - a != nb - b || memcmp (a, b, na - a) != 0)
        break;
      a = na;
      b = nb;
      n++;
    }
  return n;
}

/* "head…tail": the tail from where text differs from its look-alikes, the
 * head at least the text's first word ("10…TF32)", "cuBLAS…BF16"), each
 * cut at its end when the room is short, and the head as long as the rest
 * of the room allows */
static char *
fit_keeping_tail (cairo_t *cr, const char *text, glong differs_at, double max_w)
{
  glong n = g_utf8_strlen (text, -1);
  glong from = MAX (differs_at - 1, 0);
  const char *space = strchr (text, ' ');
  glong first_word = space ? g_utf8_pointer_to_offset (text, space) : n;
  g_autofree char *word = g_utf8_substring (text, 0, MIN (first_word, from));
  g_autofree char *word_dots = g_strconcat (word, "…", NULL);
  double head_min = MIN (tl_paint_text_width (cr, word_dots), max_w * 0.5);
  g_autofree char *rest = g_utf8_substring (text, from, n);
  g_autofree char *tail = tl_paint_fit_string (cr, g_strchug (rest), max_w - head_min);
  double tail_w = tl_paint_text_width (cr, tail);
  glong lo = 0, hi = from;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      g_autofree char *head = g_utf8_substring (text, 0, mid);
      g_autofree char *try = g_strconcat (g_strchomp (head), "…", NULL);
      if (tl_paint_text_width (cr, try) + tail_w <= max_w)
        lo = mid;
      else
        hi = mid - 1;
    }
  g_autofree char *head = g_utf8_substring (text, 0, lo);
  return g_strconcat (g_strchomp (head), "…", tail, NULL);
}

char **
tl_paint_fit_distinct (cairo_t *cr, const char *const *texts, guint n, double max_w)
{
  g_return_val_if_fail (cr != NULL && (texts != NULL || n == 0), NULL);
  g_auto (GStrv) cut = g_new0 (char *, n + 1);
  char **out = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    cut[i] = tl_paint_fit_string (cr, texts[i] ? texts[i] : "", max_w);
  for (guint i = 0; i < n; i++)
    {
      /* where texts[i] parts from every text that, cut, looks the same */
      glong differs_at = -1;
      for (guint j = 0; j < n; j++)
        if (j != i && strcmp (cut[i], cut[j]) == 0 && g_strcmp0 (texts[i], texts[j]) != 0)
          differs_at = MAX (differs_at, common_start (texts[i], texts[j]));
      out[i] = differs_at < 0 ? g_strdup (cut[i]) : fit_keeping_tail (cr, texts[i], differs_at, max_w);
    }
  return out;
}

double
tl_paint_text_fit_first (cairo_t *cr, double x, double y, double halign, double valign, double max_w,
                         const char *const *choices)
{
  g_return_val_if_fail (cr != NULL && choices != NULL && choices[0] != NULL, 0);
  guint i = 0;
  while (choices[i + 1] != NULL && tl_paint_text_width (cr, choices[i]) > max_w)
    i++;
  return tl_paint_text_fit (cr, x, y, halign, valign, max_w, choices[i]);
}

char **
tl_paint_legend_labels (cairo_t *cr, const TlPaintStyle *style, const char *const *names, guint n,
                        double label_w)
{
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  return tl_paint_fit_distinct (cr, names, n, label_w);
}
