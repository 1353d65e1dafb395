/* tl-page.h — what every view of the window's stack offers the window.
 *
 * A page shows part of a TlSession.  The window hands every page the
 * session, switches presentation mode on and off, passes it the keys a
 * clicker sends while it is shown, and asks it what to export.
 */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-render.h"
#include "tl-session.h"

G_BEGIN_DECLS

#define TL_TYPE_PAGE (tl_page_get_type ())
G_DECLARE_INTERFACE (TlPage, tl_page, TL, PAGE, GtkWidget)

struct _TlPageInterface
{
  GTypeInterface parent_iface;

  void     (*set_session)      (TlPage *self, TlSession *session);
  void     (*set_presentation) (TlPage *self, gboolean on, gboolean high_contrast);
  /* Page Up / Page Down (and ← → while presenting): the previous or next
   * thing to look at; TRUE when the page moved */
  gboolean (*step)             (TlPage *self, int direction);
  /* any other key while the page is shown; TRUE when used */
  gboolean (*key)              (TlPage *self, guint keyval, GdkModifierType state);
  /* the picture Export draws for this page, set on options that come
   * initialised (tl_render_options_init); FALSE: the page has none */
  gboolean (*export_options)   (TlPage *self, TlRenderOptions *options);
  /* the run record that picture is of (borrowed); NULL or unset: the
   * session's record on show */
  TlRunRecord *(*export_record) (TlPage *self);
  /* whether the page shows something now (a record opens on the first
   * page that does; one that does not says why); default TRUE */
  gboolean (*has_content)      (TlPage *self);
};

void     tl_page_set_session      (TlPage *self, TlSession *session);
void     tl_page_set_presentation (TlPage *self, gboolean on, gboolean high_contrast);
gboolean tl_page_step             (TlPage *self, int direction);
gboolean tl_page_key              (TlPage *self, guint keyval, GdkModifierType state);
/* options is initialised here, then filled by the page */
gboolean tl_page_export_options   (TlPage *self, TlRenderOptions *options);
TlRunRecord *tl_page_export_record (TlPage *self);
gboolean tl_page_has_content      (TlPage *self);

/* For pages: holds a session and disconnects from it when replaced or
 * finalized. */
void     tl_page_connect_session  (TlSession **slot, TlSession *session, gpointer page,
                                   const char *first_signal, ...) G_GNUC_NULL_TERMINATED;
void     tl_page_disconnect_session (TlSession **slot, gpointer page);

G_END_DECLS
