/* tl-device-page.c — the device and a kernel's launch facts. */
#include "tl-device-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "view/tl-compare-bars.h"
#include "view/tl-roofline.h"
#include "record/tl-counters-lesson.h"
#include "tl-run-text.h"
#include "tl-ui-util.h"

struct _TlDevicePage
{
  GtkScrolledWindow parent_instance;

  TlSession *session;
  GtkWidget *device_label;
  GtkWidget *rung_combo;
  GtkWidget *rung_label;
  TlSheet *export_sheet;     /* the facts the last export_options gave */
};

static void tl_device_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlDevicePage, tl_device_page, GTK_TYPE_SCROLLED_WINDOW,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_device_page_page_init))

static void
describe_gpu (const TlGpuFacts *f, GString *s)
{
  g_string_append_printf (s,
    _("%s\ncompute capability   %d.%d\nSMs                  %d\nSM clock             %.0f MHz\n"
      "memory               %.1f GiB, %d-bit bus at %.0f MHz\nL2 cache             %.1f MiB\n"
      "shared memory        %d KiB per block (%d KiB opt-in), %d KiB per SM\n"
      "registers            %d per SM, %d per block\n"
      "threads              %d per block, %d per SM; %d blocks per SM; warp %d"),
    f->name, f->cc_major, f->cc_minor, f->sm_count, f->clock_khz / 1000.0,
    f->total_mem_bytes / 1073741824.0, f->mem_bus_width_bits, f->mem_clock_khz / 1000.0,
    f->l2_bytes / 1048576.0, f->smem_per_block_bytes / 1024,
    f->smem_per_block_optin_bytes / 1024, f->smem_per_sm_bytes / 1024,
    f->regs_per_sm, f->regs_per_block, f->max_threads_per_block,
    f->max_threads_per_sm, f->max_blocks_per_sm, f->warp_size);
}

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

static void
describe_no_gpu (GString *s, const char *why)
{
  const TlMachineFacts m = *this_machine ();
  g_string_append_printf (s, _("No CUDA GPU in this session.\n\nCPU   %s\ncores %u\nhost  %s\nOS    %s\n\n"
                               "Open a run record made with tilelab-cli on a GPU server\n"
                               "(Open ▾ → Open Run Record…, Ctrl+J) to see its GPU here."),
                          m.cpu_model ? m.cpu_model : "?", m.cores,
                          m.host_name ? m.host_name : "?", m.os ? m.os : "?");
  if (why)
    g_string_append_printf (s, "\n\n%s", why);
}

/* The roofs a record's roofline draws: the peaks from these facts, the
 * bandwidths the job measured. */
static void
describe_roofs (const TlRunRecord *record, GString *s)
{
  g_autoptr (TlRoofline) roofline = tl_roofline_from_record (record);
  g_string_append (s, _("\n\nRoofline peaks (SMs × per-SM rate × clock)"));
  for (int m = 0; m < TL_MATH_COUNT; m++)
    if (roofline->peak[m] > 0)
      g_string_append_printf (s, "\n  %-12s %.1f TFLOP/s", tl_math_label (m), roofline->peak[m] / 1e12);
  if (record->has_bandwidth)
    g_string_append_printf (s, _("\nmeasured bandwidth   DRAM %.2f TB/s, L2 %.2f TB/s (copy kernels)"),
                            record->bandwidth.dram_bytes_per_s / 1e12,
                            record->bandwidth.l2_bytes_per_s / 1e12);
}

static void
describe_device (TlDevicePage *self, GString *s)
{
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  GArray *gpus = self->session ? tl_session_get_gpus (self->session) : NULL;

  if (record && record->has_device)
    {
      g_string_append_printf (s, _("From the run record (%s)\n\n"),
                              record->machine.host_name ? record->machine.host_name : "?");
      describe_gpu (&record->device, s);
      describe_roofs (record, s);
    }
  else if (gpus && gpus->len > 0)
    describe_gpu (&g_array_index (gpus, TlGpuFacts,
                                   MIN ((guint) tl_session_get_device (self->session), gpus->len - 1)), s);
  else
    describe_no_gpu (s, self->session ? tl_session_get_no_gpu_reason (self->session) : NULL);
}

static void
update_device_label (TlDevicePage *self)
{
  /* /proc is read when the page is first shown, not at start-up */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  GString *s = g_string_new (NULL);
  describe_device (self, s);
  gtk_label_set_text (GTK_LABEL (self->device_label), s->str);
  g_string_free (s, TRUE);
}

