/* tl-export.h — the view on show as a picture file, drawn off the main loop.
 *
 * Export (Ctrl+E) asks the page on show what it draws (TlPage's
 * export_options and export_record) and takes a snapshot: the options
 * with their strings copied, the run record and the Gauss record held by
 * reference.  The window may go on changing while GIO's pool draws and
 * writes the file; the file appears whole or not at all
 * (tl_render_to_file), and the session's status line (or its message bar)
 * says how it went.
 */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"
#include "tl-session.h"

G_BEGIN_DECLS

typedef struct _TlExport TlExport;

/* What page draws, or — for a page without a picture of its own (Source,
 * Device) — what fallback draws.  presentation: the picture in
 * presentation type. */
TlExport *tl_export_new  (TlSession *session, TlPage *page, TlPage *fallback, gboolean presentation);
void      tl_export_free (TlExport *self);

/* A file name that says what the picture shows: view, kernel and size,
 * "roofline-gemm-14-wgmma-persistent-4096x4096x4096.png". */
char     *tl_export_suggest_name (const TlExport *self);

/* Draws and writes on a worker thread; takes self.  The format comes from
 * the file's extension (.png, .svg, .pdf).  The session is told the
 * outcome; callback (may be NULL) is called after that. */
void      tl_export_write_async  (TlExport *self, GFile *file, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
gboolean  tl_export_write_finish (GAsyncResult *result, GError **error);
/* The same, answered as source_object's (the window's own export):
 * finish with g_task_propagate_boolean. */
void      tl_export_write_as_async (TlExport *self, gpointer source_object, GFile *file,
                                    GCancellable *cancellable, GAsyncReadyCallback callback,
                                    gpointer user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlExport, tl_export_free)

G_END_DECLS
