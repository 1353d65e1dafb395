/* tl-window.c — the main window: header bar, sidebar, views, status bar. */
#include "tl-window.h"

#include <glib/gi18n-lib.h>

#include "tl-export.h"
#include "tl-file-dialogs.h"
#include "tl-hosts-dialog.h"
#include "tl-kernel-panel.h"
#include "tl-page-stack.h"
#include "tl-pages.h"
#include "tl-help-overlay.h"
#include "tl-presentation.h"
#include "tl-recent-menu.h"
#include "tl-sources-panel.h"
#include "tl-switcher-fit.h"
#include "tl-ui-util.h"
#include "tl-window-size.h"

struct _TlWindow
{
  GtkApplicationWindow parent_instance;

  TlSession *session;
  GSettings *settings;
  gboolean presentation;
  gboolean high_contrast;     /* Ctrl+H, kept in the settings */
  guint inhibit_cookie;       /* screen blanking held off while presenting */
  TlWindowSize size;          /* the size to remember */
  char *news;                 /* the session's last status line */

  /* template children */
  GMenu *recent_section;
  GtkWidget *menu_button;
  GtkWidget *run_stack, *run_button, *cancel_button;
  GtkWidget *gpu_bar, *gpu_label;
  GtkWidget *info_bar, *info_label;
  GtkWidget *sidebar;
  GtkWidget *sources_panel, *kernel_panel;
  GtkWidget *view_stack;
  GtkWidget *hover_label, *hover_separator, *progress_bar, *last_label;
};

G_DEFINE_FINAL_TYPE (TlWindow, tl_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- the session's news ---------------------------------------------------- */

static void
message_cb (TlSession *session, int type, const char *text, TlWindow *self)
{
  if (text == NULL)
    {
      gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), FALSE);
      return;
    }
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), type);
  gtk_label_set_text (GTK_LABEL (self->info_label), text);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), TRUE);
}

static void
info_bar_response_cb (GtkInfoBar *bar, int response, TlWindow *self)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
progress_cb (TlSession *session, const char *text, double fraction, TlWindow *self)
{
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
}

/* a status line wraps onto a second line, and may be cut after that:
 * its tooltip keeps it whole; said again, it changes nothing (no new
 * layout) */
static void
set_status_text (GtkWidget *label, const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) == 0)
    return;
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
status_cb (TlSession *session, const char *text, TlWindow *self)
{
  g_free (self->news);
  self->news = g_strdup (text);
  set_status_text (self->last_label, text);
}

/* The status line names the record the page on show draws (Roofline's
 * choice, not the LU record opened last), says how many where a page
 * draws several (Compare's size sweep), and keeps the session's news on a
 * page that draws no record or the run just made here ("last: …"). */
static void
page_records_cb (TlPageStack *pages, TlWindow *self)
{
  TlRunRecord *shown = NULL;
  TlPage *page = tl_page_stack_get_page (pages);
  guint n = page ? tl_page_get_shown_records (page, &shown) : TL_PAGE_RECORDS_UNSAID;
  gboolean made_here = shown != NULL && shown == tl_session_get_record (self->session)
                       && !tl_session_record_from_file (self->session);
  g_autofree char *text = NULL;
  if (n == 1 && shown != NULL && !made_here)
    text = tl_session_describe_record (shown);
  else if (n > 1 && n != TL_PAGE_RECORDS_UNSAID)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u records", "%u records", n), n);
  set_status_text (self->last_label, text ? text : self->news ? self->news : "");
}

/* the hover facts take room only while there are some: presenting, an
 * empty third of the status bar cut the message beside it; a line between
 * them and the message where no progress bar stands there (presenting) */
static void
show_hover_text (TlWindow *self)
{
  gboolean some = *gtk_label_get_text (GTK_LABEL (self->hover_label)) != '\0';
  gtk_widget_set_visible (self->hover_label, some);
  gtk_widget_set_visible (self->hover_separator, some && self->presentation);
}