static void
describe_launch (const TlKernelRun *r, GString *s)
{
  const TlLaunchFacts *f = &r->launch;
  g_autofree char *occ_pct = tl_run_text_percent (100 * f->occupancy);
  g_autofree char *occ = isnan (f->occupancy) ? g_strdup ("—") : g_strdup_printf ("%s%%", occ_pct);
  /* TRANSLATORS: the Device page's constant memory: "0 B of __constant__ data" */
  g_autofree char *cmem = f->const_bytes >= 0 ? g_strdup_printf (_("%d B of __constant__ data"), f->const_bytes)
                                              : g_strdup (_("— (not in this record)"));
  g_string_append_printf (s,
    _("registers per thread   %d\nshared memory          %d B static + %d B dynamic per block\n"
      "constant memory        %s\n"
      "local memory (stack)   %d B per thread%s\nblock                  %d×%d×%d threads\n"),
    f->regs_per_thread, f->static_smem_bytes, f->dynamic_smem_bytes, cmem, f->local_bytes_per_thread,
    f->local_bytes_per_thread > 0 ? _("  ← spills or local arrays: registers ran out?") : "",
    f->block_x, f->block_y, f->block_z);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "grid                   %d×%d×%d blocks, %d launch\n",
                                       "grid                   %d×%d×%d blocks, %d launches\n", f->launches),
                          f->grid_x, f->grid_y, f->grid_z, f->launches);
  g_string_append_printf (s, _("blocks per SM          %d (occupancy %s)\nwaves                  %.2f%s"),
                          f->active_blocks_per_sm, occ, f->waves,
                          f->waves > 1 && f->waves - floor (f->waves) > 0 && f->waves - floor (f->waves) < 0.5
                            ? _("  ← the last wave is mostly idle (tail effect)") : "");
}

static void
update_rung_label (TlDevicePage *self)
{
  GPtrArray *runs = self->session ? tl_session_get_runs (self->session) : NULL;
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
  const TlKernelRun *r = NULL;
  for (guint i = 0; id && runs && i < runs->len; i++)
    if (g_strcmp0 (((const TlKernelRun *) runs->pdata[i])->kernel_id, id) == 0)
      r = runs->pdata[i];

  GString *s = g_string_new (NULL);
  if (r == NULL)
    g_string_append (s, _("Run kernels (or open a run record) to see their launch facts."));
  else if (r->backend == TL_BACKEND_CPU)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s ran on the CPU on %u thread: no registers, shared memory or waves to show.\n"
                                         "Its C tiles (when it records them) appear in the tile grid.",
                                         "%s ran on the CPU on %u threads: no registers, shared memory or waves to show.\n"
                                         "Its C tiles (when it records them) appear in the tile grid.", r->threads),
                            tl_kernel_title (r->info, r->kernel_id), r->threads);
  else if (!r->launch.valid)
    g_string_append_printf (s, _("%s: no launch facts in this run (%s)."), tl_kernel_title (r->info, r->kernel_id),
                            r->message ? r->message : tl_run_status_name (r->status));
  else
    describe_launch (r, s);
  /* the label shows markup: the facts escaped, the counters' markup after them */
  g_autofree char *text = g_markup_escape_text (s->str, -1);
  g_string_free (s, TRUE);
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  g_autofree char *counters = record != NULL && r != NULL && r->backend == TL_BACKEND_GPU
                                ? tl_counters_lesson_markup (record, r->kernel_id) : NULL;
  g_autofree char *markup = counters != NULL ? g_strdup_printf ("%s\n\n%s", text, counters)
                                             : g_strdup (text);
  gtk_label_set_markup (GTK_LABEL (self->rung_label), markup);
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
                           "device-changed", devices_changed_cb, NULL);
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
  g_autoptr (GString) device = g_string_new (NULL);
  describe_device (self, device);
  g_clear_pointer (&self->export_sheet, tl_sheet_unref);
  /* TRANSLATORS: the title of the Device page exported as a picture */
  self->export_sheet = tl_sheet_new ("device", _("Device and launch facts"), FALSE);
  tl_sheet_add_columns (self->export_sheet, device->str);

  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
  g_autofree char *rung = gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (self->rung_combo));
  if (id != NULL)
    {
      tl_sheet_add_row (self->export_sheet, rung ? rung : id, NULL);
      tl_sheet_add_columns (self->export_sheet, gtk_label_get_text (GTK_LABEL (self->rung_label)));
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
  G_OBJECT_CLASS (tl_device_page_parent_class)->dispose (object);
}

static void
tl_device_page_class_init (TlDevicePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_device_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-device-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, device_label);
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, rung_combo);
  gtk_widget_class_bind_template_child (widget_class, TlDevicePage, rung_label);
  gtk_widget_class_bind_template_callback (widget_class, rung_changed_cb);
}

static void
tl_device_page_init (TlDevicePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_after (self, "map", G_CALLBACK (map_cb), self);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->rung_combo), 12);
}
