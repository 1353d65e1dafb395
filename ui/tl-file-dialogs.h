/* tl-file-dialogs.h — the window's dialogs: open a matrix or a record,
 * generate matrices, export the view.  Each hands its result to the
 * session (or to tl-render) and reports problems through it. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-render.h"
#include "tl-session.h"

G_BEGIN_DECLS

/* target: TL_TARGET_A or TL_TARGET_B for a matrix, 0 for a run or Gauss record */
void tl_file_dialogs_open     (GtkWindow *parent, TlSession *session, guint target);
void tl_file_dialogs_generate (GtkWindow *parent, TlSession *session, guint targets);
/* Asks for a file name and draws options (its strings are copied) there:
 * PNG, SVG or PDF by the name's extension. */
void tl_file_dialogs_export   (GtkWindow *parent, TlSession *session, const TlRenderOptions *options);

G_END_DECLS
