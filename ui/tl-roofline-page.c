/* tl-roofline-page.c — the roofline of the record on show. */
#include "tl-roofline-page.h"

#include <glib/gi18n-lib.h>

#include "gemm/tl-kernels.h"
#include "view/tl-compare-bars.h"
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-util.h"
#include "tl-record-choice.h"
#include "tl-ui-util.h"
#include "tl-view-style.h"

struct _TlRooflinePage
{
  GtkBox parent_instance;

  TlSession *session;
  TlRoofline *model;        /* of the record on show; NULL when there is none */
  int selected;             /* a point's index, or -1 */
  TlPaintStyle style;       /* sizes, as set for presentation */
  TlRooflineLayout layout;  /* as last drawn, for clicks */
  gboolean drawn;

  GtkWidget *toolbar;
  GtkWidget *record_combo;
  GtkWidget *point_combo;
  GtkWidget *source_button;
  GtkWidget *device_button;
  GtkWidget *area;
};

static void tl_roofline_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlRooflinePage, tl_roofline_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_roofline_page_page_init))


static void
select_point (TlRooflinePage *self, int index)
{
  guint n = self->model ? self->model->n_points : 0;
  self->selected = index >= 0 && (guint) index < n ? index : -1;
  const char *id = self->selected >= 0 ? self->model->points[self->selected].kernel_id : NULL;
  if (g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->point_combo)), id) != 0)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->point_combo), id);
  gtk_widget_set_sensitive (self->source_button, self->selected >= 0);
  gtk_widget_set_sensitive (self->device_button, self->selected >= 0);
  gtk_widget_queue_draw (self->area);
}

/* The model of the record chosen, keeping the selected kernel. */
static void
rebuild (TlRooflinePage *self)
{
  TlRunRecord *record = tl_record_choice_get (GTK_COMBO_BOX (self->record_combo), self->session);
  g_autofree char *keep = g_strdup (tl_roofline_page_get_selected (self));
  g_clear_pointer (&self->model, tl_roofline_free);
  self->drawn = FALSE;
  if (record != NULL)
    self->model = tl_roofline_from_record (record);
  tl_page_emit_records_changed (TL_PAGE (self));

  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->point_combo));
  for (guint i = 0; self->model && i < self->model->n_points; i++)
    {
      const TlRooflinePoint *p = &self->model->points[i];
      const char *id = p->kernel_id;
      g_autofree char *label = tl_kernel_display_name (p->info, id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->point_combo), id, label);
    }
  /* no point to choose: greyed, as the buttons beside it are */
  gtk_widget_set_sensitive (self->point_combo, self->model && self->model->n_points > 0);
  self->selected = -1;
  tl_roofline_page_select_kernel (self, keep);
}

/* the selected rung on both the Source and the Device page, page up */
static void
emit_show (TlRooflinePage *self, const char *page)
{
  const char *id = tl_roofline_page_get_selected (self);
  if (id == NULL)
    return;
  tl_page_emit_show_kernel (TL_PAGE (self), id, g_strcmp0 (page, "source") == 0 ? "device" : "source",
                            FALSE);
  tl_page_emit_show_kernel (TL_PAGE (self), id, page, TRUE);
}

static void
point_changed_cb (GtkComboBox *combo, TlRooflinePage *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  for (guint i = 0; id && self->model && i < self->model->n_points; i++)
    if (g_strcmp0 (self->model->points[i].kernel_id, id) == 0 && (int) i != self->selected)
      select_point (self, (int) i);
}

static void
source_clicked_cb (GtkButton *button, TlRooflinePage *self)
{
  emit_show (self, "source");
}

static void
device_clicked_cb (GtkButton *button, TlRooflinePage *self)
{
  emit_show (self, "device");
}

static gboolean
area_draw_cb (GtkWidget *widget, cairo_t *cr, TlRooflinePage *self)
{
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  TlPaintStyle style;
  tl_view_style_begin_draw (&self->style, widget, cr, &style);
  if (self->model == NULL)
    {
      tl_paint_hint (cr, &style, w, h,
                     _("Tick “Count hardware events” and run GPU kernels,\n"
                       "or open a run record made with tilelab-cli gemm --counters:\n"
                       "every kernel then appears here under the GPU's roofs."));
      self->drawn = FALSE;
      return FALSE;
    }
  tl_paint_roofline (cr, self->model, self->selected, &style, w, h);
  tl_paint_roofline_layout (self->model, &style, cr, w, h, &self->layout);
  self->drawn = TRUE;
  return FALSE;
}

static gboolean
area_button_press_cb (GtkWidget *widget, GdkEventButton *event, TlRooflinePage *self)
{
  if (event->button != 1 || !self->drawn)
    return FALSE;
  gtk_widget_grab_focus (widget);
  int hit = tl_roofline_layout_hit (&self->layout, self->model, event->x, event->y);
  if (hit < 0)
    return FALSE;
  select_point (self, hit);
  if (event->type == GDK_2BUTTON_PRESS)
    emit_show (self, "source");
  return TRUE;
}

