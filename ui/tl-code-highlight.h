/* tl-code-highlight.h — colours C and CUDA source in a GtkTextBuffer:
 * comments, strings, preprocessor lines, keywords, CUDA built-ins, numbers. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* the tags tl_code_highlight applies (once per buffer) */
void tl_code_highlight_create_tags (GtkTextBuffer *buffer);
/* the colours for a dark background (dark themes, HighContrastInverse) or a light one */
void tl_code_highlight_set_dark (GtkTextBuffer *buffer, gboolean dark);
/* text is the buffer's whole text */
void tl_code_highlight (GtkTextBuffer *buffer, const char *text);

G_END_DECLS
