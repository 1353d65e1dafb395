/* tl-io-error.c — errors of the readers and writers, with positions. */
#include "io/tl-io-error.h"

void
tl_io_set_error (GError **error, TlErrorCode code, const char *path, guint line, guint col,
                 const char *format, ...)
{
  va_list args;
  if (error == NULL)
    return;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *name = g_filename_display_name (path);
  if (line > 0 && col > 0)
    g_set_error (error, TL_ERROR, code, "%s:%u:%u: %s", name, line, col, message);
  else if (line > 0)
    g_set_error (error, TL_ERROR, code, "%s:%u: %s", name, line, message);
  else
    g_set_error (error, TL_ERROR, code, "%s: %s", name, message);
}

char *
tl_io_quote (const char *text, gsize len)
{
  GString *s = g_string_new ("“");
  gsize shown = MIN (len, 40);
  for (gsize i = 0; i < shown; i++)
    {
      guchar c = (guchar) text[i];
      if (c == '\\')
        g_string_append (s, "\\\\");
      else if (c >= 0x20 && c < 0x7f)
        g_string_append_c (s, (char) c);
      else if (c == '\t')
        g_string_append (s, "\\t");
      else
        g_string_append_printf (s, "\\x%02x", c);
    }
  if (shown < len)
    g_string_append (s, "…");
  g_string_append (s, "”");
  return g_string_free (s, FALSE);
}


