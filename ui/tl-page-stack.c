/* tl-page-stack.c — the window's stack of pages, each asked through TlPage. */
#include "tl-page-stack.h"

struct _TlPageStack
{
  GtkStack parent_instance;
};

G_DEFINE_FINAL_TYPE (TlPageStack, tl_page_stack, GTK_TYPE_STACK)

enum { SIGNAL_HOVER_TEXT, SIGNAL_RECORDS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
hover_text_cb (TlPage *page, const char *text, TlPageStack *self)
{
  g_signal_emit (self, signals[SIGNAL_HOVER_TEXT], 0, text);
}

/* the page on show chose another record: the status bar names it */
static void
records_changed_cb (TlPage *page, TlPageStack *self)
{
  if (page == tl_page_stack_get_page (self))
    g_signal_emit (self, signals[SIGNAL_RECORDS_CHANGED], 0);
}

/* a block's tile of C under the pointer: every page marks what it read */
static void
tile_hovered_cb (TlPage *from, const char *kernel_id, guint64 row0, guint64 rows, guint64 col0,
                 guint64 cols, TlPageStack *self)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    tl_page_show_tile (l->data, kernel_id, row0, rows, col0, cols);
}

/* a page pointed at a kernel (a bar, a point of the roofline) for the page
 * named view to show, and maybe to come up */
static void
show_kernel_cb (TlPage *from, const char *kernel_id, const char *view, gboolean present,
                TlPageStack *self)
{
  GtkWidget *page = gtk_stack_get_child_by_name (GTK_STACK (self), view);
  if (page == NULL)
    return;
  tl_page_show_kernel (TL_PAGE (page), kernel_id);
  if (present)
    gtk_stack_set_visible_child (GTK_STACK (self), page);
}

/* another page came up: the status bar says what this one offers to read */
static void
visible_child_cb (TlPageStack *self, GParamSpec *pspec, gpointer data)
{
  TlPage *page = tl_page_stack_get_page (self);
  g_signal_emit (self, signals[SIGNAL_HOVER_TEXT], 0, page ? tl_page_get_hint (page) : "");
  g_signal_emit (self, signals[SIGNAL_RECORDS_CHANGED], 0);
}

static void
tl_page_stack_class_init (TlPageStackClass *klass)
{
  signals[SIGNAL_HOVER_TEXT] = g_signal_new ("hover-text", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_RECORDS_CHANGED] = g_signal_new ("records-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tl_page_stack_init (TlPageStack *self)
{
  g_signal_connect (self, "notify::visible-child", G_CALLBACK (visible_child_cb), NULL);
}

void
tl_page_stack_set_session (TlPageStack *self, TlSession *session, GActionMap *map)
{
  g_return_if_fail (TL_IS_PAGE_STACK (self));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    {
      TlPage *page = l->data;
      tl_page_set_session (page, session);
      tl_page_add_actions (page, map);
      g_signal_connect_object (page, "hover-text", G_CALLBACK (hover_text_cb), self, 0);
      g_signal_connect_object (page, "tile-hovered", G_CALLBACK (tile_hovered_cb), self, 0);
      g_signal_connect_object (page, "show-kernel", G_CALLBACK (show_kernel_cb), self, 0);
      g_signal_connect_object (page, "records-changed", G_CALLBACK (records_changed_cb), self, 0);
    }
  visible_child_cb (self, NULL, NULL);
}

void
tl_page_stack_bind_settings (TlPageStack *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_PAGE_STACK (self));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    tl_page_bind_settings (l->data, settings);
}

void
tl_page_stack_set_presentation (TlPageStack *self, gboolean on, gboolean high_contrast)
{
  g_return_if_fail (TL_IS_PAGE_STACK (self));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    tl_page_set_presentation (l->data, on, high_contrast);
}

TlPage *
tl_page_stack_get_page (TlPageStack *self)
{
  g_return_val_if_fail (TL_IS_PAGE_STACK (self), NULL);
  GtkWidget *page = gtk_stack_get_visible_child (GTK_STACK (self));
  return page ? TL_PAGE (page) : NULL;
}

TlPage *
tl_page_stack_get_export_fallback (TlPageStack *self)
{
  g_return_val_if_fail (TL_IS_PAGE_STACK (self), NULL);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    {
      TlRenderOptions options;
      if (tl_page_has_content (l->data) && tl_page_export_options (l->data, &options))
        return l->data;
    }
  return children ? children->data : NULL;
}

gboolean
tl_page_stack_key (TlPageStack *self, guint keyval, GdkModifierType state, gboolean presenting)
{
  g_return_val_if_fail (TL_IS_PAGE_STACK (self), FALSE);
  TlPage *page = tl_page_stack_get_page (self);
  if (page == NULL)
    return FALSE;
  if (tl_page_key (page, keyval, state))
    return TRUE;
  int dir = keyval == GDK_KEY_Page_Down || (presenting && keyval == GDK_KEY_Right) ? 1
            : keyval == GDK_KEY_Page_Up || (presenting && keyval == GDK_KEY_Left) ? -1 : 0;
  return dir != 0 && tl_page_step (page, dir);
}

void
tl_page_stack_show_first_with_content (TlPageStack *self)
{
  g_return_if_fail (TL_IS_PAGE_STACK (self));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    if (tl_page_has_content (l->data))
      {
        gtk_stack_set_visible_child (GTK_STACK (self), l->data);
        return;
      }
}

void
tl_page_stack_show_kernel (TlPageStack *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_PAGE_STACK (self));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    tl_page_show_kernel (l->data, kernel_id);
}

gboolean
tl_page_stack_prepare_run (TlPageStack *self, GError **error)
{
  g_return_val_if_fail (TL_IS_PAGE_STACK (self), FALSE);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self));
  for (GList *l = children; l; l = l->next)
    if (!tl_page_prepare_run (l->data, error))
      return FALSE;
  return TRUE;
}