static void
hover_text_cb (TlPageStack *pages, const char *text, TlWindow *self)
{
  set_status_text (self->hover_label, text);
  show_hover_text (self);
}

static void
update_actions (TlWindow *self)
{
  GActionMap *map = G_ACTION_MAP (self);
  gboolean running = tl_session_is_running (self->session);
  gboolean busy = tl_session_is_busy (self->session) && !running;
  g_auto (GStrv) kernels = tl_kernel_panel_get_active (TL_KERNEL_PANEL (self->kernel_panel));

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "run")), !running && !busy);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "sweep")),
                               !running && kernels && kernels[0]);
  /* Escape stops a GEMM run or sweep, Factor A, and a file being read */
  gboolean cancellable = running || tl_session_is_factoring (self->session)
                         || tl_session_is_loading (self->session) || tl_session_is_exporting (self->session);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "cancel")), cancellable);
  /* Cancel takes Run's place while there is something to cancel */
  gtk_stack_set_visible_child (GTK_STACK (self->run_stack), cancellable ? self->cancel_button : self->run_button);
  /* presenting, an idle progress bar gives its room to the words beside it */
  gtk_widget_set_visible (self->progress_bar, cancellable || !self->presentation);
}

static void
state_changed_cb (TlSession *session, TlWindow *self)
{
  update_actions (self);
}

/* the ticks, the data type or the device changed */
static void
kernels_changed_cb (TlKernelPanel *panel, TlWindow *self)
{
  if (self->session == NULL)
    return;
  /* the machine (this one, or a host) and its GPU */
  tl_session_set_run_on (self->session, tl_kernel_panel_get_host (panel),
                         tl_kernel_panel_get_device (panel));
  update_actions (self);
}

static void
devices_changed_cb (TlSession *session, TlWindow *self)
{
  GArray *gpus = tl_session_get_gpus (session);

  tl_kernel_panel_set_gpus (TL_KERNEL_PANEL (self->kernel_panel), gpus);
  if (gpus->len == 0)
    {
      /* what it means and what to do, in words; CUDA's own reason (a
       * driver older than the runtime, a build without CUDA) for those who
       * want it, in the tooltip and on the Device page */
      const char *why = tl_session_get_no_gpu_reason (session);
      g_autofree char *details = g_strdup_printf (_("Why: %s"), why ? why : _("no CUDA device was found"));
      gtk_label_set_text (GTK_LABEL (self->gpu_label),
                          _("No NVIDIA GPU can be used on this computer, so the kernels run on the CPU — "
                            "every view still works. For GPU results, add a GPU machine under Hosts… "
                            "(beside Run on), or open a record made on one (Ctrl+J)."));
      gtk_widget_set_tooltip_text (self->gpu_label, details);
      gtk_info_bar_set_revealed (GTK_INFO_BAR (self->gpu_bar), TRUE);
    }
  tl_kernel_panel_tick_defaults (TL_KERNEL_PANEL (self->kernel_panel),
                                 gpus->len > 0 ? &g_array_index (gpus, TlGpuFacts, 0) : NULL);
  update_actions (self);
}

/* a record opens on the first view that has something to show */
static void
record_opened_cb (TlSession *session, gboolean has_gemm, gboolean has_lu, TlWindow *self)
{
  tl_page_stack_show_first_with_content (TL_PAGE_STACK (self->view_stack));
  page_records_cb (TL_PAGE_STACK (self->view_stack), self);
}

/* CUDA and the device probe stay off the path to the first frame */
static gboolean
first_draw_cb (GtkWidget *widget, cairo_t *cr, TlWindow *self)
{
  g_signal_handlers_disconnect_by_func (widget, first_draw_cb, self);
  g_idle_add_once ((GSourceOnceFunc) tl_session_probe_devices, self->session);
  return FALSE;
}

/* ---- how the views look: presentation and contrast ------------------------------- */

