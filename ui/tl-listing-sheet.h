/* tl-listing-sheet.h — the lines a code view shows, as a sheet to export
 * (view/tl-sheet.h): numbered, coloured as tl-code-highlight colours them
 * on a light page. */
#pragma once

#include <gtk/gtk.h>
#include "view/tl-sheet.h"

G_BEGIN_DECLS

/* The lines of view's buffer on screen (from the first when the view is
 * not on screen), titled title; a line that carries the tag named mark
 * (the compiler's error mark; NULL: none) is marked on the sheet. */
TlSheet *tl_listing_sheet_new (GtkTextView *view, const char *title, const char *mark);

G_END_DECLS
