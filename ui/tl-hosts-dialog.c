/* tl-hosts-dialog.c — the machines to run on: add, test, remove. */
#include "tl-hosts-dialog.h"

#include <glib/gi18n-lib.h>

#include "remote/tl-remote-host.h"

struct _TlHostsDialog
{
  GtkDialog parent_instance;

  GtkWidget *hosts_list;
  GtkWidget *destination_entry;
  GtkWidget *launcher_entry;
  GtkWidget *cli_entry;
  GtkWidget *spinner;
  GtkWidget *status_label;
  GtkWidget *test_button;
  GtkWidget *add_button;
  GtkWidget *result_label;

  GSettings *settings;          /* may be NULL */
  TlRemoteHost *test_host;      /* the host being tested */
  GCancellable *test_cancellable;
};

G_DEFINE_FINAL_TYPE (TlHostsDialog, tl_hosts_dialog, GTK_TYPE_DIALOG)

/* ---- the form ------------------------------------------------------------------ */

static TlRemoteTarget *
form_target (TlHostsDialog *self)
{
  g_autofree char *destination = g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (self->destination_entry))));
  g_autofree char *launcher = g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (self->launcher_entry))));
  g_autofree char *cli = g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (self->cli_entry))));
  return tl_remote_target_new (destination, launcher, cli);
}

static void
show_result (TlHostsDialog *self, const char *text, gboolean is_error)
{
  GtkStyleContext *style = gtk_widget_get_style_context (self->result_label);
  if (is_error)
    gtk_style_context_add_class (style, "error");
  else
    gtk_style_context_remove_class (style, "error");
  if (text == NULL)
    {
      /* the space stays, so the dialog does not grow under the user */
      gtk_style_context_add_class (style, "dim-label");
      gtk_label_set_text (GTK_LABEL (self->result_label),
                          _("Test connects as a run does and shows the host's devices here."));
      return;
    }
  gtk_style_context_remove_class (style, "dim-label");
  gtk_label_set_text (GTK_LABEL (self->result_label), text);
}

static void
set_testing (TlHostsDialog *self, gboolean testing, const char *status)
{
  if (testing)
    gtk_spinner_start (GTK_SPINNER (self->spinner));
  else
    gtk_spinner_stop (GTK_SPINNER (self->spinner));
  gtk_label_set_text (GTK_LABEL (self->status_label), status ? status : "");
  gtk_widget_set_sensitive (self->test_button, !testing);
}

static void
form_changed_cb (GtkEditable *editable, TlHostsDialog *self)
{
  g_autoptr (TlRemoteTarget) t = form_target (self);
  gboolean ok = t->destination != NULL && tl_remote_target_check (t, NULL);
  gtk_widget_set_sensitive (self->add_button, ok && self->settings != NULL);
  if (self->test_host == NULL)
    gtk_widget_set_sensitive (self->test_button, ok);
}

/* ---- testing ------------------------------------------------------------------- */

static gpointer
free_host_thread (gpointer data)
{
  tl_remote_host_free (data);
  return NULL;
}

static void
drop_test_host (TlHostsDialog *self)
{
  if (self->test_cancellable)
    g_cancellable_cancel (self->test_cancellable);
  g_clear_object (&self->test_cancellable);
  if (self->test_host)
    {
      g_signal_handlers_disconnect_by_data (tl_remote_host_get_runner (self->test_host), self);
      /* closing waits for the worker: not on the main loop */
      g_thread_unref (g_thread_new ("tl-host-close", free_host_thread, self->test_host));
      self->test_host = NULL;
    }
}

