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
 * costs a division.  The mean's sum is kept scaled by 2⁻⁶⁴ beside the
 * plain one, which it replaces where that overflows: the mean of 1e308,
 * 1e308 and −1e308 is 3.3e307, not Inf.  NaN is skipped by min, max, mean, the max-norm and
 * the 1- and ∞-norms' maxima (a column or row with a NaN sum never wins),
 * and makes the Frobenius norm NaN.
 *
 * A pass over cells (tl_summary_pass_begin_cells) takes values with their
 * position, in any order — a Matrix Market file's entries — and keeps a
 * sum per row and one per column (rows + cols doubles); the cells never
 * given are zeros (tl_summary_pass_add_zeros), and a min or max of 0 has
 * the sign of the last zero in row-major order, as in a row-major pass.
 * A pass by blocks of columns (tl_summary_pass_begin_blocks) takes a
 * matrix too wide for the column sums a block of columns at a time, with
 * a sum per row (rows doubles); each row's sum is still taken in column
 * order and each column's in row order, the mean's and Blue's sums are
 * not.  Each sum is taken in the
 * order the values come: the row-major pass's figures bit for bit where
 * that order is the row-major one (every row's values in column order,
 * every column's in row order, for the 1- and ∞-norms; the whole matrix
 * row after row for the mean and the Frobenius norm), else within the
 * rounding of a sum in another order.
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
  double *row_sums;    /* a pass over cells: each row's sum (else NULL) */
  guint64 last_zero;   /* a pass over cells: 1 + the row-major index of the
                        * last zero given in row-major order (0: none) */
  gboolean last_zero_negative, zeros_after;
  gboolean has_one;    /* the 1-norm is known at the end */
  gboolean blocks;     /* a pass by blocks of columns: one is the 1-norm */
  double row_sum, sum, sum_scaled, lo, hi, max_abs, inf, one;
  double small, middle, big; /* Blue's accumulators */
  TlMatrixStats st;
} TlSummaryPass;

/* A pass over a rows × cols matrix's values. */
void     tl_summary_pass_begin (TlSummaryPass *pass, gsize rows, gsize cols);
/* The next n values in row-major order. */
void     tl_summary_pass_add   (TlSummaryPass *pass, const double *values, gsize n);
/* A pass over a rows × cols matrix's cells, given in any order; FALSE
 * with the error set (TL_ERROR_OUT_OF_MEMORY) when the memory budget has
 * no room for the sums per row and per column. */
gboolean tl_summary_pass_begin_cells (TlSummaryPass *pass, gsize rows, gsize cols,
                                      GError **error);
/* The value v of cell (i, j), each cell at most once. */
void     tl_summary_pass_add_cell (TlSummaryPass *pass, gsize i, gsize j, double v);
/* A pass over a rows × cols matrix (rows > 1) a block of columns at a
 * time, for one too wide for the column sums: each row's sum is kept
 * (rows doubles), each block's column sums are taken and folded into the
 * 1-norm at once.  FALSE with the error set (TL_ERROR_OUT_OF_MEMORY) when
 * the memory budget has no room for the sums per row. */
gboolean tl_summary_pass_begin_blocks (TlSummaryPass *pass, gsize rows, gsize cols,
                                       GError **error);
/* Columns j0 … j0 + n − 1 of every row, row-major (rows × n values); the
 * blocks come in column order, each column once. */
void     tl_summary_pass_add_block (TlSummaryPass *pass, gsize j0, gsize n,
                                    const double *values);
/* Whether the sign of a min or max of 0 depends on where the cells never
 * given lie: a row-major pass leaves the last zero it met there, and the
 * last zero given is −0; *index: its row-major index. */
gboolean tl_summary_pass_zero_sign_open (const TlSummaryPass *pass, guint64 *index);
/* n cells never given: zeros; after: whether one of them lies after the
 * last zero given in row-major order. */
void     tl_summary_pass_add_zeros (TlSummaryPass *pass, guint64 n, gboolean after);
/* The summary; FALSE when the 1-norm is not known (out->norm_one NAN: a
 * matrix of more than one row and more than TL_SUMMARY_MAX_COLS columns).
 * Frees what the pass held. */
gboolean tl_summary_pass_end   (TlSummaryPass *pass, TlMatrixSummary *out);

/* The summary of a matrix in memory, in one pass (two for the 1-norm of a
 * matrix wider than TL_SUMMARY_MAX_COLS). */
void     tl_matrix_summarize   (const TlMatrix *matrix, TlMatrixSummary *out);

G_END_DECLS
