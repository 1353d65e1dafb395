/* tl-file-dialogs.h — the window's dialogs: open a matrix or a record,
 * generate matrices, export the view.  Each hands its result to the
 * session (or to tl-render) and reports problems through it. */
#pragma once

#include <gtk/gtk.h>
#include "tl-export.h"
#include "tl-session.h"

G_BEGIN_DECLS

/* target: TL_TARGET_A or TL_TARGET_B for a matrix, 0 for a run or Gauss record */
void tl_file_dialogs_open     (GtkWindow *parent, TlSession *session, guint target);
void tl_file_dialogs_generate (GtkWindow *parent, TlSession *session, guint targets);
/* a user's kernel file (.cu): chosen hands it to the caller */
void tl_file_dialogs_open_kernel (GtkWindow *parent, void (*chosen) (GtkWindow *parent, GFile *file));
/* Asks for a file name (suggesting one that says what the picture shows)
 * and writes export there: PNG, SVG or PDF by the name's extension, or
 * the chosen filter's when it has none.  Takes export. */
void tl_file_dialogs_export   (GtkWindow *parent, TlExport *export);

G_END_DECLS
