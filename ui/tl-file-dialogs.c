/* tl-file-dialogs.c — open, generate and export. */
#include "tl-file-dialogs.h"

#include <glib/gi18n-lib.h>

#include "tl-generate-dialog.h"
#include "tl-ui-util.h"

/* ---- open -------------------------------------------------------------------- */

static void
add_filter (GtkFileChooser *chooser, const char *name, const char *const *patterns)
{
  GtkFileFilter *f = gtk_file_filter_new ();
  gtk_file_filter_set_name (f, name);
  for (guint i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (f, patterns[i]);
  gtk_file_chooser_add_filter (chooser, f);
}

static void
add_matrix_filters (GtkFileChooser *chooser)
{
  static const char *const all[] = { "*.mtx", "*.npy", "*.csv", "*.tsv", "*.txt", "*.mat", NULL };
  static const struct { const char *name; const char *patterns[3]; } kinds[] = {
    { N_("Matrix Market (*.mtx)"), { "*.mtx", NULL } },
    { N_("NumPy (*.npy)"), { "*.npy", NULL } },
    { N_("CSV / TSV (*.csv, *.tsv)"), { "*.csv", "*.tsv", NULL } },
    { N_("Text (*.txt)"), { "*.txt", "*.mat", NULL } },
  };
  add_filter (chooser, _("All matrices"), all);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    add_filter (chooser, _(kinds[i].name), kinds[i].patterns);
}

static void
open_response_cb (GtkNativeDialog *dialog, int response, TlSession *session)
{
  guint target = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "target"));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (target == 0)
        tl_session_open_record (session, file);
      else
        tl_session_load_source (session, target, file);
    }
  g_object_unref (dialog);
  g_object_unref (session);
}

static void
open_kernel_response_cb (GtkNativeDialog *dialog, int response, GtkWindow *parent)
{
  void (*chosen) (GtkWindow *, GFile *) = g_object_get_data (G_OBJECT (dialog), "chosen");
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      chosen (parent, file);
    }
  g_object_unref (dialog);
}

void
tl_file_dialogs_open_kernel (GtkWindow *parent, void (*chosen) (GtkWindow *parent, GFile *file))
{
  static const char *const kernels[] = { "*.cu", NULL };
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    _("Open Your Kernel"), parent, GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_filter (GTK_FILE_CHOOSER (dialog), _("CUDA kernel files (*.cu)"), kernels);
  g_object_set_data (G_OBJECT (dialog), "chosen", chosen);
  g_signal_connect (dialog, "response", G_CALLBACK (open_kernel_response_cb), parent);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
tl_file_dialogs_open (GtkWindow *parent, TlSession *session, guint target)
{
  static const char *const records[] = { "*.json", NULL };
  const char *title = target == TL_TARGET_A ? _("Open Matrix A")
                      : target == TL_TARGET_B ? _("Open Matrix B") : _("Open Run Record");
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));
  if (target == 0)
    add_filter (GTK_FILE_CHOOSER (dialog), _("Tilelab run records (*.json)"), records);
  else
    add_matrix_filters (GTK_FILE_CHOOSER (dialog));
  g_object_set_data (G_OBJECT (dialog), "target", GUINT_TO_POINTER (target));
  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), g_object_ref (session));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- generate -------------------------------------------------------------------- */

static void
generate_response_cb (GtkDialog *dialog, int response, TlSession *session)
{
  if (response == GTK_RESPONSE_OK)
    {
      TlGenerateRequest req;
      g_autoptr (GSettings) settings = tl_settings_new_if_installed ();
      if (settings)
        tl_generate_dialog_save_settings (TL_GENERATE_DIALOG (dialog), settings);
      tl_generate_dialog_get_request (TL_GENERATE_DIALOG (dialog), &req);
      tl_session_generate (session, req.targets, req.spec, req.rows, req.cols, req.dtype, req.seed);
      g_free (req.spec);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

void
tl_file_dialogs_generate (GtkWindow *parent, TlSession *session, guint targets)
{
  TlMatrix *a = tl_session_get_source (session, 0);
  GtkWidget *dialog = tl_generate_dialog_new (parent, targets, a ? a->rows : 512);
  g_autoptr (GSettings) settings = tl_settings_new_if_installed ();
  if (settings)
    tl_generate_dialog_load_settings (TL_GENERATE_DIALOG (dialog), settings);
  g_signal_connect_object (dialog, "response", G_CALLBACK (generate_response_cb), session, 0);
  gtk_widget_show (dialog);
}

/* ---- export ------------------------------------------------------------------------ */

static const char *const export_kinds[][2] = {
  { N_("PNG image"), ".png" }, { N_("SVG drawing"), ".svg" }, { N_("PDF document"), ".pdf" },
};

/* a name without .png, .svg or .pdf gets the chosen filter's */
static GFile *
export_file (GtkFileChooser *chooser)
{
  g_autoptr (GFile) file = gtk_file_chooser_get_file (chooser);
  g_autofree char *path = g_file_get_path (file);
  TlRenderFormat format;
  if (path == NULL || tl_render_format_for_path (path, &format))
    return g_steal_pointer (&file);
  g_autoptr (GSList) filters = gtk_file_chooser_list_filters (chooser);
  int index = MAX (g_slist_index (filters, gtk_file_chooser_get_filter (chooser)), 0);
  g_autofree char *with = g_strconcat (path, export_kinds[index % G_N_ELEMENTS (export_kinds)][1], NULL);
  return g_file_new_for_path (with);
}

static void
export_response_cb (GtkNativeDialog *dialog, int response, TlExport *export)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = export_file (GTK_FILE_CHOOSER (dialog));
      tl_export_write_async (g_steal_pointer (&export), file, NULL, NULL, NULL);
    }
  tl_export_free (export);
  g_object_unref (dialog);
}

void
tl_file_dialogs_export (GtkWindow *parent, TlExport *export)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Export View"), parent,
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              _("_Export"), _("_Cancel"));
  g_autofree char *name = tl_export_suggest_name (export);
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  for (guint i = 0; i < G_N_ELEMENTS (export_kinds); i++)
    {
      g_autofree char *pattern = g_strconcat ("*", export_kinds[i][1], NULL);
      const char *patterns[] = { pattern, NULL };
      add_filter (GTK_FILE_CHOOSER (dialog), _(export_kinds[i][0]), patterns);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), export);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
