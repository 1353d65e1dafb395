/* tl-save.h — writing a file a user named, so that it is whole or untouched.
 *
 * A save writes into a temporary file beside the target
 * (".NAME.tmp-XXXXXX"), flushes and fsyncs it, renames it over the target
 * and fsyncs the folder.  Whatever goes wrong — a full disk, "file too
 * large" (SIGXFSZ is to be ignored by the program, so the write fails
 * with EFBIG instead of killing it), a permission, a cancellation (Ctrl+C
 * in the CLI, Escape or quitting in the app) — the temporary is removed
 * and an existing file is left as it was.
 *
 * What the target may be:
 *   - a regular file, or nothing yet: replaced, keeping its permissions
 *     (and, when allowed, its owner);
 *   - a symbolic link: followed, so the file it points to is replaced and
 *     the link stays a link;
 *   - "-": standard output, written straight through (no temporary);
 *   - anything else (a folder, a FIFO, a device such as /dev/null, a
 *     socket) is refused: renaming over it would replace it.
 *
 * The cancellable is polled at every buffer written (1 MiB).
 */
#pragma once

#include <gio/gio.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _TlSave TlSave;

/* Starts a save to path; NULL with TL_ERROR_IO naming path. */
TlSave   *tl_save_begin     (const char *path, GCancellable *cancellable, GError **error);
/* Buffered, the cancellable polled at each buffer: a cancelled or failed
 * write sets ferror, and tl_save_commit says why. */
FILE     *tl_save_stream    (TlSave *save);
/* Flush, fsync, rename; frees save.  On failure the temporary is gone and
 * the error says why ("PATH: cannot write: File too large"), or
 * G_IO_ERROR_CANCELLED. */
gboolean  tl_save_commit    (TlSave *save, GError **error);
/* Flush, fsync and close, without the rename: the temporary is whole,
 * and tl_save_commit only renames it (a set of files saved all or none
 * finishes each before renaming any: core/tl-save-set.h).  On failure the
 * temporary is removed and the error says why, as tl_save_commit's; save
 * is still the caller's, for tl_save_abort.  TRUE again once finished. */
gboolean  tl_save_finish    (TlSave *save, GError **error);
/* Whether the target was there when the save began (else it makes it). */
gboolean  tl_save_replaces  (const TlSave *save);
/* The file the save writes: the path with its links followed ("-" for
 * standard output). */
const char *tl_save_target  (const TlSave *save);
/* Gives up: removes the temporary; frees save.  NULL is fine. */
void      tl_save_abort     (TlSave *save);

/* For a program about to exit at once (a second Ctrl+C, while the first
 * is still being honoured): removes the temporary of every save in
 * flight, and keeps any other save from starting or being renamed into
 * place.  Call it right before _exit; it never returns the lock. */
void      tl_save_abandon_all (void);
/* The same from a signal handler about to let its signal kill the
 * program: async-signal-safe (no lock, no allocation: unlink alone). */
void      tl_save_unlink_all_in_signal (void);

/* The whole of data to path, as one save. */
gboolean  tl_save_contents  (const char *path, const void *data, gsize len,
                             GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSave, tl_save_abort)

G_END_DECLS
