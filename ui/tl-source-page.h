/* tl-source-page.h — a kernel's source (bundled as a resource) beside its
 * lesson, seed and measured facts. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"
#include "gemm/tl-kernels.h"

G_BEGIN_DECLS

#define TL_TYPE_SOURCE_PAGE (tl_source_page_get_type ())
G_DECLARE_FINAL_TYPE (TlSourcePage, tl_source_page, TL, SOURCE_PAGE, GtkBox)

void  tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id);
/* a user's kernel (gemm/tl-user-kernel.h) joins the list */
void  tl_source_page_add_kernel (TlSourcePage *self, const TlKernelInfo *info);
/* When the shown kernel is a user's and its text was edited: the edit read
 * as a new version, registered, shown and returned (its compile and run
 * are the caller's); NULL when nothing was edited, or with error when the
 * declarations are wrong (the line marked). */
const TlKernelInfo *tl_source_page_commit_edit (TlSourcePage *self, GError **error);
/* characters of source shown (0 when the source is not bundled) */
gsize tl_source_page_get_source_length (TlSourcePage *self);
/* whether the code is beside its facts (else above them), and how many
 * characters of a line it shows */
gboolean tl_source_page_get_code_beside (TlSourcePage *self);
double   tl_source_page_get_code_columns (TlSourcePage *self);

G_END_DECLS
