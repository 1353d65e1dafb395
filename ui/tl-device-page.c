/* tl-device-page.c — the device and a kernel's launch facts. */
#include "tl-device-page.h"

#include <glib/gi18n-lib.h>

#include "view/tl-device-facts.h"
#include "tl-sheet-grid.h"
#include "tl-ui-util.h"

struct _TlDevicePage
{
  GtkScrolledWindow parent_instance;

  TlSession *session;
  GtkWidget *device_grid;
  GtkWidget *rung_combo;
  GtkWidget *rung_grid;
  GtkSizeGroup *fact_names;  /* both grids' first column: one column of values */
  TlSheet *export_sheet;     /* the facts the last export_options gave */
};

static void tl_device_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlDevicePage, tl_device_page, GTK_TYPE_SCROLLED_WINDOW,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_device_page_page_init))

/* this machine's facts, read from /proc once */
static const TlMachineFacts *
this_machine (void)
{
  static TlMachineFacts facts;
  static gsize read = 0;
  if (g_once_init_enter (&read))
    {
      tl_machine_facts_read (&facts);
      g_once_init_leave (&read, 1);
    }
  return &facts;
}

/* the record whose GPU the page shows: the GEMM record's, else that of
 * the LU record opened beside it (a Gauss lecture opens that alone) */
static TlRunRecord *
record_with_device (TlDevicePage *self)
{
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  if (record && record->has_device)
    return record;
  record = self->session ? tl_session_get_lu_run (self->session) : NULL;
  return record && record->has_device ? record : NULL;
}

/* the device's facts: the record's GPU, else this session's, else this machine */
static TlSheet *
device_sheet (TlDevicePage *self)
{
  TlRunRecord *record = record_with_device (self);
  GArray *gpus = self->session ? tl_session_get_gpus (self->session) : NULL;
  TlSheet *sheet = tl_sheet_new ("device", NULL, FALSE);
  if (record != NULL)
    tl_device_facts_record (sheet, record);
  else if (gpus && gpus->len > 0)
    tl_device_facts_gpu (sheet, &g_array_index (gpus, TlGpuFacts,
                                                MIN ((guint) tl_session_get_device (self->session), gpus->len - 1)));
  else
    tl_device_facts_no_gpu (sheet, this_machine (),
                            self->session ? tl_session_get_no_gpu_reason (self->session) : NULL);
  return sheet;
}

static void
update_device_label (TlDevicePage *self)
{
  /* /proc is read when the page is first shown, not at start-up */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  g_autoptr (TlSheet) sheet = device_sheet (self);
  tl_sheet_grid_fill (GTK_GRID (self->device_grid), sheet, 0, self->fact_names);
}

/* the chosen rung's launch facts and counters */
static TlSheet *
kernel_sheet (TlDevicePage *self)
{
  GPtrArray *runs = self->session ? tl_session_get_runs (self->session) : NULL;
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
  const TlKernelRun *r = NULL;
  for (guint i = 0; id && runs && i < runs->len; i++)
    if (g_strcmp0 (((const TlKernelRun *) runs->pdata[i])->kernel_id, id) == 0)
      r = runs->pdata[i];
  TlSheet *sheet = tl_sheet_new ("device", NULL, FALSE);
  tl_device_facts_kernel (sheet, self->session ? tl_session_get_record (self->session) : NULL, r);
  return sheet;
}

static void
update_rung_label (TlDevicePage *self)
{
  g_autoptr (TlSheet) sheet = kernel_sheet (self);
  /* the combo box above names the rung */
  gboolean named = tl_sheet_get_n_rows (sheet) > 0 && tl_sheet_get_row (sheet, 0)->kind == TL_SHEET_HEADING;
  tl_sheet_grid_fill (GTK_GRID (self->rung_grid), sheet, named ? 1 : 0, self->fact_names);
}

static void
rung_changed_cb (GtkComboBox *combo, TlDevicePage *self)
{
  update_rung_label (self);
}