/* ---- the page interface ---------------------------------------------------- */

/* the session's records, the one with counters first in line */
static void
refill_records (TlRooflinePage *self)
{
  g_signal_handlers_block_by_func (self->record_combo, rebuild, self);
  tl_record_choice_fill (GTK_COMBO_BOX_TEXT (self->record_combo), self->session, tl_record_has_counters);
  g_signal_handlers_unblock_by_func (self->record_combo, rebuild, self);
  rebuild (self);
}

static void
results_changed_cb (TlSession *session, TlRooflinePage *self)
{
  refill_records (self);
}

static void
roofline_set_session (TlPage *page, TlSession *session)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  tl_page_connect_session (&self->session, session, self, "results-changed", results_changed_cb,
                           "history-changed", results_changed_cb, NULL);
  refill_records (self);
}

static void
roofline_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  tl_view_style_set_presentation (&self->style, on ? TL_PAINT_PRESENTATION_SCALE : 1.0,
                                  high_contrast);
  gtk_widget_set_visible (self->toolbar, !on);
  gtk_widget_queue_draw (self->area);
}

/* the next or previous point: the ladder, one rung at a time */
static gboolean
roofline_step (TlPage *page, int direction)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  int n = self->model ? (int) self->model->n_points : 0;
  if (n == 0)
    return FALSE;
  int next = self->selected < 0 ? (direction > 0 ? 0 : n - 1) : self->selected + direction;
  if (next < 0 || next >= n)
    return FALSE;
  select_point (self, next);
  return TRUE;
}

static gboolean
roofline_key (TlPage *page, guint keyval, GdkModifierType state)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter)
    return FALSE;
  emit_show (self, "source");
  return self->selected >= 0;
}

static gboolean
roofline_export_options (TlPage *page, TlRenderOptions *options)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  if (self->model == NULL)
    return FALSE;
  options->view = TL_RENDER_ROOFLINE;
  options->kernels = tl_roofline_page_get_selected (self);
  return TRUE;
}

static TlRunRecord *
roofline_export_record (TlPage *page)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (page);
  return tl_record_choice_get (GTK_COMBO_BOX (self->record_combo), self->session);
}

static void
tl_roofline_page_page_init (TlPageInterface *iface)
{
  iface->export_record = roofline_export_record;
  iface->set_session = roofline_set_session;
  iface->set_presentation = roofline_set_presentation;
  iface->step = roofline_step;
  iface->key = roofline_key;
  iface->export_options = roofline_export_options;
}

/* ---- public ----------------------------------------------------------------- */

void
tl_roofline_page_select_kernel (TlRooflinePage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_ROOFLINE_PAGE (self));
  int index = -1;
  for (guint i = 0; kernel_id && self->model && i < self->model->n_points; i++)
    if (g_strcmp0 (self->model->points[i].kernel_id, kernel_id) == 0)
      index = (int) i;
  select_point (self, index);
}

const char *
tl_roofline_page_get_selected (TlRooflinePage *self)
{
  g_return_val_if_fail (TL_IS_ROOFLINE_PAGE (self), NULL);
  return self->model && self->selected >= 0 ? self->model->points[self->selected].kernel_id : NULL;
}

guint
tl_roofline_page_get_n_points (TlRooflinePage *self)
{
  g_return_val_if_fail (TL_IS_ROOFLINE_PAGE (self), 0);
  return self->model ? self->model->n_points : 0;
}

static void
tl_roofline_page_dispose (GObject *object)
{
  TlRooflinePage *self = TL_ROOFLINE_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  g_clear_pointer (&self->model, tl_roofline_free);
  G_OBJECT_CLASS (tl_roofline_page_parent_class)->dispose (object);
}

static void
tl_roofline_page_class_init (TlRooflinePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_roofline_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tilelab/Tilelab/ui/tl-roofline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, record_combo);
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, point_combo);
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, source_button);
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, device_button);
  gtk_widget_class_bind_template_child (widget_class, TlRooflinePage, area);
  gtk_widget_class_bind_template_callback (widget_class, point_changed_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "record_changed_cb", G_CALLBACK (rebuild));
  gtk_widget_class_bind_template_callback (widget_class, source_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, device_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, area_draw_cb);
  gtk_widget_class_bind_template_callback (widget_class, area_button_press_cb);
}

static void
tl_roofline_page_init (TlRooflinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->record_combo), 14);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->point_combo), 12);
  self->selected = -1;
  tl_paint_style_init (&self->style, 1.0);
  gtk_widget_set_sensitive (self->source_button, FALSE);
  gtk_widget_set_sensitive (self->device_button, FALSE);
}
