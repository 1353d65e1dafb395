/* tl-kernel-source.c — what a rung's source file says about itself. */
#include "view/tl-kernel-source.h"

#include <string.h>

#define RESOURCE_PREFIX "/org/tilelab/Tilelab/source/"

char *
tl_kernel_source_text (const char *source_path)
{
  if (source_path == NULL || *source_path == '\0')
    return NULL;
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, source_path, NULL);
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
  if (bytes == NULL)
    return NULL;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  return g_utf8_make_valid (data, (gssize) len);
}

/* ---- the header's paragraphs ---------------------------------------------- */

/* Whether a comment line (after its "//") opens a labelled paragraph:
 * " Bottleneck attacked: …", " From: …" — one space, then a few words
 * and a colon (after a line that ended a sentence). */
static gboolean
opens_paragraph (const char *comment)
{
  if (comment[0] != ' ' || !g_ascii_isupper (comment[1]))
    return FALSE;
  for (guint i = 1; i < 32 && comment[i]; i++)
    {
      if (comment[i] == ':')
        return TRUE;
      if (!g_ascii_isalpha (comment[i]) && comment[i] != ' ' && comment[i] != '-')
        return FALSE;
    }
  return FALSE;
}

/* The comments' plain-text emphasis, as read aloud: "*warpgroup*",
 * "(*not* faster)" and "*both CTAs*" without their stars; "m*k", "*p",
 * "a * b" and "**" stay as written.  An opening star follows a space or an
 * opening mark and precedes a letter; its closing star, a few words on,
 * follows a letter and precedes a space or a punctuation mark. */
static char *
without_emphasis (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text;
  while (*p)
    {
      gboolean opens = *p == '*' && (p == text || strchr (" (\"'", p[-1]))
                       && g_ascii_isalnum (p[1]);
      const char *close = NULL;
      for (const char *q = p + 1; opens && *q && q - p < 60 && close == NULL; q++)
        if (*q == '*')
          {
            if (g_ascii_isalnum (q[-1]) && (q[1] == '\0' || strchr (" ).,;:!?\"'", q[1])))
              close = q;
            else
              break;
          }
      if (close == NULL)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      g_string_append_len (out, p + 1, close - p - 1);
      p = close + 1;
    }
  return g_string_free (out, FALSE);
}

char *
tl_kernel_source_paragraph (const char *text, const char *label)
{
  g_return_val_if_fail (label != NULL, NULL);
  if (text == NULL)
    return NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *found = NULL;
  gboolean block = FALSE; /* in an indented block that belongs to the paragraph */
  gboolean ended = FALSE; /* the line before ended a sentence */
  gsize indent = 0;       /* the line before's, after its "//" */
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];
      while (*l == ' ' || *l == '\t')
        l++;
      if (!g_str_has_prefix (l, "//"))
        break; /* the header ends where the code begins */
      l += 2;
      g_autofree char *words = g_strstrip (g_strdup (l));
      if (found == NULL)
        {
          if (g_str_has_prefix (words, label))
            found = g_string_new (words);
          ended = g_str_has_suffix (words, ".");
          continue;
        }
      if (ended && opens_paragraph (l))
        break; /* the next paragraph */
      if (*words == '\0')
        {
          /* a blank comment line ends the paragraph, unless it introduces
           * an indented block ("…the COLUMNS of C:" and two formulas) or
           * parts one */
          if (!block && !g_str_has_suffix (found->str, ":"))
            break;
          block = TRUE;
          ended = TRUE;
          continue;
        }
      if (block && !g_str_has_prefix (l, "  "))
        break; /* the next paragraph */
      /* the block's lines one below the other (rung 2's two formulas) are
       * parted by "; "; a line indented deeper goes on the one before (a
       * numbered part's words), as does one after a sentence's end */
      gsize here = strspn (l, " ");
      gboolean beneath = block && here == indent && !ended && !g_str_has_suffix (found->str, ":");
      ended = g_str_has_suffix (words, ".");
      indent = here;
      g_string_append (found, beneath ? "; " : " ");
      g_string_append (found, words);
    }
  if (found == NULL)
    return NULL;
  /* one space between words, their emphasis dropped */
  g_auto (GStrv) parts = g_strsplit_set (found->str, " \t", -1);
  g_string_free (found, TRUE);
  GString *joined = g_string_new (NULL);
  for (guint i = 0; parts[i]; i++)
    if (*parts[i])
      g_string_append_printf (joined, "%s%s", joined->len ? " " : "", parts[i]);
  g_autofree char *plain = g_string_free (joined, FALSE);
  return without_emphasis (plain);
}

