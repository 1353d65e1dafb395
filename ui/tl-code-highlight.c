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

      if (tag)
        {
          gtk_text_buffer_get_iter_at_offset (buf, &a, (int) g_utf8_pointer_to_offset (text, start));
          gtk_text_buffer_get_iter_at_offset (buf, &b, (int) g_utf8_pointer_to_offset (text, p));
          gtk_text_buffer_apply_tag_by_name (buf, tag, &a, &b);
        }
    }
}

void
tl_code_highlight_create_tags (GtkTextBuffer *buf)
{
  gtk_text_buffer_create_tag (buf, "comment", "foreground", "#4e6e3a", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (buf, "keyword", "foreground", "#1a4fa0", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "cuda", "foreground", "#a0321a", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "string", "foreground", "#8a4b00", NULL);
  gtk_text_buffer_create_tag (buf, "number", "foreground", "#6d2aa0", NULL);
  gtk_text_buffer_create_tag (buf, "preproc", "foreground", "#7a5c00", NULL);
}
