/* tl-hosts-dialog.h — the machines to run on: add, test, remove.
 *
 * A host is an ssh destination, an optional launcher line and the path
 * of tilelab-cli there (docs/remote.md); the list lives in the "hosts"
 * setting, which the session follows.  Test connects the way a run does
 * and shows the host's devices, or why it could not. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TL_TYPE_HOSTS_DIALOG (tl_hosts_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TlHostsDialog, tl_hosts_dialog, TL, HOSTS_DIALOG, GtkDialog)

/* settings: where the list is kept (NULL when the schema is not
 * installed: hosts can then be tested but not kept) */
GtkWidget *tl_hosts_dialog_new (GtkWindow *parent, GSettings *settings);

G_END_DECLS