int
tl_kernel_source_changed_from (const char *text)
{
  const char *mark = "What changed from rung ";
  const char *p = text ? strstr (text, mark) : NULL;
  if (p == NULL)
    return 0;
  p += strlen (mark);
  int n = 0;
  while (g_ascii_isdigit (*p) && n < 1000)
    n = 10 * n + (*p++ - '0');
  return n;
}

/* ---- the kernels ---------------------------------------------------------- */

/* Past the comment or literal that starts at p (p itself when none). */
static const char *
skip_comment_or_literal (const char *p)
{
  if (p[0] == '/' && p[1] == '/')
    {
      const char *nl = strchr (p, '\n');
      return nl ? nl : p + strlen (p);
    }
  if (p[0] == '/' && p[1] == '*')
    {
      const char *end = strstr (p + 2, "*/");
      return end ? end + 2 : p + strlen (p);
    }
  if (*p == '"' || *p == '\'')
    {
      char quote = *p++;
      while (*p && *p != quote)
        p += (*p == '\\' && p[1]) ? 2 : 1;
      return *p ? p + 1 : p;
    }
  return p;
}

/* The closing brace of the body that follows from (the first '{' after
 * the signature's parentheses close), or NULL. */
static const char *
body_end (const char *from)
{
  int parens = 0, braces = 0;
  gboolean in_body = FALSE;
  for (const char *p = from; *p;)
    {
      const char *q = skip_comment_or_literal (p);
      if (q != p)
        {
          p = q;
          continue;
        }
      if (*p == '(')
        parens++;
      else if (*p == ')')
        parens--;
      else if (*p == ';' && !in_body && parens == 0)
        return NULL; /* a declaration, not a definition */
      else if (*p == '{' && parens == 0)
        {
          in_body = TRUE;
          braces++;
        }
      else if (*p == '}' && in_body && --braces == 0)
        return p;
      p++;
    }
  return NULL;
}

/* The start of the line holding p, or of the `template <…>` line above it. */
static const char *
definition_start (const char *text, const char *p)
{
  const char *line = p;
  while (line > text && line[-1] != '\n')
    line--;
  const char *prev = line;
  if (prev > text)
    {
      prev--; /* the newline */
      while (prev > text && prev[-1] != '\n')
        prev--;
      while (*prev == ' ')
        prev++;
      if (g_str_has_prefix (prev, "template"))
        {
          while (prev > text && prev[-1] != '\n')
            prev--;
          return prev;
        }
    }
  return line;
}

static gboolean
in_line_comment (const char *text, const char *p)
{
  const char *line = p;
  while (line > text && line[-1] != '\n')
    line--;
  for (const char *q = line; q < p; q++)
    if (q[0] == '/' && (q[1] == '/' || q[1] == '*'))
      return TRUE;
  return FALSE;
}

/* The next `__global__` or `__device__` function's mark at or after p. */
static const char *
next_mark (const char *p)
{
  const char *g = strstr (p, "__global__"), *d = strstr (p, "__device__");
  return g && (!d || g < d) ? g : d;
}

/* A helper for both host and device (`__host__ __device__ constexpr`
 * sizes) is no part of what a kernel does. */
static gboolean
host_helper (const char *text, const char *p)
{
  const char *line = p;
  while (line > text && line[-1] != '\n')
    line--;
  const char *end = strchr (p, '\n');
  g_autofree char *l = g_strndup (line, end ? end - line : (gssize) strlen (line));
  return strstr (l, "__host__") != NULL || strstr (l, "constexpr") != NULL;
}

static void
append_kernels (const char *text, GString *out)
{
  for (const char *p = next_mark (text); p; p = next_mark (p + 1))
    {
      if (in_line_comment (text, p) || host_helper (text, p))
        continue;
      const char *end = body_end (p);
      if (end == NULL)
        continue;
      const char *start = definition_start (text, p);
      if (out->len)
        g_string_append (out, "\n\n");
      g_string_append_len (out, start, end + 1 - start);
      p = end;
    }
}

static void
kernels_of (const char *text, const char *source_path, guint depth, GString *out)
{
  append_kernels (text, out);
  if (out->len || depth >= 2)
    return;
  /* a rung that instantiates a shared template: its project headers */
  g_autofree char *dir = g_path_get_dirname (source_path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];
      if (!g_str_has_prefix (l, "#include \""))
        continue;
      l += strlen ("#include \"");
      const char *close = strchr (l, '"');
      if (close == NULL)
        continue;
      g_autofree char *name = g_strndup (l, close - l);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *header = tl_kernel_source_text (path);
      if (header)
        kernels_of (header, path, depth + 1, out);
    }
}

char *
tl_kernel_source_kernels (const char *text, const char *source_path)
{
  if (text == NULL)
    return NULL;
  GString *out = g_string_new (NULL);
  kernels_of (text, source_path ? source_path : "", 0, out);
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}
