/* tl-generate-dialog.c — every generator of the registry, with its parameters. */
#include "tl-generate-dialog.h"

#include <glib/gi18n-lib.h>
#include "gen/tl-generate.h"

struct _TlGenerateDialog
{
  GtkDialog parent_instance;

  GtkWidget *generator_combo;
  GtkWidget *description_label;
  GtkWidget *params_entry;
  GtkWidget *rows_spin;
  GtkWidget *cols_spin;
  GtkWidget *dtype_combo;
  GtkWidget *seed_spin;
  GtkWidget *target_combo;
};

G_DEFINE_FINAL_TYPE (TlGenerateDialog, tl_generate_dialog, GTK_TYPE_DIALOG)

static void
generator_changed_cb (GtkComboBox *combo, TlGenerateDialog *self)
{
  const TlGeneratorInfo *info = tl_generator_find (gtk_combo_box_get_active_id (combo));
  if (info == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (self->description_label), info->description && *info->description ? _(info->description) : "");
  gtk_entry_set_text (GTK_ENTRY (self->params_entry), info->params ? info->params : "");
  if (info->square_only)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cols_spin),
                               gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->rows_spin)));
}

static void
tl_generate_dialog_class_init (TlGenerateDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-generate-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, generator_combo);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, description_label);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, params_entry);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, rows_spin);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, cols_spin);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, dtype_combo);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, TlGenerateDialog, target_combo);
  gtk_widget_class_bind_template_callback (widget_class, generator_changed_cb);
}

static void
tl_generate_dialog_init (TlGenerateDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < tl_generator_count (); i++)
    {
      const TlGeneratorInfo *info = tl_generator_get (i);
      g_autofree char *text = g_strdup_printf ("%s — %s", info->name, info->title ? _(info->title) : "");
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->generator_combo), info->name, text);
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->generator_combo), "random-uniform");
  if (gtk_combo_box_get_active (GTK_COMBO_BOX (self->generator_combo)) < 0)
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->generator_combo), 0);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->dtype_combo), "float32");
  gtk_dialog_set_default_response (GTK_DIALOG (self), GTK_RESPONSE_OK);
}

GtkWidget *
tl_generate_dialog_new (GtkWindow *parent, guint targets, gsize size)
{
  TlGenerateDialog *self = g_object_new (TL_TYPE_GENERATE_DIALOG, "transient-for", parent,
                                         "use-header-bar", TRUE, NULL);
  g_autofree char *id = g_strdup_printf ("%u", targets);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->target_combo), id);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->rows_spin), size);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cols_spin), size);
  return GTK_WIDGET (self);
}

void
tl_generate_dialog_get_request (TlGenerateDialog *self, TlGenerateRequest *out)
{
  g_return_if_fail (TL_IS_GENERATE_DIALOG (self));

  const char *name = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->generator_combo));
  const char *params = gtk_entry_get_text (GTK_ENTRY (self->params_entry));
  out->spec = params && *params ? g_strdup_printf ("%s:%s", name, params) : g_strdup (name);
  out->rows = (gsize) gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->rows_spin));
  out->cols = (gsize) gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->cols_spin));
  out->seed = (guint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->seed_spin));
  out->targets = (guint) atoi (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->target_combo)));
  out->dtype = TL_DTYPE_FLOAT32;
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &out->dtype);
}

void
tl_generate_dialog_load_settings (TlGenerateDialog *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_GENERATE_DIALOG (self));
  g_autofree char *name = g_settings_get_string (settings, "generator");
  g_autofree char *params = g_settings_get_string (settings, "generator-params");
  g_autofree char *dtype = g_settings_get_string (settings, "generator-dtype");

  /* choosing the generator fills in its default parameters: the saved ones after */
  if (gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->generator_combo), name) && *params)
    gtk_entry_set_text (GTK_ENTRY (self->params_entry), params);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->dtype_combo), dtype);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->seed_spin), g_settings_get_double (settings, "generator-seed"));
}

void
tl_generate_dialog_save_settings (TlGenerateDialog *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_GENERATE_DIALOG (self));
  const char *name = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->generator_combo));
  const char *dtype = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo));

  if (name)
    g_settings_set_string (settings, "generator", name);
  g_settings_set_string (settings, "generator-params", gtk_entry_get_text (GTK_ENTRY (self->params_entry)));
  if (dtype)
    g_settings_set_string (settings, "generator-dtype", dtype);
  g_settings_set_double (settings, "generator-seed", gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->seed_spin)));
}
