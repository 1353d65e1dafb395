/* tl-page.c — the interface of the window's views. */
#include "tl-page.h"

G_DEFINE_INTERFACE (TlPage, tl_page, GTK_TYPE_WIDGET)

static void
tl_page_default_init (TlPageInterface *iface)
{
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

gboolean
tl_page_has_content (TlPage *self)
{
  g_return_val_if_fail (TL_IS_PAGE (self), FALSE);
  TlPageInterface *iface = TL_PAGE_GET_IFACE (self);
  return iface->has_content ? iface->has_content (self) : TRUE;
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
