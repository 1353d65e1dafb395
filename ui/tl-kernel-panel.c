/* tl-kernel-panel.c — the kernel list, the data type and the repeats. */
#include "tl-kernel-panel.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "gemm/tl-kernels.h"
#include "gemm/tl-user-kernel.h"
#include "view/tl-compare-bars.h"
#include "record/tl-record.h"
#include "tl-ui-util.h"

struct _TlKernelPanel
{
  GtkBox parent_instance;

  GtkWidget *backend_combo;
  GtkWidget *kernel_list;
  GtkWidget *dtype_combo;
  GtkWidget *repeats_spin;
  GtkWidget *counters_check;
  GSettings *settings;       /* remembers the ticks; may be NULL */
  GArray *gpus;              /* this computer's (TlGpuFacts) */
  TlSession *hosts_session;  /* whose hosts are offered (not a reference) */
};

G_DEFINE_FINAL_TYPE (TlKernelPanel, tl_kernel_panel, GTK_TYPE_BOX)

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
changed (TlKernelPanel *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
update_sensitivity (TlKernelPanel *self)
{
  TlDtype dtype = tl_kernel_panel_get_dtype (self);
  gboolean cpu_only = tl_kernel_panel_is_cpu (self);
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      GtkWidget *check = g_object_get_data (l->data, "check");
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      gboolean ok = tl_kernel_supports (info, dtype) && !(cpu_only && info->backend == TL_BACKEND_GPU);
      gtk_widget_set_sensitive (check, ok);
    }
}

/* every ticked kernel, whether it can run now or not */
static void
save_ticks (TlKernelPanel *self)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    if (gtk_toggle_button_get_active (g_object_get_data (l->data, "check")))
      g_strv_builder_add (b, ((const TlKernelInfo *) g_object_get_data (l->data, "info"))->id);
  g_auto (GStrv) ids = g_strv_builder_end (b);
  g_settings_set_strv (self->settings, "kernels", (const char *const *) ids);
}

static void
kernel_toggled_cb (GtkToggleButton *button, TlKernelPanel *self)
{
  if (self->settings)
    save_ticks (self);
  changed (self);
}

static void
backend_changed_cb (GtkComboBox *combo, TlKernelPanel *self)
{
  update_sensitivity (self);
  changed (self);
}

static void
dtype_changed_cb (GtkComboBox *combo, TlKernelPanel *self)
{
  update_sensitivity (self);
  changed (self);
}

/* one row: "03 shared memory 16×16  GPU" over its lesson */
static GtkWidget *
kernel_row_new (TlKernelPanel *self, const TlKernelInfo *info)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *label = tl_kernel_display_name (info, info->id);
  const char *lesson = info->lesson && *info->lesson ? _(info->lesson) : "";
  g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>  <small>%s</small>", label,
                                                           info->backend == TL_BACKEND_CPU ? "CPU" : "GPU");
  g_autofree char *lesson_markup = info->seed && *info->seed
    ? g_markup_printf_escaped (_("%s <i>(seed %s)</i>"), lesson, info->seed)
    : g_markup_printf_escaped ("%s", lesson);
  GtkWidget *t = gtk_label_new (NULL);
  GtkWidget *l = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (t), title_markup);
  gtk_label_set_xalign (GTK_LABEL (t), 0);
  gtk_label_set_line_wrap (GTK_LABEL (t), TRUE);
  gtk_label_set_markup (GTK_LABEL (l), lesson_markup);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_line_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (l), 40);
  gtk_style_context_add_class (gtk_widget_get_style_context (l), "lesson");
  gtk_box_pack_start (GTK_BOX (box), t, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), l, FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (check), box);
  gtk_widget_set_tooltip_text (check, info->id);
  gtk_container_add (GTK_CONTAINER (row), check);
  g_object_set_data (G_OBJECT (row), "check", check);
  g_object_set_data (G_OBJECT (row), "info", (gpointer) info);
  g_signal_connect (check, "toggled", G_CALLBACK (kernel_toggled_cb), self);
  gtk_widget_show_all (row);
  return row;
}

