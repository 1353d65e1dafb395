/* tl-source-page.c — a kernel's code beside its lesson and numbers. */
#include "tl-source-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "record/tl-counters-lesson.h"
#include "tl-code-highlight.h"
#include "tl-run-text.h"
#include "tl-ui-util.h"

struct _TlSourcePage
{
  GtkBox parent_instance;

  TlSession *session;
  gsize length;
  gboolean shown_once;       /* the text is filled in when the page is first mapped */

  GtkWidget *toolbar;
  GtkWidget *kernel_combo;
  GtkWidget *view;
  GtkWidget *side;
  GtkWidget *facts;
};

static void tl_source_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlSourcePage, tl_source_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_source_page_page_init))

static void
show_source (TlSourcePage *self, const TlKernelInfo *info)
{
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  g_autofree char *path = g_strdup_printf ("/org/tilelab/Tilelab/source/%s", info->source_path ? info->source_path : "");
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);

  self->length = 0;
  if (bytes)
    {
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);
      g_autofree char *text = g_utf8_make_valid (data, len);
      gtk_text_buffer_set_text (buf, text, -1);
      tl_code_highlight (buf, text);
      self->length = strlen (text);
    }
  else
    {
      g_autofree char *t = g_strdup_printf (_("The source of %s (%s) is not bundled in this build."),
                                            info->id, info->source_path ? info->source_path : "?");
      gtk_text_buffer_set_text (buf, t, -1);
    }
}

static void
describe_measured (const TlRunRecord *record, const TlKernelRun *r, GString *facts)
{
  const TlJob *job = record->job;
  double flops = job ? tl_stats_gemm_flops (job->m, job->k, job->n) : NAN;
  g_autofree char *time = tl_run_text_time (r->time.median);
  g_autofree char *gflops = tl_run_text_number (tl_stats_gflops (flops, r->time.median));
  g_string_append_printf (facts, _("\n<b>Measured</b> (%zu×%zu·%zu×%zu)\ntime  %s\nGFLOP/s  %s\n"),
                          job ? job->m : 0, job ? job->k : 0, job ? job->k : 0, job ? job->n : 0, time, gflops);
  if (!isnan (r->percent_of_reference))
    {
      g_autofree char *pct = tl_run_text_percent (r->percent_of_reference);
      g_string_append_printf (facts, _("of reference  %s%%\n"), pct);
    }
  if (r->launch.valid)
    g_string_append_printf (facts, _("registers  %d per thread\nshared memory  %d B per block\n"
                                     "spills  %d B\noccupancy  %.0f%%\nwaves  %.2f\n"),
                            r->launch.regs_per_thread,
                            r->launch.static_smem_bytes + r->launch.dynamic_smem_bytes,
                            r->launch.local_bytes_per_thread, 100 * r->launch.occupancy, r->launch.waves);
}

static void
update (TlSourcePage *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  if (!self->shown_once)
    return;
  const TlKernelInfo *info = id ? tl_kernel_find (id) : NULL;
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;

  if (info == NULL)
    {
      self->length = 0;
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)), "", -1);
      return;
    }
  show_source (self, info);

  GString *facts = g_string_new (NULL);
  g_autofree char *lesson = g_markup_escape_text (info->lesson && *info->lesson ? _(info->lesson) : "", -1);
  g_string_append_printf (facts, "<b>%s</b>\n<i>%s</i>\n\n", _(info->title), lesson);
  g_string_append_printf (facts, _("id  %s\nseed  %s\nfile  %s\n"), info->id,
                          info->seed && *info->seed ? info->seed : "—",
                          info->source_path ? info->source_path : "—");
  if (info->tile_m > 0)
    g_string_append_printf (facts, _("tile of C per block  %d×%d\n"), info->tile_m, info->tile_n);
  const TlKernelRun *r = record ? tl_run_record_find_run (record, id) : NULL;
  if (r && r->status == TL_RUN_OK && r->time.count)
    {
      describe_measured (record, r, facts);
      g_autofree char *counters = r->backend == TL_BACKEND_GPU
                                    ? tl_counters_lesson_markup (record, id) : NULL;
      if (counters != NULL)
        g_string_append_printf (facts, "\n%s", counters);
    }
  else
    g_string_append (facts, _("\nRun it (or open a run record) to see its numbers here."));
  gtk_label_set_markup (GTK_LABEL (self->facts), facts->str);
  g_string_free (facts, TRUE);
}

static void
view_style_updated_cb (GtkWidget *view, TlSourcePage *self)
{
  tl_code_highlight_set_dark (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)),
                              tl_widget_has_dark_background (view));
}

static void
kernel_changed_cb (GtkComboBox *combo, TlSourcePage *self)
{
  update (self);
}

static void
map_cb (GtkWidget *widget, TlSourcePage *self)
{
  if (self->shown_once)
    return;
  self->shown_once = TRUE;
  update (self);
}

static void
results_changed_cb (TlSession *session, TlSourcePage *self)
{
  update (self);
}

static void
source_set_session (TlPage *page, TlSession *session)
{
  TlSourcePage *self = TL_SOURCE_PAGE (page);
  tl_page_connect_session (&self->session, session, self, "results-changed", results_changed_cb, NULL);
  update (self);
}

static void
source_show_kernel (TlPage *page, const char *kernel_id)
{
  tl_source_page_show_kernel (TL_SOURCE_PAGE (page), kernel_id);
}

static void
tl_source_page_page_init (TlPageInterface *iface)
{
  iface->set_session = source_set_session;
  iface->show_kernel = source_show_kernel;
}

void
tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_SOURCE_PAGE (self));
  self->shown_once = TRUE;
  if (g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo)), kernel_id) == 0)
    update (self);
  else
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), kernel_id);
}

gsize
tl_source_page_get_source_length (TlSourcePage *self)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), 0);
  return self->length;
}

static void
tl_source_page_dispose (GObject *object)
{
  TlSourcePage *self = TL_SOURCE_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  G_OBJECT_CLASS (tl_source_page_parent_class)->dispose (object);
}

static void
tl_source_page_class_init (TlSourcePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_source_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-source-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, kernel_combo);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, view);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, side);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, facts);
  gtk_widget_class_bind_template_callback (widget_class, kernel_changed_cb);
}

static void
tl_source_page_init (TlSourcePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->kernel_combo), 12);
  tl_code_highlight_create_tags (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
  g_signal_connect (self->view, "style-updated", G_CALLBACK (view_style_updated_cb), self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), self);
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), k->id, _(k->title));
    }
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->kernel_combo), 0);
}
