/* tl-kernel-panel.c — the kernel list, the data type and the repeats. */
#include "tl-kernel-panel.h"

#include <glib/gi18n-lib.h>

#include "gemm/tl-kernels.h"
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
  g_autofree char *label = tl_kernel_display_name (info->id);
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
tl_kernel_panel_tick_defaults (TlKernelPanel *self, gboolean have_gpu)
{
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
   * lowest and highest rungs any recent GPU runs and their yardstick */
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
      if (!have_gpu || info->backend != TL_BACKEND_GPU || info->reference || info->min_cc > 80)
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

void
tl_kernel_panel_set_gpus (TlKernelPanel *self, GArray *gpus)
{
  g_return_if_fail (TL_IS_KERNEL_PANEL (self));
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (self->backend_combo);

  g_signal_handlers_block_by_func (combo, backend_changed_cb, self);
  gtk_combo_box_text_remove_all (combo);
  for (guint i = 0; gpus && i < gpus->len; i++)
    {
      TlGpuFacts *f = &g_array_index (gpus, TlGpuFacts, i);
      g_autofree char *id = g_strdup_printf ("gpu%d", f->ordinal);
      g_autofree char *text = g_strdup_printf (_("GPU %d: %s"), f->ordinal, f->name);
      gtk_combo_box_text_append (combo, id, text);
    }
  gtk_combo_box_text_append (combo, "cpu", _("CPU"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (combo), 0);
  g_signal_handlers_unblock_by_func (combo, backend_changed_cb, self);
  backend_changed_cb (GTK_COMBO_BOX (combo), self);
}

int
tl_kernel_panel_get_device (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), 0);
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->backend_combo));
  return id && g_str_has_prefix (id, "gpu") ? atoi (id + 3) : 0;
}

gboolean
tl_kernel_panel_is_cpu (TlKernelPanel *self)
{
  g_return_val_if_fail (TL_IS_KERNEL_PANEL (self), TRUE);
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->backend_combo));
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
  for (guint i = 0; i < tl_kernel_count (); i++)
    gtk_container_add (GTK_CONTAINER (self->kernel_list), kernel_row_new (self, tl_kernel_get (i)));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->dtype_combo), "float32");
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->backend_combo), 10);
  tl_kernel_panel_set_gpus (self, NULL);
}
