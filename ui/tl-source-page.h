/* tl-source-page.h — a kernel's source (bundled as a resource) beside its
 * lesson, seed and measured facts. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_SOURCE_PAGE (tl_source_page_get_type ())
G_DECLARE_FINAL_TYPE (TlSourcePage, tl_source_page, TL, SOURCE_PAGE, GtkBox)

void  tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id);
/* characters of source shown (0 when the source is not bundled) */
gsize tl_source_page_get_source_length (TlSourcePage *self);

G_END_DECLS