/* The view fills the screen: no header bar, sidebar, banner or page
 * toolbars (F5, F11 or Escape leave; the keys keep working); what stays,
 * the status bar among it, is a size larger. */
static void
apply_look (TlWindow *self)
{
  gboolean on = self->presentation, hc = tl_presentation_high_contrast (GTK_WIDGET (self), self->high_contrast);
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (self));
  g_autoptr (GVariant) sidebar = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (self), "sidebar"));

  if (titlebar)
    gtk_widget_set_visible (titlebar, !on);
  gtk_widget_set_visible (self->sidebar, !on && g_variant_get_boolean (sidebar));
  gtk_widget_set_visible (self->gpu_bar, !on);
  /* the type is half as large again when presenting: the page's hint and
   * the hover facts wrap at word ends beside the status message, never
   * cut ("Fai clic su una barra per i det…" read as a broken sentence) */
  gtk_label_set_width_chars (GTK_LABEL (self->hover_label), on ? -1 : 30);
  gtk_label_set_max_width_chars (GTK_LABEL (self->hover_label), on ? -1 : 60);
  gtk_label_set_line_wrap (GTK_LABEL (self->hover_label), on);
  gtk_label_set_ellipsize (GTK_LABEL (self->hover_label), on ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  tl_page_stack_set_presentation (TL_PAGE_STACK (self->view_stack), on, hc);
  tl_presentation_mark (GTK_WIDGET (self), on, hc);
  update_actions (self);
  show_hover_text (self);
}

static void
theme_changed_cb (GtkSettings *settings, GParamSpec *pspec, TlWindow *self)
{
  apply_look (self);
}

/* ---- what a run uses ---------------------------------------------------------- */

static void
run_settings (TlWindow *self, TlRunSettings *settings, GStrv kernels)
{
  settings->kernels = (const char *const *) kernels;
  settings->dtype = tl_kernel_panel_get_dtype (TL_KERNEL_PANEL (self->kernel_panel));
  settings->repeats = tl_kernel_panel_get_repeats (TL_KERNEL_PANEL (self->kernel_panel));
  settings->device = tl_kernel_panel_get_device (TL_KERNEL_PANEL (self->kernel_panel));
  settings->counters = tl_kernel_panel_get_counters (TL_KERNEL_PANEL (self->kernel_panel));
  settings->host = tl_kernel_panel_get_host (TL_KERNEL_PANEL (self->kernel_panel));
}

/* ---- actions ------------------------------------------------------------------ */

static void
open_a_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_file_dialogs_open (GTK_WINDOW (self), TL_WINDOW (self)->session, TL_TARGET_A);
}

static void
open_b_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_file_dialogs_open (GTK_WINDOW (self), TL_WINDOW (self)->session, TL_TARGET_B);
}

static void
open_run_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_file_dialogs_open (GTK_WINDOW (self), TL_WINDOW (self)->session, 0);
}

static void
open_kernel_chosen (GtkWindow *window, GFile *file)
{
  tl_window_open_files (TL_WINDOW (window), &file, 1);
}

static void
open_kernel_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_file_dialogs_open_kernel (GTK_WINDOW (self), open_kernel_chosen);
}

static void
generate_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  guint targets = p ? (guint) g_variant_get_int32 (p) : TL_TARGET_A | TL_TARGET_B;
  tl_file_dialogs_generate (GTK_WINDOW (self), self->session, targets);
}

static void
run_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_run (self);
}

static void
cancel_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_cancel (self);
}

static void
sweep_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_run_sweep (self);
}

/* what Export draws: the page on show, or for a page without a picture of
 * its own the first page that has one (Matrices' C, else Compare's bars) */
static TlExport *
new_export (TlWindow *self)
{
  TlPageStack *pages = TL_PAGE_STACK (self->view_stack);
  return tl_export_new (self->session, tl_page_stack_get_page (pages), tl_page_stack_get_export_fallback (pages),
                        self->presentation);
}

