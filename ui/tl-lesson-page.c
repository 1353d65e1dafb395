/* tl-lesson-page.c — a rung beside the rung below it, walked with a clicker. */
#include "tl-lesson-page.h"

#include <glib/gi18n-lib.h>

#include "gemm/tl-kernels.h"
#include "view/tl-lesson.h"
#include "paint/tl-paint-lesson.h"
#include "paint/tl-paint-util.h"
#include "tl-record-choice.h"
#include "tl-ui-util.h"
#include "tl-view-style.h"

struct _TlLessonPage
{
  GtkBox parent_instance;

  TlSession *session;
  TlRunRecord *record;      /* the record chosen (borrowed from the session), or NULL */
  GPtrArray *rungs;         /* ids (owned) of the rungs that have one below them */
  TlLesson *lesson;         /* of the rung shown, or NULL */
  GCancellable *source_cancellable; /* while its source part is made, else NULL */
  char *problem;            /* why there is no lesson, or NULL */
  TlPaintStyle style;       /* sizes, as set for presentation */

  GtkWidget *toolbar;
  GtkWidget *record_combo;
  GtkWidget *rung_combo;
  GtkWidget *source_button;
  GtkWidget *area;
};

static void tl_lesson_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlLessonPage, tl_lesson_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_lesson_page_page_init))

/* a record whose ladder has two timed GPU rungs */
static gboolean
has_ladder (const TlRunRecord *record)
{
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  return ladder->len >= 2;
}

/* ---- the source part, off the main loop ------------------------------------ */

typedef struct
{
  char *lower_path, *upper_path;
  gboolean same_precision;
} SourceJob;

static void
source_job_free (SourceJob *job)
{
  g_free (job->lower_path);
  g_free (job->upper_path);
  g_free (job);
}

static void
source_thread (GTask *task, gpointer page, gpointer data, GCancellable *cancellable)
{
  SourceJob *job = data;
  g_task_return_pointer (task, tl_lesson_source_new (job->lower_path, job->upper_path, job->same_precision),
                         (GDestroyNotify) tl_lesson_source_free);
}

static void
source_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  /* cancelled (another rung, or the page went): the error says so */
  g_autoptr (TlLessonSource) source = g_task_propagate_pointer (G_TASK (result), NULL);
  if (source == NULL)
    return;
  TlLessonPage *self = TL_LESSON_PAGE (object);
  g_clear_object (&self->source_cancellable);
  tl_lesson_take_source (self->lesson, source);
  gtk_widget_queue_draw (self->area);
}

static void
make_source (TlLessonPage *self)
{
  const TlKernelInfo *lower = self->lesson->lower_info, *upper = self->lesson->upper_info;
  SourceJob *job = g_new0 (SourceJob, 1);
  job->lower_path = g_strdup (lower ? lower->source_path : NULL);
  job->upper_path = g_strdup (upper ? upper->source_path : NULL);
  job->same_precision = lower && upper && g_strcmp0 (lower->precision, upper->precision) == 0;
  self->lesson->diff_note = g_strdup (_("Comparing the two kernels…"));

  self->source_cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->source_cancellable, source_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) source_job_free);
  g_task_run_in_thread (task, source_thread);
}

static void
cancel_source (TlLessonPage *self)
{
  if (self->source_cancellable != NULL)
    g_cancellable_cancel (self->source_cancellable);
  g_clear_object (&self->source_cancellable);
}

/* ---- the rung shown ------------------------------------------------------------ */

static void
show_rung (TlLessonPage *self, const char *kernel_id)
{
  cancel_source (self);
  g_clear_pointer (&self->lesson, tl_lesson_free);
  g_clear_pointer (&self->problem, g_free);
  if (self->record != NULL && kernel_id != NULL)
    {
      g_autoptr (GError) error = NULL;
      self->lesson = tl_lesson_new_brief (self->record, kernel_id, &error);
      if (error != NULL)
        self->problem = g_strdup (error->message);
      if (self->lesson != NULL)
        make_source (self);
    }
  const char *id = self->lesson ? self->lesson->upper_id : NULL;
  if (g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo)), id) != 0)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rung_combo), id);
  gtk_widget_set_sensitive (self->source_button, self->lesson != NULL);
  gtk_widget_queue_draw (self->area);
}

