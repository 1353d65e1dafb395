/* tl-io-summary.h — what `tilelab-cli info` prints of a matrix file, in
 * one streaming pass and no matrix, so a file far larger than the memory
 * the process may use is still summarized.
 *
 * An .npy (any dtype, either order) is summarized from its header and a
 * pass over its data a chunk (in Fortran order, a band of rows) at a
 * time; CSV and text are parsed as a load parses them, each value handed
 * to the summary instead of a matrix (io/tl-io-reader.h's TlIoFill); both
 * cost the pass's column sums (one double per column) and a few MiB.  The
 * numbers are those tl_matrix_summarize gives for the loaded matrix, bit
 * for bit, and the errors those a load gives — except that no memory
 * budget is asked for a matrix never made.  Matrix Market files (entries
 * column by column or in any order) and matrices too wide for the column
 * sums (core/tl-matrix-summary.h) are loaded as tl_matrix_load_with loads
 * them, then summarized.
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
