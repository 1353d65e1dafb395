/* tl-save-set.h — several files saved as one: all of them, or none.
 *
 * A record saved with its matrices is a set of files that only make sense
 * together: a record naming an A.npy that a full disk cut short, or an
 * A.npy left from a save whose record was never written, is a wrong
 * picture of a run.  Each file of a set is a save of its own (a
 * temporary beside its target: core/tl-save.h); the set finishes every
 * one (flush, fsync) before it renames any into place.  On any failure
 * every temporary is removed, and so is every file the set had already
 * renamed into place where there was none before — the error names the
 * file and says why ("PATH: cannot write: File too large").  A file the
 * set replaced keeps its new content if a later rename fails (renames
 * fail only when the folder itself does). */
#pragma once

#include "core/tl-save.h"

G_BEGIN_DECLS

typedef struct _TlSaveSet TlSaveSet;

TlSaveSet *tl_save_set_new    (GCancellable *cancellable);
/* Begins the save of path within the set: write to tl_save_stream, then
 * tl_save_finish it (or leave that to the commit).  NULL with the error
 * when it cannot begin; the set is then to be aborted. */
TlSave    *tl_save_set_add    (TlSaveSet *set, const char *path, GError **error);
/* Finishes every save, then renames each into place; on a failure none
 * stays (above).  Frees set. */
gboolean   tl_save_set_commit (TlSaveSet *set, GError **error);
/* Gives every save up, its temporary removed; frees set.  NULL is fine. */
void       tl_save_set_abort  (TlSaveSet *set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSaveSet, tl_save_set_abort)

G_END_DECLS