static char *
describe_devices (const TlRemoteTarget *t, const TlRemoteDevices *d)
{
  GString *s = g_string_new (NULL);
  /* TRANSLATORS: "gpu1 is node17: Debian GNU/Linux 12, AMD EPYC 9654, 192 cores" */
  g_string_append_printf (s, _("%s is %s: %s, %s, %u cores"), t->destination, d->machine.host_name,
                          d->machine.os, d->machine.cpu_model, d->machine.cores);
  for (guint i = 0; i < d->gpus->len; i++)
    {
      const TlGpuFacts *f = &g_array_index (d->gpus, TlGpuFacts, i);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("GPU %d: %s — compute capability %d.%d, %d SMs, %.1f GiB"),
                              f->ordinal, f->name, f->cc_major, f->cc_minor, f->sm_count,
                              f->total_mem_bytes / 1073741824.0);
    }
  if (d->gpus->len == 0)
    {
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("No CUDA GPU there — its CPU runs the kernels. (%s)"),
                              d->no_device ? d->no_device : "");
    }
  return g_string_free (s, FALSE);
}

static void
test_progress_cb (TlRunner *runner, const TlRunProgress *p, TlHostsDialog *self)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), p->stage);
}

static void
test_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlHostsDialog *self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRemoteDevices) devices = tl_runner_run_func_finish (TL_RUNNER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->test_host == NULL)
    {
      g_object_unref (self);
      return;
    }
  g_autofree char *text = devices ? describe_devices (tl_remote_host_get_target (self->test_host), devices)
                                  : g_strdup (error->message);
  show_result (self, text, devices == NULL);
  set_testing (self, FALSE, devices ? _("It works.") : NULL);
  drop_test_host (self);
  form_changed_cb (NULL, self);
  g_object_unref (self);
}

static void
test_clicked_cb (GtkButton *button, TlHostsDialog *self)
{
  g_autoptr (TlRemoteTarget) t = form_target (self);
  g_autoptr (GError) error = NULL;
  if (!tl_remote_target_check (t, &error))
    {
      show_result (self, error->message, TRUE);
      return;
    }
  drop_test_host (self);
  self->test_host = tl_remote_host_new (t);
  self->test_cancellable = g_cancellable_new ();
  g_signal_connect (tl_remote_host_get_runner (self->test_host), "progress",
                    G_CALLBACK (test_progress_cb), self);
  show_result (self, NULL, FALSE);
  g_autofree char *status = g_strdup_printf (_("connecting to %s"), t->destination);
  set_testing (self, TRUE, status);
  tl_remote_host_probe_async (self->test_host, self->test_cancellable, test_done_cb,
                              g_object_ref (self));
}

/* ---- the list -------------------------------------------------------------------- */

static void refresh_list (TlHostsDialog *self);

static void
remove_clicked_cb (GtkButton *button, TlHostsDialog *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  g_autoptr (GVariant) list = g_settings_get_value (self->settings, "hosts");
  GVariantBuilder b;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(sss)"));
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    if (i != index)
      g_variant_builder_add_value (&b, g_variant_get_child_value (list, i));
  g_settings_set_value (self->settings, "hosts", g_variant_builder_end (&b));
}

static GtkWidget *
host_row_new (TlHostsDialog *self, guint index, const char *destination, const char *launcher,
              const char *cli)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (destination);
  /* TRANSLATORS: how a host is reached: "through srun --gres=gpu:1 · tilelab-cli: /opt/…" */
  g_autofree char *through = *launcher ? g_strdup_printf (_("through %s"), launcher)
                                       : g_strdup (_("straight through ssh"));
  g_autofree char *details = g_strdup_printf (_("%s · tilelab-cli: %s"), through,
                                              *cli ? cli : _("on its PATH"));
  GtkWidget *sub = gtk_label_new (details);
  gtk_widget_set_tooltip_text (sub, details);
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic", GTK_ICON_SIZE_BUTTON);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (sub), 0);
  gtk_label_set_ellipsize (GTK_LABEL (sub), PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "heading");
  gtk_style_context_add_class (gtk_widget_get_style_context (sub), "dim-label");
  g_autofree char *tip = g_strdup_printf (_("Remove %s"), destination);
  gtk_widget_set_tooltip_text (remove, tip);
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (remove), "index", GUINT_TO_POINTER (index));
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked_cb), self);
  gtk_box_pack_start (GTK_BOX (text), title, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (text), sub, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), text, TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (box), remove, FALSE, FALSE, 0);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_show_all (box);
  return box;
}