/* the runs on show, keeping the chosen one */
static void
update_rungs (TlDevicePage *self)
{
  GPtrArray *runs = self->session ? tl_session_get_runs (self->session) : NULL;
  g_autofree char *active = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo)));

  g_signal_handlers_block_by_func (self->rung_combo, rung_changed_cb, self);
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->rung_combo));
  for (guint i = 0; runs && i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      g_autofree char *label = tl_kernel_display_name (r->info, r->kernel_id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->rung_combo), r->kernel_id, label);
    }
  if (!active || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rung_combo), active))
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->rung_combo), 0);
  g_signal_handlers_unblock_by_func (self->rung_combo, rung_changed_cb, self);
  /* an empty list to drop down says nothing: greyed until a kernel ran */
  gtk_widget_set_sensitive (self->rung_combo, runs && runs->len > 0);
  update_rung_label (self);
}

static void
results_changed_cb (TlSession *session, TlDevicePage *self)
{
  update_rungs (self);
  update_device_label (self);
}

static void
devices_changed_cb (TlSession *session, TlDevicePage *self)
{
  update_device_label (self);
}

static void
record_opened_cb (TlSession *session, gboolean has_gemm, gboolean has_lu, TlDevicePage *self)
{
  update_device_label (self);
}

static void
map_cb (GtkWidget *widget, TlDevicePage *self)
{
  update_device_label (self);
}

static void
device_set_session (TlPage *page, TlSession *session)
{
  TlDevicePage *self = TL_DEVICE_PAGE (page);
  tl_page_connect_session (&self->session, session, self,
                           "results-changed", results_changed_cb,
                           "devices-changed", devices_changed_cb,
                           "device-changed", devices_changed_cb,
                           "record-opened", record_opened_cb, NULL);
  results_changed_cb (session, self);
}

void
tl_device_page_show_kernel (TlDevicePage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_DEVICE_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rung_combo), kernel_id);
}

const char *
tl_device_page_get_shown_kernel (TlDevicePage *self)
{
  g_return_val_if_fail (TL_IS_DEVICE_PAGE (self), NULL);
  return gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
}

static void
device_show_kernel (TlPage *page, const char *kernel_id)
{
  tl_device_page_show_kernel (TL_DEVICE_PAGE (page), kernel_id);
}

/* the device's facts and the chosen rung's launch facts, as a table */
static gboolean
device_export_options (TlPage *page, TlRenderOptions *options)
{
  TlDevicePage *self = TL_DEVICE_PAGE (page);
  g_clear_pointer (&self->export_sheet, tl_sheet_unref);
  /* TRANSLATORS: the title of the Device page exported as a picture */
  self->export_sheet = tl_sheet_new ("device", _("Device and launch facts"), FALSE);
  g_autoptr (TlSheet) device = device_sheet (self);
  tl_sheet_append (self->export_sheet, device);
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
  if (id != NULL)
    {
      g_autoptr (TlSheet) kernel = kernel_sheet (self);
      tl_sheet_append (self->export_sheet, kernel);
    }
  options->view = TL_RENDER_SHEET;
  options->sheet = self->export_sheet;
  options->kernels = id;
  return TRUE;
}

static void
tl_device_page_page_init (TlPageInterface *iface)
{
  iface->export_options = device_export_options;
  iface->set_session = device_set_session;
  iface->show_kernel = device_show_kernel;
}

static void
tl_device_page_dispose (GObject *object)
{
  TlDevicePage *self = TL_DEVICE_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  g_clear_pointer (&self->export_sheet, tl_sheet_unref);
  g_clear_object (&self->fact_names);
  G_OBJECT_CLASS (tl_device_page_parent_class)->dispose (object);
}

static void
tl_device_page_class_init (TlDevicePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_device_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-device-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, device_grid);
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, rung_combo);
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, rung_grid);
  gtk_widget_class_bind_template_callback (widget_class, rung_changed_cb);
}

static void
tl_device_page_init (TlDevicePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->fact_names = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  g_signal_connect_after (self, "map", G_CALLBACK (map_cb), self);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->rung_combo), 12);
}
