/* tl-gemm-kernels.h — a GEMM job's kernel list as the registry's rows. */
#pragma once

#include <gio/gio.h>

#include "core/tl-matrix.h"

G_BEGIN_DECLS

/* Expands a kernel list (ids, "all", "cpu", "gpu") into the registry's
 * rows (g_ptr_array of const TlKernelInfo *, each once, in the order
 * asked): an id is resolved here, once.  Unknown ids are TL_ERROR_INVALID
 * naming the id.  note (may be NULL) receives a remark such as "no GPU:
 * only CPU kernels".  have_gpu says whether a GPU is usable. */
GPtrArray *tl_gemm_expand_kernels (const char *const *requested, TlDtype dtype,
                                   gboolean have_gpu, char **note, GError **error);

G_END_DECLS
