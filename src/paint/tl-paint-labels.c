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

/* bytes of text's rung number and the space after it ("11 " of "11 Hopper
 * wgmma + TMA"), 0 when it has none */
static gsize
rung_length (const char *text)
{
  gsize n = 0;
  while (g_ascii_isdigit (text[n]))
    n++;
  return n > 0 && text[n] == ' ' ? n + 1 : 0;
}

/* the character offset of the start of the word that ends at or runs
 * through offset at */
static glong
word_start (const char *text, glong at)
{
  const char *p = g_utf8_offset_to_pointer (text, at);
  while (p > text && g_unichar_isalnum (g_utf8_get_char (g_utf8_prev_char (p))))
    p = g_utf8_prev_char (p);
  return g_utf8_pointer_to_offset (text, p);
}

/* Where the tail that tells text apart starts, given where it parts from a
 * look-alike (in characters): at the start of that word, past the
 * punctuation and spaces before it ("Hopper wgmma, TF32" → "TF32"). */
static glong
distinct_word_start (const char *text, glong differs_at)
{
  const char *p = g_utf8_offset_to_pointer (text, differs_at);
  if (g_unichar_isalnum (g_utf8_get_char (p)))
    p = g_utf8_offset_to_pointer (text, word_start (text, differs_at));
  while (*p && strchr (" ,;:+", *p))
    p++;
  return *p ? g_utf8_pointer_to_offset (text, p) : differs_at;
}

/* Where the tail ends: before the last shared_end characters, from the
 * space where those begin whole words (" · NVIDIA H200"), else at the end */
static glong
distinct_end (const char *text, glong n, glong shared_end)
{
  const char *p = g_utf8_offset_to_pointer (text, n - MIN (shared_end, n));
  while (*p && *p != ' ')
    p++;
  return g_utf8_pointer_to_offset (text, p);
}

/* characters a and b share at their end */
static glong
common_end (const char *a, const char *b)
{
  glong n = 0;
  const char *pa = a + strlen (a), *pb = b + strlen (b);
  while (pa > a && pb > b)
    {
      const char *qa = g_utf8_prev_char (pa), *qb = g_utf8_prev_char (pb);
      if (pa - qa != pb - qb || memcmp (qa, qb, pa - qa) != 0)
        break;
      pa = qa;
      pb = qb;
      n++;
    }
  return n;
}

/* "head…tail": the tail from where text differs from its look-alikes up to
 * the end it shares with all of them (shared_end characters: " · NVIDIA
 * H200" of "00 tiled kernel number 0 · NVIDIA H200"), the
 * head at least the text's first word ("10…TF32)", "cuBLAS…BF16"), each
 * cut at its end when the room is short, and the head as long as the rest
 * of the room allows */
static char *
fit_keeping_tail (cairo_t *cr, const char *text, glong differs_at, glong shared_end, double max_w)
{
  glong n = g_utf8_strlen (text, -1);
  glong from = distinct_word_start (text, differs_at);
  glong to = distinct_end (text, n, shared_end);
  /* a word the look-alike goes on from ("number 1" beside "number 10") */
  if (to <= from)
    from = word_start (text, MIN (differs_at, to));
  if (to <= from)
    to = n;
  const char *space = strchr (text, ' ');
  glong first_word = space ? g_utf8_pointer_to_offset (text, space) : n;
  g_autofree char *word = g_utf8_substring (text, 0, MIN (first_word, from));
  g_autofree char *word_dots = g_strconcat (word, "…", NULL);
  double head_min = MIN (tl_paint_text_width (cr, word_dots), max_w * 0.5);
  g_autofree char *rest = g_utf8_substring (text, from, to);
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

/* bytes of the whole words cut keeps: up to its last space when it ends
 * in a word cut short ("10 tensor cores (WMMA, T…" keeps "10 tensor cores
 * (WMMA,"), else all of it */
static gsize
whole_words_length (const char *cut)
{
  if (!g_str_has_suffix (cut, "…"))
    return strlen (cut);
  const char *space = strrchr (cut, ' ');
  return space ? (gsize) (space - cut) : 0;
}

/* Whether texts a and b, cut to ca and cb, read alike to a lecturer: the
 * same whole words once their rung numbers are set aside ("11 Hopper w…"
 * and "13 Hopper w…", "… (WMMA, T…" and "… (WMMA, B…"), though the names
 * differ beyond them.  Sets *differs_at to where a parts from b (in
 * characters, rung included). */
static gboolean
read_alike (const char *a, const char *ca, const char *b, const char *cb, glong *differs_at)
{
  if (strcmp (a, b) == 0)
    return FALSE;
  *differs_at = common_start (a, b);
  gsize ra = rung_length (a), rb = rung_length (b);
  gsize wa = whole_words_length (ca), wb = whole_words_length (cb);
  gboolean same_words = strcmp (ca, a) != 0 && strcmp (a + ra, b + rb) != 0
                        && rung_length (ca) == ra && rung_length (cb) == rb && wa >= ra && wb >= rb
                        && wa - ra == wb - rb && strncmp (ca + ra, cb + rb, wa - ra) == 0;
  if (same_words)
    *differs_at = (glong) ra + common_start (a + ra, b + rb);
  return same_words || strcmp (ca, cb) == 0;
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
      /* where texts[i] parts from every text that, cut, reads the same */
      glong differs_at = -1, shared_end = G_MAXLONG, at;
      for (guint j = 0; j < n; j++)
        if (j != i && texts[i] && texts[j] && read_alike (texts[i], cut[i], texts[j], cut[j], &at))
          {
            differs_at = MAX (differs_at, at);
            shared_end = MIN (shared_end, common_end (texts[i], texts[j]));
          }
      out[i] = differs_at < 0 ? g_strdup (cut[i])
                              : fit_keeping_tail (cr, texts[i], differs_at, shared_end, max_w);
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
