/* tl-gfp-gpu.h — exact LU in GF(p) on a GPU (gpu/lu/gfp-lu.cu).
 *
 * The same elimination as tl_gfp_lu (tl-gfp.h), bit-identical to it: the
 * pivot is the first non-zero entry of the column, every operation is
 * exact mod p; the determinant is formed on the host from U's diagonal.
 */
#pragma once

#include "lu/tl-gfp.h"

G_BEGIN_DECLS

/* TL_ERROR_NO_DEVICE without a GPU; on the device of the thread's GPU
 * session (the runner worker's) or one opened for the call. */
TlGfpLu *tl_gfp_lu_gpu (const TlGfpMatrix *a, int ordinal, GError **error);

G_END_DECLS