static void
export_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  tl_file_dialogs_export (GTK_WINDOW (self), new_export (self));
}

static void
presentation_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_set_presentation (self, !TL_WINDOW (self)->presentation);
}

static void
set_high_contrast (TlWindow *self, gboolean on)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "high-contrast");
  self->high_contrast = on;
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
  tl_presentation_set_contrast_theme (GTK_WIDGET (self), on);
  apply_look (self);
}

/* Ctrl+H in any window of the app, or the next start: all follow the setting */
static void
contrast_setting_cb (GSettings *settings, const char *key, TlWindow *self)
{
  set_high_contrast (self, g_settings_get_boolean (settings, key));
}

static void
high_contrast_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  if (self->settings)
    g_settings_set_boolean (self->settings, "high-contrast", !self->high_contrast);
  else
    set_high_contrast (self, !self->high_contrast);
}

static void
sidebar_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  g_autoptr (GVariant) state = g_action_get_state (G_ACTION (a));
  g_simple_action_set_state (a, g_variant_new_boolean (!g_variant_get_boolean (state)));
  apply_look (self);
}

/* other machines to run on (the Run on list follows the setting) */
static void
hosts_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  GtkWidget *dialog = tl_hosts_dialog_new (GTK_WINDOW (self), self->settings);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (dialog);
}

static void
hosts_changed_cb (TlSession *session, TlWindow *self)
{
  tl_kernel_panel_set_hosts (TL_KERNEL_PANEL (self->kernel_panel), session);
}

/* F10 */
static void
menu_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  GtkToggleButton *button = GTK_TOGGLE_BUTTON (self->menu_button);
  gtk_toggle_button_set_active (button, !gtk_toggle_button_get_active (button));
}

static void
view_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_show_view (self, g_variant_get_string (p, NULL));
}

static void open_recent_action (GSimpleAction *a, GVariant *p, gpointer self);

static const GActionEntry win_entries[] = {
  { "open-a", open_a_action },
  { "open-b", open_b_action },
  { "open-run", open_run_action },
  { "open-kernel", open_kernel_action },
  { "generate", generate_action, "i" },
  { "run", run_action },
  { "cancel", cancel_action },
  { "sweep", sweep_action },
  { "presentation", presentation_action },
  { "export", export_action },
  { "high-contrast", high_contrast_action, NULL, "false" },
  { "view", view_action, "s" },
  { "sidebar", sidebar_action, NULL, "true" },
  { "menu", menu_action },
  { "hosts", hosts_action },
  { "open-recent", open_recent_action, "s" },
};

/* ---- input: keys, drops, linked views ----------------------------------------- */

/* the shown page's keys (the Gauss player's, a clicker's Page Up/Down) */
static gboolean
key_press_cb (GtkWidget *widget, GdkEventKey *event, TlWindow *self)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

  /* typing, also in the Source page's editor of a user's kernel */
  if (focus && (GTK_IS_EDITABLE (focus)
                || (GTK_IS_TEXT_VIEW (focus) && gtk_text_view_get_editable (GTK_TEXT_VIEW (focus)))))
    return FALSE;
  if (self->presentation && event->keyval == GDK_KEY_Escape)
    {
      tl_window_set_presentation (self, FALSE);
      return TRUE;
    }
  return tl_page_stack_key (TL_PAGE_STACK (self->view_stack), event->keyval, event->state, self->presentation);
}

static void
drag_data_received_cb (GtkWidget *widget, GdkDragContext *context, int x, int y,
                       GtkSelectionData *data, guint info, guint time, TlWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; uris && uris[i]; i++)
    g_ptr_array_add (files, g_file_new_for_uri (uris[i]));
  if (files->len)
    tl_window_open_files (self, (GFile **) files->pdata, (int) files->len);
  gtk_drag_finish (context, files->len > 0, FALSE, time);
}

/* ---- construction -------------------------------------------------------------- */

