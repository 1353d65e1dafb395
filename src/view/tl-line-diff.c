/* tl-line-diff.c — what changed between two texts, line by line. */
#include "view/tl-line-diff.h"

#include <string.h>

static gboolean
is_blank (const char *line)
{
  for (const char *p = line; *p; p++)
    if (*p != ' ' && *p != '\t' && *p != '\r')
      return FALSE;
  return TRUE;
}

/* The texts split into lines, the blank lines at their end dropped. */
static char **
split_lines (const char *text, guint *n)
{
  char **lines = g_strsplit (text ? text : "", "\n", -1);
  guint len = g_strv_length (lines);
  while (len > 0 && is_blank (lines[len - 1]))
    {
      g_free (lines[--len]);
      lines[len] = NULL;
    }
  *n = len;
  return lines;
}

/* a line with its spacing collapsed: re-indented code is the same line */
static char *
normalised (const char *line)
{
  GString *s = g_string_new (NULL);
  gboolean space = FALSE;
  for (const char *p = line; *p; p++)
    {
      if (*p == ' ' || *p == '\t' || *p == '\r')
        {
          space = s->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (s, ' ');
      space = FALSE;
      g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

static void
line_clear (gpointer data)
{
  g_free (((TlDiffLine *) data)->text);
}

static TlLineDiff *
diff_alloc (void)
{
  TlLineDiff *d = g_new0 (TlLineDiff, 1);
  d->lines = g_array_new (FALSE, TRUE, sizeof (TlDiffLine));
  g_array_set_clear_func (d->lines, line_clear);
  return d;
}

static void
add (TlLineDiff *d, TlDiffOp op, const char *text, guint old_line, guint new_line)
{
  TlDiffLine l = { op, g_strdup (text), old_line, new_line, 0 };
  g_array_append_val (d->lines, l);
  d->n_removed += op == TL_DIFF_REMOVED;
  d->n_added += op == TL_DIFF_ADDED;
}

TlLineDiff *
tl_line_diff_new (const char *old_text, const char *new_text)
{
  guint n, m;
  g_auto (GStrv) a = split_lines (old_text, &n);
  g_auto (GStrv) b = split_lines (new_text, &m);
  char **na = g_new0 (char *, n + 1), **nb = g_new0 (char *, m + 1);
  for (guint i = 0; i < n; i++)
    na[i] = normalised (a[i]);
  for (guint j = 0; j < m; j++)
    nb[j] = normalised (b[j]);

  /* lcs[i][j]: the longest common subsequence of a[i..] and b[j..] */
  guint32 *lcs = g_new0 (guint32, (gsize) (n + 1) * (m + 1));
#define LCS(i, j) lcs[(gsize) (i) * (m + 1) + (j)]
  for (guint i = n; i-- > 0;)
    for (guint j = m; j-- > 0;)
      LCS (i, j) = strcmp (na[i], nb[j]) == 0 ? LCS (i + 1, j + 1) + 1 : MAX (LCS (i + 1, j), LCS (i, j + 1));

  TlLineDiff *d = diff_alloc ();
  guint i = 0, j = 0;
  while (i < n || j < m)
    {
      if (i < n && j < m && strcmp (na[i], nb[j]) == 0)
        {
          add (d, TL_DIFF_SAME, b[j], i + 1, j + 1);
          i++;
          j++;
        }
      /* removed lines before the added ones that replace them, as diff prints */
      else if (i < n && (j == m || LCS (i + 1, j) >= LCS (i, j + 1)))
        {
          add (d, TL_DIFF_REMOVED, a[i], i + 1, 0);
          i++;
        }
      else
        {
          add (d, TL_DIFF_ADDED, b[j], 0, j + 1);
          j++;
        }
    }
#undef LCS
  g_free (lcs);
  g_strfreev (na);
  g_strfreev (nb);
  return d;
}

TlLineDiff *
tl_line_diff_hunks (const TlLineDiff *diff, guint context)
{
  g_return_val_if_fail (diff != NULL, NULL);
  guint n = diff->lines->len;
  /* keep[k]: line k is a change or within context of one */
  g_autofree gboolean *keep = g_new0 (gboolean, n);
  for (guint k = 0; k < n; k++)
    if (g_array_index (diff->lines, TlDiffLine, k).op != TL_DIFF_SAME)
      for (guint c = k > context ? k - context : 0; c <= MIN (k + context, n - 1); c++)
        keep[c] = TRUE;

  TlLineDiff *out = diff_alloc ();
  guint folded = 0;
  for (guint k = 0; k <= n; k++)
    {
      if (k < n && !keep[k])
        {
          folded++;
          continue;
        }
      if (folded)
        {
          TlDiffLine f = { TL_DIFF_FOLDED, NULL, 0, 0, folded };
          g_array_append_val (out->lines, f);
          folded = 0;
        }
      if (k == n)
        break;
      const TlDiffLine *l = &g_array_index (diff->lines, TlDiffLine, k);
      add (out, l->op, l->text, l->old_line, l->new_line);
    }
  return out;
}

void
tl_line_diff_free (TlLineDiff *diff)
{
  if (diff == NULL)
    return;
  g_array_unref (diff->lines);
  g_free (diff);
}
