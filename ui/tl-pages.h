/* tl-pages.h — the pages the window's template stacks, made known to GTK.
 *
 * The window's template (tl-window.ui) names each page's class; GtkBuilder
 * finds a class only once its type is registered.  This is the one list
 * of them: the window itself speaks to its pages through tl-page.h alone.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void tl_pages_ensure_types (void);

G_END_DECLS