/* ---- recent files (GtkRecentManager: shared with the desktop) ---------------------- */

/* the Open menu's last files this app opened */
static void
update_recent_menu (GtkRecentManager *manager, TlWindow *self)
{
  tl_recent_menu_fill (self->recent_section, "win.open-recent", 6);
}

static void
open_recent_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (p, NULL));
  tl_window_open_files (self, &file, 1);
}

/* ---- remembered between launches ------------------------------------------------ */

static void
restore_settings (TlWindow *self)
{
  GSettings *settings = self->settings;
  g_autofree char *view = g_settings_get_string (settings, "last-view");

  tl_window_size_restore (GTK_WINDOW (self), settings);
  g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "sidebar")),
                             g_variant_new_boolean (g_settings_get_boolean (settings, "sidebar")));
  tl_window_show_view (self, view);
  g_settings_bind (settings, "last-view", self->view_stack, "visible-child-name", G_SETTINGS_BIND_SET);
  tl_page_stack_bind_settings (TL_PAGE_STACK (self->view_stack), settings);
  tl_kernel_panel_bind_settings (TL_KERNEL_PANEL (self->kernel_panel), settings);
}

static void
save_settings (TlWindow *self)
{
  g_autoptr (GVariant) sidebar = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (self), "sidebar"));
  tl_window_size_save (&self->size, self->settings);
  g_settings_set_boolean (self->settings, "sidebar", g_variant_get_boolean (sidebar));
}

static void
connect_session (TlWindow *self)
{
  g_signal_connect (self->session, "message", G_CALLBACK (message_cb), self);
  g_signal_connect (self->session, "progress", G_CALLBACK (progress_cb), self);
  g_signal_connect (self->session, "status", G_CALLBACK (status_cb), self);
  g_signal_connect (self->session, "state-changed", G_CALLBACK (state_changed_cb), self);
  g_signal_connect (self->session, "devices-changed", G_CALLBACK (devices_changed_cb), self);
  g_signal_connect (self->session, "hosts-changed", G_CALLBACK (hosts_changed_cb), self);
  g_signal_connect (self->session, "record-opened", G_CALLBACK (record_opened_cb), self);

  tl_sources_panel_set_session (TL_SOURCES_PANEL (self->sources_panel), self->session);
}

/* every page: the session, the actions it brings, and what it says */
static void
connect_pages (TlWindow *self)
{
  tl_page_stack_set_session (TL_PAGE_STACK (self->view_stack), self->session, G_ACTION_MAP (self));
  g_signal_connect (self->view_stack, "hover-text", G_CALLBACK (hover_text_cb), self);
  g_signal_connect (self->view_stack, "records-changed", G_CALLBACK (page_records_cb), self);
}

static void
tl_window_dispose (GObject *object)
{
  TlWindow *self = TL_WINDOW (object);

  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->settings)
    save_settings (self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->news, g_free);
  if (self->inhibit_cookie && gtk_window_get_application (GTK_WINDOW (self)))
    gtk_application_uninhibit (gtk_window_get_application (GTK_WINDOW (self)), self->inhibit_cookie);
  self->inhibit_cookie = 0;
  G_OBJECT_CLASS (tl_window_parent_class)->dispose (object);
}

static void
tl_window_class_init (TlWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_window_dispose;

  g_type_ensure (TL_TYPE_SOURCES_PANEL);
  g_type_ensure (TL_TYPE_KERNEL_PANEL);
  g_type_ensure (TL_TYPE_PAGE_STACK);
  tl_pages_ensure_types ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, TlWindow, name)
  CHILD (recent_section);
  CHILD (menu_button);
  CHILD (run_stack);
  CHILD (run_button);
  CHILD (cancel_button);
  CHILD (gpu_bar);
  CHILD (gpu_label);
  CHILD (info_bar);
  CHILD (info_label);
  CHILD (sidebar);
  CHILD (sources_panel);
  CHILD (kernel_panel);
  CHILD (view_stack);
  CHILD (hover_label);
  CHILD (hover_separator);
  CHILD (progress_bar);
  CHILD (last_label);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, kernels_changed_cb);
}

