/* tl-page.c — the interface of the window's views. */
#include "tl-page.h"

G_DEFINE_INTERFACE (TlPage, tl_page, GTK_TYPE_WIDGET)

enum { SIGNAL_HOVER_TEXT, SIGNAL_SHOW_KERNEL, SIGNAL_TILE_HOVERED, SIGNAL_RECORDS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
tl_page_default_init (TlPageInterface *iface)
{
  GType type = G_TYPE_FROM_INTERFACE (iface);
  signals[SIGNAL_HOVER_TEXT] = g_signal_new ("hover-text", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                             NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_SHOW_KERNEL] = g_signal_new ("show-kernel", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                              NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING,
                                              G_TYPE_BOOLEAN);
  signals[SIGNAL_TILE_HOVERED] = g_signal_new ("tile-hovered", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                               NULL, G_TYPE_NONE, 5, G_TYPE_STRING, G_TYPE_UINT64,
                                               G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
  signals[SIGNAL_RECORDS_CHANGED] = g_signal_new ("records-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                  NULL, G_TYPE_NONE, 0);
}

void
tl_page_set_session (TlPage *self, TlSession *session)
{
  g_return_if_fail (TL_IS_PAGE (self));
  TL_PAGE_GET_IFACE (self)->set_session (self, session);
}

void
tl_page_set_presentation (TlPage *self, gboolean on, gboolean high_contrast)
{
  g_return_if_fail (TL_IS_PAGE (self));
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  if (iface->set_presentation)
    iface->set_presentation (self, on, high_contrast);
}

gboolean
tl_page_step (TlPage *self, int direction)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->step ? iface->step (self, direction) : FALSE;
}

gboolean
tl_page_key (TlPage *self, guint keyval, GdkModifierType state)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->key ? iface->key (self, keyval, state) : FALSE;
}

gboolean
tl_page_export_options (TlPage *self, TlRenderOptions *options)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  tl_render_options_init (options);
  return iface->export_options ? iface->export_options (self, options) : FALSE;
}

TlRunRecord *
tl_page_export_record (TlPage *self)
{
  g_return_val_if_fail (TL_IS_PAGE (self), NULL);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->export_record ? iface->export_record (self) : NULL;
}

guint
tl_page_get_shown_records (TlPage *self, TlRunRecord **shown)
{
  g_return_val_if_fail (TL_IS_PAGE (self), TL_PAGE_RECORDS_UNSAID);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  *shown = NULL;
  if (iface->shown_records)
    return iface->shown_records (self, shown);
  if (iface->export_record == NULL)
    return TL_PAGE_RECORDS_UNSAID;
  *shown = iface->export_record (self);
  return *shown ? 1 : 0;
}

gboolean
tl_page_has_content (TlPage *self)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->has_content ? iface->has_content (self) : TRUE;
}

void
tl_page_add_actions (TlPage *self, GActionMap *map)
{
  g_return_if_fail (TL_IS_PAGE (self) && G_IS_ACTION_MAP (map));
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  if (iface->add_actions)
    iface->add_actions (self, map);
}

void
tl_page_bind_settings (TlPage *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_PAGE (self) && G_IS_SETTINGS (settings));
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  if (iface->bind_settings)
    iface->bind_settings (self, settings);
}

void
tl_page_show_kernel (TlPage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_PAGE (self));
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  if (iface->show_kernel)
    iface->show_kernel (self, kernel_id);
}

gboolean
tl_page_prepare_run (TlPage *self, GError **error)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->prepare_run ? iface->prepare_run (self, error) : TRUE;
}

const char *
tl_page_get_hint (TlPage *self)
{
  g_return_val_if_fail (TL_IS_PAGE (self), "");
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  const char *hint = iface->hint ? iface->hint (self) : NULL;
  return hint ? hint : "";
}

void
tl_page_show_tile (TlPage *self, const char *kernel_id, guint64 row0, guint64 rows, guint64 col0,
                   guint64 cols)
{
  g_return_if_fail (TL_IS_PAGE (self));
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  if (iface->show_tile)
    iface->show_tile (self, kernel_id, row0, rows, col0, cols);
}

void
tl_page_emit_hover_text (TlPage *self, const char *text)
{
  g_return_if_fail (TL_IS_PAGE (self));
  g_signal_emit (self, signals[SIGNAL_HOVER_TEXT], 0, text);
}

void
tl_page_emit_show_kernel (TlPage *self, const char *kernel_id, const char *view, gboolean present)
{
  g_return_if_fail (TL_IS_PAGE (self) && view != NULL);
  g_signal_emit (self, signals[SIGNAL_SHOW_KERNEL], 0, kernel_id, view, present);
}

void
tl_page_emit_tile_hovered (TlPage *self, const char *kernel_id, guint64 row0, guint64 rows,
                           guint64 col0, guint64 cols)
{
  g_return_if_fail (TL_IS_PAGE (self));
  g_signal_emit (self, signals[SIGNAL_TILE_HOVERED], 0, kernel_id, row0, rows, col0, cols);
}

void
tl_page_emit_records_changed (TlPage *self)
{
  g_return_if_fail (TL_IS_PAGE (self));
  g_signal_emit (self, signals[SIGNAL_RECORDS_CHANGED], 0);
}

void
tl_page_disconnect_session (TlSession **slot, gpointer page)
{
  if (*slot)
    g_signal_handlers_disconnect_by_data (*slot, page);
  g_clear_object (slot);
}

/* signal name, callback, … NULL: each callback gets the page as its data */
void
tl_page_connect_session (TlSession **slot, TlSession *session, gpointer page, const char *first_signal, ...)
{
  va_list args;

  tl_page_disconnect_session (slot, page);
  if (session == NULL)
    return;
  *slot = g_object_ref (session);
  va_start (args, first_signal);
  for (const char *name = first_signal; name; name = va_arg (args, const char *))
    g_signal_connect (session, name, va_arg (args, GCallback), page);
  va_end (args);
}