/* The rungs of the record chosen, keeping the rung shown (else the top). */
static void
rebuild (TlLessonPage *self)
{
  g_autofree char *keep = g_strdup (tl_lesson_page_get_rung (self));
  self->record = tl_record_choice_get (GTK_COMBO_BOX (self->record_combo), self->session);
  tl_page_emit_records_changed (TL_PAGE (self));
  g_ptr_array_set_size (self->rungs, 0);
  cancel_source (self);
  g_clear_pointer (&self->lesson, tl_lesson_free);

  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->rung_combo));
  if (self->record != NULL)
    {
      g_autoptr (GPtrArray) ladder = tl_lesson_ladder (self->record);
      for (guint i = 0; i < ladder->len; i++)
        {
          g_autoptr (TlLesson) lesson = tl_lesson_new_brief (self->record, ladder->pdata[i], NULL);
          if (lesson == NULL)
            continue;
          g_ptr_array_add (self->rungs, g_strdup (ladder->pdata[i]));
          /* TRANSLATORS: a rung and the one it is compared with: "08 vectorised… (after 07)" */
          g_autofree char *label = g_strdup_printf (_("%s (after %s)"), lesson->upper_name,
                                                    lesson->lower_short);
          gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->rung_combo), ladder->pdata[i], label);
        }
    }
  gtk_widget_set_sensitive (self->rung_combo, self->rungs->len > 0);
  const char *rung = keep;
  if (rung == NULL || !g_ptr_array_find_with_equal_func (self->rungs, rung, g_str_equal, NULL))
    rung = self->rungs->len ? self->rungs->pdata[self->rungs->len - 1] : NULL;
  show_rung (self, rung);
}

static void
rung_changed_cb (GtkComboBox *combo, TlLessonPage *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  if (id != NULL && g_strcmp0 (id, tl_lesson_page_get_rung (self)) != 0)
    show_rung (self, id);
}

static void
source_clicked_cb (GtkButton *button, TlLessonPage *self)
{
  const char *id = tl_lesson_page_get_rung (self);
  if (id != NULL)
    tl_page_emit_show_kernel (TL_PAGE (self), id, "source", TRUE);
}

static gboolean
area_draw_cb (GtkWidget *widget, cairo_t *cr, TlLessonPage *self)
{
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  TlPaintStyle style;
  tl_view_style_begin_draw (&self->style, widget, cr, &style);
  if (self->lesson == NULL)
    {
      tl_paint_hint (cr, &style, w, h,
                     self->problem ? self->problem
                                   : _("Run the GPU ladder, or open a run record of it\n"
                                       "(tilelab-cli gemm --kernel gpu --counters --record ladder.json):\n"
                                       "each rung then appears here beside the rung below it."));
      return FALSE;
    }
  tl_paint_lesson (cr, self->lesson, self->record, &style, w, h);
  return FALSE;
}

/* ---- the page interface ---------------------------------------------------- */

static void
refill_records (TlLessonPage *self)
{
  g_signal_handlers_block_by_func (self->record_combo, rebuild, self);
  tl_record_choice_fill (GTK_COMBO_BOX_TEXT (self->record_combo), self->session, has_ladder);
  g_signal_handlers_unblock_by_func (self->record_combo, rebuild, self);
  rebuild (self);
}

static void
results_changed_cb (TlSession *session, TlLessonPage *self)
{
  refill_records (self);
}

static void
lesson_set_session (TlPage *page, TlSession *session)
{
  TlLessonPage *self = TL_LESSON_PAGE (page);
  tl_page_connect_session (&self->session, session, self, "results-changed", results_changed_cb,
                           "history-changed", results_changed_cb, NULL);
  refill_records (self);
}

static void
lesson_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlLessonPage *self = TL_LESSON_PAGE (page);
  tl_view_style_set_presentation (&self->style, on ? TL_PAINT_PRESENTATION_SCALE : 1.0,
                                  high_contrast);
  gtk_widget_set_visible (self->toolbar, !on);
  gtk_widget_queue_draw (self->area);
}

/* the next or the previous rung of the ladder */
static gboolean
lesson_step (TlPage *page, int direction)
{
  TlLessonPage *self = TL_LESSON_PAGE (page);
  guint at;
  const char *id = tl_lesson_page_get_rung (self);
  if (id == NULL || !g_ptr_array_find_with_equal_func (self->rungs, id, g_str_equal, &at))
    return FALSE;
  if ((direction < 0 && at == 0) || (direction > 0 && at + 1 >= self->rungs->len))
    return FALSE;
  show_rung (self, self->rungs->pdata[direction > 0 ? at + 1 : at - 1]);
  return TRUE;
}

