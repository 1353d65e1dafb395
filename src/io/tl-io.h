/* tl-io.h — loading and saving matrices in every format Tilelab reads.
 *
 * Formats are chosen by extension (.mtx, .npy, .csv/.tsv, .txt/.mat) or
 * explicitly.  Every failure is a GError in TL_ERROR naming the file, the
 * line (and column where it helps) and what was expected; nothing partial
 * is ever returned.  Numbers are parsed and printed in the C locale.
 * Text is streamed, never held whole; saving writes a temporary file
 * beside the target and renames it, so a failed save never leaves a
 * half-written file.
 */
#pragma once

#include <gio/gio.h>
#include "core/tl-matrix.h"
#include "core/tl-save.h"
#include "io/tl-io-source.h"

G_BEGIN_DECLS

typedef enum
{
  TL_FORMAT_AUTO = 0, /* by extension (and, for loading, by content) */
  TL_FORMAT_MTX,      /* Matrix Market */
  TL_FORMAT_NPY,      /* NumPy .npy v1–v3 */
  TL_FORMAT_CSV,      /* CSV / TSV / whitespace-separated text, delimiter sniffed */
  TL_FORMAT_TEXT,     /* Tilelab text: "rows cols" then the values row by row */
} TlFormat;

const char *tl_format_name      (TlFormat format);          /* "mtx", "npy", "csv", "text" */
gboolean    tl_format_from_name (const char *name, TlFormat *out_format);
TlFormat    tl_format_from_path (const char *path);         /* TL_FORMAT_AUTO if unknown */

/* What a load chose. */
typedef struct
{
  TlFormat format; /* what the file was read as */
  char *note;      /* a sentence about a choice the reader made, or NULL: why
                    * a .txt's first line "2 2" was (not) taken as a header */
} TlLoadInfo;

/* Loads path; the cancellable is polled as the file is read (every
 * window of text, every chunk of .npy data): G_IO_ERROR_CANCELLED.
 * info (may be NULL) is filled on success; tl_load_info_clear frees it. */
TlMatrix   *tl_matrix_load_with (const char *path, TlFormat format, GCancellable *cancellable,
                                 TlLoadInfo *info, GError **error);

/* How far a load has come, for a progress bar on another thread: both
 * fields are read with g_atomic_pointer_get.  done only grows (a CSV's
 * row-count pass is not counted; the parse is); size is 0 until the file
 * is open. */
typedef struct
{
  gsize done;  /* bytes of the file parsed so far */
  gsize size;  /* the file's size */
} TlLoadProgress;

/* tl_matrix_load_with, publishing its progress in *progress (zeroed
 * first; may be NULL). */
TlMatrix   *tl_matrix_load_watched (const char *path, TlFormat format,
                                    GCancellable *cancellable, TlLoadProgress *progress,
                                    TlLoadInfo *info, GError **error);
void        tl_load_info_clear  (TlLoadInfo *info);
TlMatrix   *tl_matrix_load      (const char *path, TlFormat format, GError **error);
/* As tl_matrix_load, and tells which format the file was read as. */
TlMatrix   *tl_matrix_load_full (const char *path, TlFormat format, TlFormat *out_format,
                                 GError **error);
/* A longer, human name: "Matrix Market", "NumPy .npy", … */
const char *tl_format_title     (TlFormat format);
gboolean    tl_matrix_save      (const TlMatrix *matrix, const char *path, TlFormat format,
                                 GError **error);
/* Saves as one atomic save (core/tl-save.h: "-" is standard output, a
 * symbolic link is written through, a FIFO or device refused), stopped
 * with G_IO_ERROR_CANCELLED — the temporary removed — when cancellable is
 * cancelled. */
gboolean    tl_matrix_save_with (const TlMatrix *matrix, const char *path, TlFormat format,
                                 GCancellable *cancellable, GError **error);
/* Writes the matrix into a save begun on path (core/tl-save.h) and
 * finishes it, without the rename: one file of a set saved all or none
 * (core/tl-save-set.h).  The error names path. */
gboolean    tl_matrix_save_into (const TlMatrix *matrix, TlSave *save, const char *path,
                                 TlFormat format, GError **error);

/* The file opened and its format chosen, before any reader runs (load
 * and info share it: io/tl-io-reader.h reads on from here). */
typedef struct
{
  TlFormat format;   /* what the file is read as */
  int fd;            /* an .npy's descriptor, or -1 */
  guint64 size;      /* the file's size */
  TlIoSource src;    /* any other format's source */
  char *note;        /* why a .txt's "rows cols" line was (not) a header */
} TlIoOpened;

/* path opened (a regular file only) and its format chosen: by content
 * first (the .npy magic, the Matrix Market banner), then by name, then
 * text or CSV by a look inside.  progress (may be NULL) gets the size and
 * the source's reading.  FALSE with the error. */
gboolean  tl_io_open           (const char *path, TlFormat format, GCancellable *cancellable,
                                TlLoadProgress *progress, TlIoOpened *out, GError **error);
void      tl_io_opened_clear   (TlIoOpened *opened);

G_END_DECLS