/* "Yours" above the first of the user's kernels (they come after the ladder) */
static void
header_cb (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  const TlKernelInfo *info = g_object_get_data (G_OBJECT (row), "info");
  const TlKernelInfo *prev = before ? g_object_get_data (G_OBJECT (before), "info") : NULL;
  gboolean first_user = tl_user_kernel_of (info) != NULL && (prev == NULL || tl_user_kernel_of (prev) == NULL);
  if (!first_user)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  if (gtk_list_box_row_get_header (row) != NULL)
    return;
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", _("Yours"));
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_top (label, 8);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_show (label);
  gtk_list_box_row_set_header (row, label);
}

void
tl_kernel_panel_add_kernel (TlKernelPanel *self, const TlKernelInfo *info)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self) && info != NULL);
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    if (g_object_get_data (l->data, "info") == info)
      return;
  gtk_container_add (GTK_CONTAINER (self->kernel_list), kernel_row_new (self, info));
  update_sensitivity (self);
}

void
tl_kernel_panel_add_user_kernels (TlKernelPanel *self)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  g_autoptr (GPtrArray) yours = tl_user_kernel_list ();
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (guint i = 0; i < yours->len; i++)
    {
      const TlKernelInfo *info = yours->pdata[i];
      gboolean listed = FALSE;
      for (GList *l = rows; l && !listed; l = l->next)
        listed = g_object_get_data (l->data, "info") == info;
      if (listed)
        continue;
      tl_kernel_panel_add_kernel (self, info);
      tl_kernel_panel_set_active (self, info->id, TRUE);
    }
}

void
tl_kernel_panel_set_active (TlKernelPanel *self, const char *kernel_id, gboolean active)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      if (g_strcmp0 (info->id, kernel_id) == 0)
        gtk_toggle_button_set_active (g_object_get_data (l->data, "check"), active);
    }
}

char **
tl_kernel_panel_get_active (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), NULL);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      GtkWidget *check = g_object_get_data (l->data, "check");
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      if (gtk_widget_get_sensitive (check) && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)))
        g_strv_builder_add (b, info->id);
    }
  return g_strv_builder_end (b);
}

void
tl_kernel_panel_tick_defaults (TlKernelPanel *self, const TlGpuFacts *gpu)
{
  const gboolean have_gpu = gpu != NULL;
  const TlKernelInfo *lowest = NULL, *highest = NULL;

  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  g_auto (GStrv) saved = self->settings ? g_settings_get_strv (self->settings, "kernels") : NULL;
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      gtk_toggle_button_set_active (g_object_get_data (l->data, "check"),
                                    saved && g_strv_contains ((const char *const *) saved, info->id));
    }
  if (saved && saved[0])
    return;

  /* the baseline always; without a GPU every CPU kernel, with one the
   * lowest and highest rungs it runs (the rows' min_cc) and their yardstick */
  const TlKernelInfo *baseline = tl_kernel_baseline ();
  if (baseline)
    tl_kernel_panel_set_active (self, baseline->id, TRUE);
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *info = tl_kernel_get (i);
      if (!tl_kernel_supports (info, TL_DTYPE_FLOAT32))
        continue;
      if (!have_gpu && info->backend == TL_BACKEND_CPU)
        tl_kernel_panel_set_active (self, info->id, TRUE);
      if (!have_gpu || info->backend != TL_BACKEND_GPU || info->reference
          || !tl_kernel_runs_on (info, gpu->cc_major, gpu->cc_minor))
        continue;
      if (lowest == NULL || info->number < lowest->number)
        lowest = info;
      if (highest == NULL || info->number > highest->number)
        highest = info;
    }
  if (lowest)
    tl_kernel_panel_set_active (self, lowest->id, TRUE);
  if (highest)
    tl_kernel_panel_set_active (self, highest->id, TRUE);
  const TlKernelInfo *yardstick = lowest ? tl_kernel_reference (lowest, TL_DTYPE_FLOAT32) : NULL;
  if (yardstick)
    tl_kernel_panel_set_active (self, yardstick->id, TRUE);
}

