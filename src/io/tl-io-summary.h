/* tl-io-summary.h — what `tilelab-cli info` prints of a matrix file, with
 * no more reading than the format needs.
 *
 * An .npy whose data is the matrix's own bytes (C order, this machine's
 * byte order, float32, float64 or int32: what numpy saves by default) is
 * summarized from its header and one streaming pass over its data, a
 * block at a time: no matrix is allocated, so a file of 1.4 GB costs a few
 * MiB and its read.  Any other file (text formats, an .npy in Fortran
 * order or of another dtype) is loaded as tl_matrix_load_with loads it,
 * with the same messages, then summarized in one pass
 * (core/tl-matrix-summary.h).
 */
#pragma once

#include "core/tl-matrix-summary.h"
#include "io/tl-io.h"

G_BEGIN_DECLS

typedef struct
{
  TlDtype dtype;
  gsize rows, cols;
  TlMatrixSummary summary;
} TlFileSummary;

/* FALSE with the loader's error; info as tl_matrix_load_with fills it. */
gboolean tl_matrix_file_summarize (const char *path, TlFormat format, TlLoadInfo *info,
                                   TlFileSummary *out, GError **error);

G_END_DECLS
