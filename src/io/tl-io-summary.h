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
 * budget is asked for a matrix never made.
 *
 * A Matrix Market file is read as a load reads it (io/tl-mtx.h's
 * tl_mtx_summarize), each value handed with its position to a pass over
 * cells (core/tl-matrix-summary.h): a sum per row and one per column,
 * rows + cols doubles, and for a coordinate file whose entries are in
 * neither row nor column order the load's map of cells seen (one bit per
 * cell, 1/64 of a float64 matrix), which finds a repeated entry.  Its
 * values come in the file's order, so:
 *   - the dtype, shape, NaN/Inf/finite counts, min, max and max-norm are
 *     the loaded matrix's bit for bit (min and max of zeros of both signs
 *     excepted: −0 or 0, as the order gives);
 *   - the 1- and ∞-norms too wherever each row's values come in column
 *     order and each column's in row order: array files (column by
 *     column), coordinate files sorted by row or by column, symmetric and
 *     skew-symmetric ones included (a mirror lands in order);
 *   - the mean and the Frobenius norm (the sum of all values, Blue's sums
 *     of squares) only for a general coordinate file sorted row after
 *     row; for an array file (column by column) and any other order they
 *     are summed in the file's order, within the rounding of a sum of n
 *     terms taken in another order (at most 2·n·ε times the sum of the
 *     magnitudes; test-matrix-summary checks this bound);
 *   - shuffled coordinate files give the 1- and ∞-norms within the same
 *     rounding (each row's or column's sum in the file's order).
 * An .npy too wide for the column sums (core/tl-matrix-summary.h) is
 * read a block of columns at a time (rows × block ≤ 1 Mi values), with
 * a sum per row (rows doubles): its counts, min, max (zeros' signs
 * included) and the four norms but Frobenius are the loaded matrix's bit
 * for bit, the mean and the Frobenius norm summed block after block,
 * within the rounding of a sum of n terms in another order (the bound
 * above; test-matrix-summary checks it).  A CSV or text file that wide is
 * loaded as tl_matrix_load_with loads it, then summarized.
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