/* "login1: a GPU through srun (asked for when it runs)": the launcher by
 * its program, past `env` and its VAR=value words */
static char *
launcher_choice (const char *host, const char *launcher)
{
  g_auto (GStrv) words = NULL;
  const char *program = launcher;
  if (g_shell_parse_argv (launcher, NULL, &words, NULL))
    for (guint i = 0; words[i]; i++)
      if (strcmp (words[i], "env") != 0 && strchr (words[i], '=') == NULL)
        {
          program = words[i];
          break;
        }
  g_autofree char *name = g_path_get_basename (program);
  /* TRANSLATORS: "login1: a GPU through srun (asked for when it runs)" */
  return g_strdup_printf (_("%s: a GPU through %s (asked for when it runs)"), host, name);
}

/* Choice ids: "gpuN" and "cpu" here; "hH:gpuN" and "hH:cpu" on host H. */
static void
append_host_choices (TlKernelPanel *self, GtkComboBoxText *combo)
{
  TlSession *session = self->hosts_session;
  for (guint h = 0; session && h < tl_session_get_n_hosts (session); h++)
    {
      const TlRemoteTarget *t = tl_session_get_host_target (session, h);
      const TlRemoteDevices *d = tl_session_get_host_devices (session, h);
      const char *host = t->destination;
      if (d == NULL)
        {
          g_autofree char *id = g_strdup_printf ("h%u:gpu0", h);
          const char *error = tl_session_get_host_error (session, h);
          /* TRANSLATORS: %s is a host name (an ssh destination) */
          g_autofree char *text = tl_session_host_is_probing (session, h)
                                    ? g_strdup_printf (_("%s: connecting…"), host)
                                  : error ? g_strdup_printf (_("%s: not reachable (Hosts… says why)"), host)
                                  : t->launcher ? launcher_choice (host, t->launcher)
                                                : g_strdup_printf (_("%s: GPU 0"), host);
          gtk_combo_box_text_append (combo, id, text);
          continue;
        }
      for (guint i = 0; i < d->gpus->len; i++)
        {
          const TlGpuFacts *f = &g_array_index (d->gpus, TlGpuFacts, i);
          g_autofree char *id = g_strdup_printf ("h%u:gpu%d", h, f->ordinal);
          /* TRANSLATORS: "gpu1: GPU 0: NVIDIA H200" — a host, a GPU's ordinal and name */
          g_autofree char *text = g_strdup_printf (_("%s: GPU %d: %s"), host, f->ordinal, f->name);
          gtk_combo_box_text_append (combo, id, text);
        }
      g_autofree char *id = g_strdup_printf ("h%u:cpu", h);
      g_autofree char *text = g_strdup_printf (_("%s: CPU (%u cores)"), host, d->machine.cores);
      gtk_combo_box_text_append (combo, id, text);
    }
}

static void
rebuild_choices (TlKernelPanel *self)
{
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (self->backend_combo);
  g_autofree char *chosen = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)));

  g_signal_handlers_block_by_func (combo, backend_changed_cb, self);
  gtk_combo_box_text_remove_all (combo);
  for (guint i = 0; self->gpus && i < self->gpus->len; i++)
    {
      TlGpuFacts *f = &g_array_index (self->gpus, TlGpuFacts, i);
      g_autofree char *id = g_strdup_printf ("gpu%d", f->ordinal);
      g_autofree char *text = g_strdup_printf (_("GPU %d: %s"), f->ordinal, f->name);
      gtk_combo_box_text_append (combo, id, text);
    }
  gboolean hosts = self->hosts_session && tl_session_get_n_hosts (self->hosts_session) > 0;
  /* with other machines on the list, this one says so */
  gtk_combo_box_text_append (combo, "cpu", hosts ? _("CPU (this computer)") : _("CPU"));
  append_host_choices (self, combo);
  /* the same choice as before when it is still there */
  if (chosen == NULL || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), chosen))
    gtk_combo_box_set_active (GTK_COMBO_BOX (combo), 0);
  g_signal_handlers_unblock_by_func (combo, backend_changed_cb, self);
  backend_changed_cb (GTK_COMBO_BOX (combo), self);
}