static void
tl_window_init (TlWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);

  self->session = tl_session_new ();
  connect_session (self);
  connect_pages (self);

  self->settings = tl_settings_new_if_installed ();
  if (self->settings)
    {
      restore_settings (self);
      tl_session_watch_hosts (self->session, self->settings);
      g_signal_connect_object (self->settings, "changed::high-contrast", G_CALLBACK (contrast_setting_cb), self, 0);
      contrast_setting_cb (self->settings, "high-contrast", self);
    }
  else
    tl_window_size_fit (GTK_WINDOW (self));
  tl_window_size_track (&self->size, GTK_WINDOW (self));
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (update_recent_menu), self, 0);
  update_recent_menu (gtk_recent_manager_get_default (), self);

  g_signal_connect (self, "key-press-event", G_CALLBACK (key_press_cb), self);
  static const GtkTargetEntry targets[] = { { (char *) "text/uri-list", 0, 0 } };
  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, targets, 1, GDK_ACTION_COPY);
  g_signal_connect (self, "drag-data-received", G_CALLBACK (drag_data_received_cb), self);
  g_signal_connect_after (self, "draw", G_CALLBACK (first_draw_cb), self);
  g_signal_connect_object (gtk_widget_get_settings (GTK_WIDGET (self)), "notify::gtk-theme-name",
                           G_CALLBACK (theme_changed_cb), self, 0);
  apply_look (self);
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));
  tl_switcher_fit_follow (GTK_WINDOW (self),
                          GTK_STACK_SWITCHER (gtk_header_bar_get_custom_title (GTK_HEADER_BAR (header))));

  tl_kernel_panel_tick_defaults (TL_KERNEL_PANEL (self->kernel_panel), NULL);
  update_actions (self);
}

TlWindow *
tl_window_new (GtkApplication *app)
{
  TlWindow *self = g_object_new (TL_TYPE_WINDOW, "application", app, NULL);
  /* the application gives the window its shortcuts window as it joins */
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));
  if (overlay != NULL)
    tl_help_overlay_wrap (overlay);
  return self;
}

/* ---- entry points ---------------------------------------------------------------- */

/* A user's kernel opened: listed under "Yours", ticked, shown in Source. */
static void
kernel_opened_cb (GObject *session, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (TlWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  const TlKernelInfo *info = tl_session_open_kernel_finish (TL_SESSION (session), result, &error);
  if (info == NULL)
    {
      tl_session_report_error (self->session, _("Opening a kernel"), error);
      return;
    }
  tl_kernel_panel_add_user_kernels (TL_KERNEL_PANEL (self->kernel_panel));
  tl_page_stack_show_kernel (TL_PAGE_STACK (self->view_stack), info->id);
  tl_window_show_view (self, "source");
}

void
tl_window_open_files (TlWindow *self, GFile **files, int n_files)
{
  g_return_if_fail (TL_IS_WINDOW (self));

  guint next = 0;
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *base = g_file_get_basename (files[i]);
      if (base && g_str_has_suffix (base, ".json"))
        {
          tl_session_open_record (self->session, files[i]);
          continue;
        }
      if (base && g_str_has_suffix (base, ".cu"))
        {
          tl_session_open_kernel (self->session, files[i], kernel_opened_cb, g_object_ref (self));
          continue;
        }
      guint target;
      if (n_files == 1)
        target = tl_session_get_source (self->session, 0) == NULL || tl_session_get_source (self->session, 1) != NULL
                   ? TL_TARGET_A : TL_TARGET_B;
      else
        target = next++ == 0 ? TL_TARGET_A : TL_TARGET_B;
      tl_session_load_source (self->session, target, files[i]);
    }
}