static void
refresh_list (TlHostsDialog *self)
{
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->hosts_list));
  for (GList *l = rows; l; l = l->next)
    gtk_widget_destroy (l->data);
  if (self->settings == NULL)
    return;
  g_autoptr (GVariant) list = g_settings_get_value (self->settings, "hosts");
  GVariantIter it;
  const char *destination, *launcher, *cli;
  guint index = 0;
  g_variant_iter_init (&it, list);
  while (g_variant_iter_next (&it, "(&s&s&s)", &destination, &launcher, &cli))
    gtk_container_add (GTK_CONTAINER (self->hosts_list),
                       host_row_new (self, index++, destination, launcher, cli));
}

static void
hosts_changed_cb (GSettings *settings, const char *key, TlHostsDialog *self)
{
  refresh_list (self);
}

static void
add_clicked_cb (GtkButton *button, TlHostsDialog *self)
{
  g_autoptr (TlRemoteTarget) t = form_target (self);
  g_autoptr (GError) error = NULL;
  if (t->destination == NULL || !tl_remote_target_check (t, &error))
    {
      show_result (self, error ? error->message : _("Give the host's ssh destination."), TRUE);
      return;
    }
  g_autoptr (GVariant) list = g_settings_get_value (self->settings, "hosts");
  GVariantBuilder b;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(sss)"));
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    g_variant_builder_add_value (&b, g_variant_get_child_value (list, i));
  g_variant_builder_add (&b, "(sss)", t->destination, t->launcher ? t->launcher : "",
                         t->remote_cli ? t->remote_cli : "");
  g_settings_set_value (self->settings, "hosts", g_variant_builder_end (&b));
  gtk_entry_set_text (GTK_ENTRY (self->destination_entry), "");
  gtk_entry_set_text (GTK_ENTRY (self->launcher_entry), "");
  gtk_entry_set_text (GTK_ENTRY (self->cli_entry), "");
  show_result (self, NULL, FALSE);
  g_autofree char *status = g_strdup_printf (_("%s added: choose it under Run on."), t->destination);
  set_testing (self, FALSE, status);
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
tl_hosts_dialog_dispose (GObject *object)
{
  TlHostsDialog *self = TL_HOSTS_DIALOG (object);
  drop_test_host (self);
  if (self->settings)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (tl_hosts_dialog_parent_class)->dispose (object);
}

static void
tl_hosts_dialog_class_init (TlHostsDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = tl_hosts_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-hosts-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, hosts_list);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, destination_entry);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, launcher_entry);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, cli_entry);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, test_button);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, add_button);
  gtk_widget_class_bind_template_child (widget_class, TlHostsDialog, result_label);
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
}

static GtkWidget *
empty_list_label (void)
{
  GtkWidget *label = gtk_label_new (_("None yet: add one below. Runs go to this computer."));
  gtk_widget_set_margin_top (label, 10);
  gtk_widget_set_margin_bottom (label, 10);
  gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
  gtk_widget_show (label);
  return label;
}

static void
tl_hosts_dialog_init (TlHostsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_placeholder (GTK_LIST_BOX (self->hosts_list), empty_list_label ());
  gtk_widget_set_sensitive (self->add_button, FALSE);
  gtk_widget_set_sensitive (self->test_button, FALSE);
  show_result (self, NULL, FALSE);
  gtk_widget_grab_focus (self->destination_entry);
}

GtkWidget *
tl_hosts_dialog_new (GtkWindow *parent, GSettings *settings)
{
  TlHostsDialog *self = g_object_new (TL_TYPE_HOSTS_DIALOG, "transient-for", parent,
                                      "use-header-bar", TRUE, NULL);
  if (settings)
    {
      self->settings = g_object_ref (settings);
      g_signal_connect (settings, "changed::hosts", G_CALLBACK (hosts_changed_cb), self);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        _("Hosts cannot be kept: Tilelab's settings schema is not installed."));
  refresh_list (self);
  gtk_widget_grab_default (self->add_button);
  return GTK_WIDGET (self);
}
