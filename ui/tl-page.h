/* tl-page.h — what every view of the window's stack offers the window.
 *
 * A page shows part of a TlSession.  The window knows no page by name: its
 * TlPageStack (tl-page-stack.h) hands every page the session and the
 * settings, lets each add the window actions it brings (Matrices' win.fit,
 * Compare's win.copy-csv), switches presentation mode on and off, passes
 * the shown page the keys a clicker sends; the window asks the shown page
 * what to export.
 *
 * Pages speak through the interface's signals; the stack passes what one
 * page points at to the others, and what the pointer is over to the window:
 *
 * "hover-text" (const char *text): what the pointer is over, for the
 *   status bar;
 * "show-kernel" (const char *kernel_id, const char *view, gboolean present):
 *   a page pointed at a kernel (a bar, a point of the roofline) for the page
 *   named view to show (show_kernel); present: that page comes up;
 * "tile-hovered" (const char *kernel_id, guint64 row0, guint64 rows,
 *   guint64 col0, guint64 cols): a block's tile of C under the pointer
 *   (kernel NULL: none); every page marks what it read (show_tile);
 * "records-changed": the run records the page shows changed (its record
 *   chooser, a sweep over several coming up), for the status bar to name
 *   them (shown_records).
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
   * initialised (tl_render_options_init); FALSE: the page has none now
   * (Export then draws another page's: tl_page_stack_get_export_fallback) */
  gboolean (*export_options)   (TlPage *self, TlRenderOptions *options);
  /* the run record that picture is of (borrowed); NULL or unset: the
   * session's record on show */
  TlRunRecord *(*export_record) (TlPage *self);
  /* whether the page shows something now (a record opens on the first
   * page that does; one that does not says why); default TRUE */
  gboolean (*has_content)      (TlPage *self);
  /* the window's actions this page brings, added to map (the window) */
  void     (*add_actions)      (TlPage *self, GActionMap *map);
  /* what the page keeps between launches */
  void     (*bind_settings)    (TlPage *self, GSettings *settings);
  /* another page asked this one to show a kernel ("show-kernel") */
  void     (*show_kernel)      (TlPage *self, const char *kernel_id);
  /* a block's tile of C, which read rows row0… of A and columns col0… of
   * B ("tile-hovered"); kernel_id NULL: none any more */
  void     (*show_tile)        (TlPage *self, const char *kernel_id, guint64 row0, guint64 rows,
                                guint64 col0, guint64 cols);
  /* a run is about to start (Ctrl+R): what the page holds for it is made
   * ready (the Source page turns an edited kernel into a new version);
   * FALSE with error stops the run */
  gboolean (*prepare_run)      (TlPage *self, GError **error);
  /* what the status bar says while the page is shown and the pointer is
   * over nothing to read ("Point at a block to read it"); NULL: nothing */
  const char *(*hint)          (TlPage *self);
  /* the run records the page shows now, for the status bar to name: how
   * many, and in *shown the one (borrowed) when it is one; unset: the
   * export_record where the page has one, else TL_PAGE_RECORDS_UNSAID */
  guint    (*shown_records)    (TlPage *self, TlRunRecord **shown);
};

/* a page that does not say which records it shows */
#define TL_PAGE_RECORDS_UNSAID G_MAXUINT

void     tl_page_set_session      (TlPage *self, TlSession *session);
void     tl_page_set_presentation (TlPage *self, gboolean on, gboolean high_contrast);
gboolean tl_page_step             (TlPage *self, int direction);
gboolean tl_page_key              (TlPage *self, guint keyval, GdkModifierType state);
/* options is initialised here, then filled by the page */
gboolean tl_page_export_options   (TlPage *self, TlRenderOptions *options);
TlRunRecord *tl_page_export_record (TlPage *self);
gboolean tl_page_has_content      (TlPage *self);
void     tl_page_add_actions      (TlPage *self, GActionMap *map);
void     tl_page_bind_settings    (TlPage *self, GSettings *settings);
void     tl_page_show_kernel      (TlPage *self, const char *kernel_id);
void     tl_page_show_tile        (TlPage *self, const char *kernel_id, guint64 row0, guint64 rows,
                                   guint64 col0, guint64 cols);
gboolean tl_page_prepare_run      (TlPage *self, GError **error);
const char *tl_page_get_hint      (TlPage *self); /* "" when the page has none */
guint    tl_page_get_shown_records (TlPage *self, TlRunRecord **shown);

/* For pages: the interface's signals. */
void     tl_page_emit_hover_text  (TlPage *self, const char *text);
void     tl_page_emit_show_kernel (TlPage *self, const char *kernel_id, const char *view,
                                   gboolean present);
void     tl_page_emit_tile_hovered (TlPage *self, const char *kernel_id, guint64 row0, guint64 rows,
                                    guint64 col0, guint64 cols);
void     tl_page_emit_records_changed (TlPage *self);

/* For pages: holds a session and disconnects from it when replaced or
 * finalized. */
void     tl_page_connect_session  (TlSession **slot, TlSession *session, gpointer page,
                                   const char *first_signal, ...) G_GNUC_NULL_TERMINATED;
void     tl_page_disconnect_session (TlSession **slot, gpointer page);

G_END_DECLS