void
tl_kernel_panel_set_gpus (TlKernelPanel *self, GArray *gpus)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  g_clear_pointer (&self->gpus, g_array_unref);
  self->gpus = gpus ? g_array_ref (gpus) : NULL;
  /* this computer's first GPU (or its CPU) is chosen */
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->backend_combo), -1);
  rebuild_choices (self);
}

void
tl_kernel_panel_set_hosts (TlKernelPanel *self, TlSession *session)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  self->hosts_session = session;
  rebuild_choices (self);
}

/* The chosen choice's host (-1: here) and the rest of its id. */
static int
parse_choice (TlKernelPanel *self, const char **rest)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->backend_combo));
  *rest = id;
  if (id == NULL || id[0] != 'h')
    return -1;
  char *end = NULL;
  guint64 host = g_ascii_strtoull (id + 1, &end, 10);
  *rest = end && *end == ':' ? end + 1 : NULL;
  return (int) host;
}

int
tl_kernel_panel_get_device (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), 0);
  const char *id = NULL;
  parse_choice (self, &id);
  return id && g_str_has_prefix (id, "gpu") ? atoi (id + 3) : 0;
}

int
tl_kernel_panel_get_host (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), -1);
  const char *rest = NULL;
  return parse_choice (self, &rest);
}

gboolean
tl_kernel_panel_is_cpu (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), TRUE);
  const char *id = NULL;
  parse_choice (self, &id);
  return id == NULL || g_strcmp0 (id, "cpu") == 0;
}

TlDtype
tl_kernel_panel_get_dtype (TlKernelPanel *self)
{
  TlDtype dtype = TL_DTYPE_FLOAT32;
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), dtype);
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &dtype);
  return dtype;
}

guint
tl_kernel_panel_get_repeats (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), 1);
  return (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->repeats_spin));
}

gboolean
tl_kernel_panel_get_counters (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), FALSE);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->counters_check));
}

void
tl_kernel_panel_bind_settings (TlKernelPanel *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  g_set_object (&self->settings, settings);
  g_settings_bind (settings, "repeats", self->repeats_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "dtype", self->dtype_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
}

static void
tl_kernel_panel_dispose (GObject *object)
{
  g_clear_object (&TL_KERNEL_PANEL (object)->settings);
  g_clear_pointer (&TL_KERNEL_PANEL (object)->gpus, g_array_unref);
  G_OBJECT_CLASS (tl_kernel_panel_parent_class)->dispose (object);
}

static void
tl_kernel_panel_class_init (TlKernelPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_kernel_panel_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-kernel-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TlKernelPanel, backend_combo);
  gtk_widget_class_bind_template_child (widget_class, TlKernelPanel, kernel_list);
  gtk_widget_class_bind_template_child (widget_class, TlKernelPanel, dtype_combo);
  gtk_widget_class_bind_template_child (widget_class, TlKernelPanel, repeats_spin);
  gtk_widget_class_bind_template_child (widget_class, TlKernelPanel, counters_check);
  gtk_widget_class_bind_template_callback (widget_class, dtype_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, backend_changed_cb);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                          NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tl_kernel_panel_init (TlKernelPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_header_func (GTK_LIST_BOX (self->kernel_list), header_cb, NULL, NULL);
  for (guint i = 0; i < tl_kernel_count (); i++)
    gtk_container_add (GTK_CONTAINER (self->kernel_list), kernel_row_new (self, tl_kernel_get (i)));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->dtype_combo), "float32");
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->backend_combo), 10);
  tl_kernel_panel_set_gpus (self, NULL);
}
