/* tl-matrix-summary.h — what `info` says of a matrix (min, max, mean,
 * NaN and Inf counts, the four norms), in one pass over its values.
 *
 * The values come in row-major order, any number at a time: from a matrix
 * in memory (tl_matrix_summarize), or from a file streamed through without
 * holding it (an .npy, CSV or text file: io/tl-io-summary.h).  The
 * ∞-norm sums each row as it passes; the 1-norm keeps one sum per column (a vector of
 * cols doubles, up to TL_SUMMARY_MAX_COLS columns; a wider matrix of one
 * row needs none, its column sums being its |values|).  The Frobenius
 * norm is Blue's algorithm, as LAPACK's dnrm2: squares summed in three
 * accumulators (tiny, middling, huge values, the outer ones scaled by
 * powers of two), so nothing overflows or underflows and no element
 * costs a division.  NaN is skipped by min, max, mean, the max-norm and
 * the 1- and ∞-norms' maxima (a column or row with a NaN sum never wins),
 * and makes the Frobenius norm NaN.
 */
#pragma once

#include "core/tl-matrix.h"

G_BEGIN_DECLS

#define TL_SUMMARY_MAX_COLS ((gsize) 1 << 22)

typedef struct
{
  TlMatrixStats stats;
  double norm_one, norm_inf, norm_frobenius, norm_max;
} TlMatrixSummary;

typedef struct
{
  gsize cols, j;       /* the row's length and the next value's column */
  gsize rows;
  double *col_sums;    /* NULL: a single row, or too wide (has_one FALSE) */
  gboolean has_one;    /* the 1-norm is known at the end */
  double row_sum, sum, lo, hi, max_abs, inf, one;
  double small, middle, big; /* Blue's accumulators */
  TlMatrixStats st;
} TlSummaryPass;

/* A pass over a rows × cols matrix's values. */
void     tl_summary_pass_begin (TlSummaryPass *pass, gsize rows, gsize cols);
/* The next n values in row-major order. */
void     tl_summary_pass_add   (TlSummaryPass *pass, const double *values, gsize n);
/* The summary; FALSE when the 1-norm is not known (out->norm_one NAN: a
 * matrix of more than one row and more than TL_SUMMARY_MAX_COLS columns).
 * Frees what the pass held. */
gboolean tl_summary_pass_end   (TlSummaryPass *pass, TlMatrixSummary *out);

/* The summary of a matrix in memory, in one pass (two for the 1-norm of a
 * matrix wider than TL_SUMMARY_MAX_COLS). */
void     tl_matrix_summarize   (const TlMatrix *matrix, TlMatrixSummary *out);

G_END_DECLS
