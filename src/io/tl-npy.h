/* tl-npy.h — NumPy .npy files, versions 1.0, 2.0 and 3.0.
 * The format is described at the top of tl-npy.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <gio/gio.h>
#include <stdio.h>
#include "core/tl-matrix.h"
#include "core/tl-matrix-summary.h"

G_BEGIN_DECLS

/* A matrix from a descriptor of a regular file of size bytes (closed);
 * *progress (may be NULL) gets the bytes read so far, atomically. */
TlMatrix *tl_npy_load_fd       (const char *path, int fd, guint64 size,
                                GCancellable *cancellable, gsize *progress, GError **error);
/* The same from an open stream of file_size bytes, read from its start
 * (the fuzzer feeds memory through fmemopen). */
TlMatrix *tl_npy_load_stream   (const char *path, FILE *f, guint64 file_size,
                                GCancellable *cancellable, GError **error);
/* The shape a .npy file's header declares, its data not read (a
 * caller that knows the shape it wants refuses another at once). */
gboolean  tl_npy_read_shape    (const char *path, guint64 *rows, guint64 *cols, GError **error);
/* The .npy stream f (file_size bytes, read from its start; a file, read
 * where its values lie when they are in Fortran order) summarized without
 * a matrix: its header read and checked against its size (the shape,
 * never the memory budget), its dtype and shape, then its values handed
 * to pass in row-major order as a load would hold them, a chunk or a band
 * of rows at a time — or, too wide for the pass's column sums, a block of
 * columns at a time (tl_summary_pass_begin_blocks).  On success the caller ends the pass; on failure it
 * was ended (or never begun). */
gboolean  tl_npy_summarize     (const char *path, FILE *f, guint64 file_size, TlDtype *dtype,
                                guint64 *rows, guint64 *cols, TlSummaryPass *pass,
                                GError **error);
gboolean  tl_npy_write         (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);

G_END_DECLS
