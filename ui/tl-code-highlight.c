/* tl-code-highlight.c — one pass over C and CUDA source. */
#include "tl-code-highlight.h"

#include <string.h>

static const char *const c_keywords[] = {
  "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case", "default",
  "static", "const", "inline", "struct", "typedef", "enum", "template", "typename", "void",
  "int", "unsigned", "float", "double", "char", "bool", "size_t", "auto", "extern", "sizeof",
  "__global__", "__device__", "__shared__", "__syncthreads", "__restrict__", "__launch_bounds__",
  "constexpr", "namespace", "using", "true", "false", "nullptr", "gsize", "guint", "gboolean",
  NULL
};

void
tl_code_highlight (GtkTextBuffer *buf, const char *text)
{
  /* one pass over the text: comments, strings, preprocessor lines, keywords, numbers */
  const char *p = text;
  const char *counted = text;   /* offset is the character offset of counted */
  glong offset = 0;
  GtkTextIter a, b;

  while (*p)
    {
      const char *start = p;
      const char *tag = NULL;

      if (p[0] == '/' && p[1] == '/')
        {
          while (*p && *p != '\n')
            p++;
          tag = "comment";
        }
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          p = end ? end + 2 : p + strlen (p);
          tag = "comment";
        }
      else if (*p == '"')
        {
          p++;
          while (*p && *p != '"' && *p != '\n')
            p += (*p == '\\' && p[1]) ? 2 : 1;
          if (*p == '"')
            p++;
          tag = "string";
        }
      else if (*p == '#' && (p == text || p[-1] == '\n'))
        {
          while (*p && *p != '\n')
            p++;
          tag = "preproc";
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          g_autofree char *word = g_strndup (start, p - start);
          if (g_strv_contains (c_keywords, word))
            tag = "keyword";
          else if (g_str_has_prefix (word, "threadIdx") || g_str_has_prefix (word, "blockIdx")
                   || g_str_has_prefix (word, "blockDim") || g_str_has_prefix (word, "gridDim"))
            tag = "cuda";
        }
      else if (g_ascii_isdigit (*p))
        {
          while (g_ascii_isalnum (*p) || *p == '.')
            p++;
          tag = "number";
        }
      else
        p = g_utf8_next_char (p);

      /* character offsets, counted on from the last token (counting from
       * the start every time made a 30 kB file quadratic) */
      glong start_offset = offset + g_utf8_pointer_to_offset (counted, start);
      offset = start_offset + g_utf8_pointer_to_offset (start, p);
      counted = p;
      if (tag)
        {
          gtk_text_buffer_get_iter_at_offset (buf, &a, (int) start_offset);
          gtk_text_buffer_get_iter_at_offset (buf, &b, (int) offset);
          gtk_text_buffer_apply_tag_by_name (buf, tag, &a, &b);
        }
    }
}

/* One colour per kind of token, for light and for dark backgrounds; each
 * keeps a contrast of at least 4.5:1 against the theme's text background. */
static const struct
{
  const char *tag, *light, *dark;
} palette[] = {
  { "comment", "#3f5e2c", "#9ccc78" },
  { "keyword", "#1a4fa0", "#8cbcff" },
  { "cuda",    "#a0321a", "#ff9a80" },
  { "string",  "#7a4200", "#e8b060" },
  { "number",  "#6d2aa0", "#d0a8ff" },
  { "preproc", "#6a5000", "#e8cc70" },
};

void
tl_code_highlight_create_tags (GtkTextBuffer *buf)
{
  gtk_text_buffer_create_tag (buf, "comment", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (buf, "keyword", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "cuda", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "string", NULL);
  gtk_text_buffer_create_tag (buf, "number", NULL);
  gtk_text_buffer_create_tag (buf, "preproc", NULL);
  tl_code_highlight_set_dark (buf, FALSE);
}

void
tl_code_highlight_set_dark (GtkTextBuffer *buf, gboolean dark)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buf);
  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    g_object_set (gtk_text_tag_table_lookup (table, palette[i].tag), "foreground",
                  dark ? palette[i].dark : palette[i].light, NULL);
}
