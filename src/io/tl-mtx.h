/* tl-mtx.h — Matrix Market files (NIST), dense and sparse, read into a dense matrix.
 * The format is described at the top of tl-mtx.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"
#include "core/tl-matrix-summary.h"
#include "io/tl-io-source.h"

G_BEGIN_DECLS

TlMatrix *tl_mtx_load          (TlIoSource *src, GError **error);
/* The same from a buffer in memory. */
TlMatrix *tl_mtx_load_data     (const char *path, const char *buf, gsize len, GError **error);
/* `info`'s pass over the file, no matrix: each value handed to pass (begun
 * here as a pass over cells, ended by the caller) as the loaded matrix
 * would hold it, in the file's order — an array file's column by column,
 * a coordinate file's as listed, symmetric and skew-symmetric mirrors
 * with their entry — and the cells the file leaves out as zeros; the
 * matrix's dtype and shape.  The errors of tl_mtx_load, but no memory
 * budget asked for the matrix (the sums per row and per column, and for
 * a coordinate file whose entries leave row and column order a bit per
 * cell, are asked for).  On failure the pass is ended. */
gboolean  tl_mtx_summarize     (TlIoSource *src, TlSummaryPass *pass, TlDtype *dtype,
                                guint64 *rows, guint64 *cols, GError **error);
gboolean  tl_mtx_write         (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);

G_END_DECLS