void
tl_window_load_source (TlWindow *self, guint target, GFile *file)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_session_load_source (self->session, target, file);
}

void
tl_window_generate (TlWindow *self, guint targets, const char *spec, gsize rows, gsize cols,
                    TlDtype dtype, guint64 seed)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_session_generate (self->session, targets, spec, rows, cols, dtype, seed);
}

gboolean
tl_window_generate_from_option (TlWindow *self, const char *spec_n, GError **error)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  return tl_session_generate_from_option (self->session, spec_n,
                                          tl_kernel_panel_get_dtype (TL_KERNEL_PANEL (self->kernel_panel)), error);
}

void
tl_window_open_record (TlWindow *self, GFile *file)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_session_open_record (self->session, file);
}

void
tl_window_set_kernel_active (TlWindow *self, const char *kernel_id, gboolean active)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_kernel_panel_set_active (TL_KERNEL_PANEL (self->kernel_panel), kernel_id, active);
}

char **
tl_window_get_active_kernels (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return tl_kernel_panel_get_active (TL_KERNEL_PANEL (self->kernel_panel));
}

gboolean
tl_window_run (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  /* the pages ready what a run uses (an edited user kernel becomes a new
   * version, run beside the one before) */
  g_autoptr (GError) error = NULL;
  if (!tl_page_stack_prepare_run (TL_PAGE_STACK (self->view_stack), &error))
    {
      tl_session_report_error (self->session, _("Reading your kernel"), error);
      return FALSE;
    }
  tl_kernel_panel_add_user_kernels (TL_KERNEL_PANEL (self->kernel_panel));
  g_auto (GStrv) kernels = tl_window_get_active_kernels (self);
  TlRunSettings settings;
  run_settings (self, &settings, kernels);
  return tl_session_run (self->session, &settings);
}

void
tl_window_run_sweep (TlWindow *self)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  g_auto (GStrv) kernels = tl_window_get_active_kernels (self);
  TlRunSettings settings;
  run_settings (self, &settings, kernels);
  tl_session_run_sweep (self->session, &settings);
}

void
tl_window_cancel (TlWindow *self)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_session_cancel (self->session);
}

TlMatrix *
tl_window_get_source (TlWindow *self, guint target)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return tl_session_get_source (self->session, target == TL_TARGET_B ? 1 : 0);
}

const char *
tl_window_get_info_message (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  if (!gtk_info_bar_get_revealed (GTK_INFO_BAR (self->info_bar)))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->info_label));
}

const char *
tl_window_get_hover_text (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->hover_label));
}

gboolean
tl_window_is_running (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  return tl_session_is_running (self->session);
}

gboolean
tl_window_is_busy (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  /* until the GPUs are known the kernel list may still change */
  return tl_session_is_busy (self->session) || !tl_session_devices_known (self->session);
}

guint
tl_window_get_n_live_results (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), 0);
  return tl_session_get_n_live_results (self->session);
}

const TlRunRecord *
tl_window_get_record (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return tl_session_get_record (self->session);
}

void
tl_window_show_view (TlWindow *self, const char *name)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (GTK_STACK (self->view_stack), name);
}

void
tl_window_report (TlWindow *self, GtkMessageType type, const char *text)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_session_report (self->session, type, text);
}

GtkWidget *
tl_window_get_page (TlWindow *self, const char *name)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return gtk_stack_get_child_by_name (GTK_STACK (self->view_stack), name);
}

TlSession *
tl_window_get_session (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return self->session;
}

void
tl_window_set_presentation (TlWindow *self, gboolean on)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  self->presentation = on;
  self->size.held = on;
  apply_look (self);
  tl_presentation_hold_screen (GTK_WINDOW (self), on, &self->inhibit_cookie);
}

void
tl_window_export_async (TlWindow *self, GFile *file, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_export_write_as_async (new_export (self), self, file, cancellable, callback, user_data);
}

gboolean
tl_window_export_finish (TlWindow *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