static gboolean
lesson_key (TlPage *page, guint keyval, GdkModifierType state)
{
  TlLessonPage *self = TL_LESSON_PAGE (page);
  if ((keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter) || self->lesson == NULL)
    return FALSE;
  source_clicked_cb (NULL, self);
  return TRUE;
}

static gboolean
lesson_export_options (TlPage *page, TlRenderOptions *options)
{
  TlLessonPage *self = TL_LESSON_PAGE (page);
  if (self->lesson == NULL)
    return FALSE;
  options->view = TL_RENDER_LESSON;
  options->kernels = self->lesson->upper_id;
  return TRUE;
}

static TlRunRecord *
lesson_export_record (TlPage *page)
{
  return TL_LESSON_PAGE (page)->record;
}

static gboolean
lesson_has_content (TlPage *page)
{
  return TL_LESSON_PAGE (page)->lesson != NULL;
}

static void
lesson_show_kernel (TlPage *page, const char *kernel_id)
{
  tl_lesson_page_select_rung (TL_LESSON_PAGE (page), kernel_id);
}

static void
tl_lesson_page_page_init (TlPageInterface *iface)
{
  iface->set_session = lesson_set_session;
  iface->set_presentation = lesson_set_presentation;
  iface->step = lesson_step;
  iface->key = lesson_key;
  iface->export_options = lesson_export_options;
  iface->export_record = lesson_export_record;
  iface->has_content = lesson_has_content;
  iface->show_kernel = lesson_show_kernel;
}

/* ---- public ----------------------------------------------------------------- */

gboolean
tl_lesson_page_select_rung (TlLessonPage *self, const char *kernel_id)
{
  g_return_val_if_fail (TL_IS_LESSON_PAGE (self), FALSE);
  if (kernel_id == NULL
      || !g_ptr_array_find_with_equal_func (self->rungs, kernel_id, g_str_equal, NULL))
    return FALSE;
  show_rung (self, kernel_id);
  return TRUE;
}

const char *
tl_lesson_page_get_rung (TlLessonPage *self)
{
  g_return_val_if_fail (TL_IS_LESSON_PAGE (self), NULL);
  return self->lesson ? self->lesson->upper_id : NULL;
}

const char *
tl_lesson_page_get_rung_below (TlLessonPage *self)
{
  g_return_val_if_fail (TL_IS_LESSON_PAGE (self), NULL);
  return self->lesson ? self->lesson->lower_id : NULL;
}

const TlLesson *
tl_lesson_page_get_lesson (TlLessonPage *self)
{
  g_return_val_if_fail (TL_IS_LESSON_PAGE (self), NULL);
  return self->lesson;
}

gboolean
tl_lesson_page_is_busy (TlLessonPage *self)
{
  g_return_val_if_fail (TL_IS_LESSON_PAGE (self), FALSE);
  return self->source_cancellable != NULL;
}

static void
tl_lesson_page_dispose (GObject *object)
{
  TlLessonPage *self = TL_LESSON_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  self->record = NULL;
  cancel_source (self);
  g_clear_pointer (&self->lesson, tl_lesson_free);
  g_clear_pointer (&self->problem, g_free);
  g_clear_pointer (&self->rungs, g_ptr_array_unref);
  G_OBJECT_CLASS (tl_lesson_page_parent_class)->dispose (object);
}

static void
tl_lesson_page_class_init (TlLessonPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_lesson_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tilelab/Tilelab/ui/tl-lesson-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlLessonPage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TlLessonPage, record_combo);
  gtk_widget_class_bind_template_child (widget_class, TlLessonPage, rung_combo);
  gtk_widget_class_bind_template_child (widget_class, TlLessonPage, source_button);
  gtk_widget_class_bind_template_child (widget_class, TlLessonPage, area);
  gtk_widget_class_bind_template_callback_full (widget_class, "record_changed_cb", G_CALLBACK (rebuild));
  gtk_widget_class_bind_template_callback (widget_class, rung_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, source_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, area_draw_cb);
}

static void
tl_lesson_page_init (TlLessonPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->record_combo), 14);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->rung_combo), 16);
  self->rungs = g_ptr_array_new_with_free_func (g_free);
  tl_paint_style_init (&self->style, 1.0);
  gtk_widget_set_sensitive (self->source_button, FALSE);
}
