/* tl-export.c — the view on show as a picture file, drawn off the main loop. */
#include "tl-export.h"

#include <glib/gi18n-lib.h>

struct _TlExport
{
  TlSession *session;
  TlRenderOptions options;
  char *strings[8];           /* the options' strings, owned */
  TlRunRecord *record;        /* a reference, or NULL */
  GPtrArray *sweep;           /* compare's size sweep: the session's records, referenced */
  TlLuRecorder **lu;          /* held (tl_session_hold_lu_record), or NULL */
  TlSheet *sheet;             /* the options' sheet, a reference, or NULL */
};

TlExport *
tl_export_new (TlSession *session, TlPage *page, TlPage *fallback, gboolean presentation)
{
  g_return_val_if_fail (TL_IS_SESSION (session) && TL_IS_PAGE (page), NULL);

  TlExport *self = g_new0 (TlExport, 1);
  self->session = g_object_ref (session);
  if (!tl_page_export_options (page, &self->options) && fallback != NULL)
    {
      page = fallback;
      tl_page_export_options (page, &self->options);
    }
  TlRunRecord *record = tl_page_export_record (page);
  if (record == NULL)
    record = tl_session_get_record (session);
  self->record = record ? tl_run_record_ref (record) : NULL;
  self->lu = tl_session_hold_lu_record (session);

  /* the page's strings may change or go while the file is drawn */
  TlRenderOptions *o = &self->options;
  const char **fields[] = { &o->kernels, &o->matrix, &o->color, &o->timeline_color, &o->value_scale,
                            &o->pool, &o->selected, &o->counter };
  g_assert (G_N_ELEMENTS (fields) == G_N_ELEMENTS (self->strings));
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    *fields[i] = self->strings[i] = g_strdup (*fields[i]);
  if (o->sheet)
    o->sheet = self->sheet = tl_sheet_ref ((TlSheet *) o->sheet);
  if (o->view == TL_RENDER_COMPARE && o->charts != TL_RENDER_CHARTS_BARS)
    {
      GPtrArray *history = tl_session_get_history (session);
      self->sweep = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_unref);
      for (guint i = 0; history && i < history->len; i++)
        g_ptr_array_add (self->sweep, tl_run_record_ref (history->pdata[i]));
    }
  /* slides: 1600×900 units (Compare's bars over its sweep 1600×1500),
   * PNG at twice the pixels; the page's size on screen does not matter */
  o->width = o->height = 0;
  o->scale = 2;
  o->presentation = presentation;
  return self;
}

void
tl_export_free (TlExport *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->session);
  for (guint i = 0; i < G_N_ELEMENTS (self->strings); i++)
    g_free (self->strings[i]);
  g_clear_pointer (&self->record, tl_run_record_unref);
  g_clear_pointer (&self->lu, tl_lu_record_release);
  g_clear_pointer (&self->sheet, tl_sheet_unref);
  g_clear_pointer (&self->sweep, g_ptr_array_unref);
  g_free (self);
}

/* ---- the file's name ---------------------------------------------------------- */

static void
append_part (GString *name, const char *part)
{
  if (part == NULL || *part == '\0')
    return;
  if (name->len)
    g_string_append_c (name, '-');
  for (const char *p = part; *p; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '.' || *p == '_' ? *p : '-');
}

char *
tl_export_suggest_name (const TlExport *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  const TlRenderOptions *o = &self->options;
  const TlJob *job = self->record ? self->record->job : NULL;
  const TlLuRecorder *lu = self->lu ? *self->lu : NULL;
  GString *name = g_string_new (NULL);

  append_part (name, o->view == TL_RENDER_HEATMAP ? "matrix"
                     : o->view == TL_RENDER_BLOCKS_AND_TIMELINE ? "blocks"
                     : o->view == TL_RENDER_SHEET && o->sheet ? o->sheet->name : tl_render_view_name (o->view));
  if (o->view == TL_RENDER_HEATMAP)
    append_part (name, o->matrix ? o->matrix : "C");
  if (o->view == TL_RENDER_GAUSS && lu)
    {
      append_part (name, lu->kernel_id);
      g_autofree char *size = g_strdup_printf ("%ux%u", lu->rows, lu->cols);
      g_autofree char *step = g_strdup_printf ("step-%u", o->step);
      append_part (name, size);
      append_part (name, step);
    }
  else
    {
      if (o->kernels == NULL)
        append_part (name, o->selected);
      else
        {
          g_auto (GStrv) ids = g_strsplit (o->kernels, ",", 0);
          g_autofree char *joined = g_strjoinv ("-vs-", ids);
          append_part (name, joined);
        }
      if (job && job->m > 0)
        {
          g_autofree char *size = g_strdup_printf ("%zux%zux%zu", job->m, job->k, job->n);
          append_part (name, size);
        }
    }
  g_string_append (name, ".png");
  return g_string_free (name, FALSE);
}

/* ---- drawing and writing, on GIO's pool ---------------------------------------------- */

static void
write_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TlExport *self = data;
  GFile *file = g_object_get_data (G_OBJECT (task), "file");
  g_autofree char *path = g_file_get_path (file);
  TlRenderInput input = { .record = self->record, .lu = self->lu ? *self->lu : NULL,
                          .sweep = self->sweep };
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (path == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s",
                             _("Pictures can only be exported to local files."));
  else if (!tl_render_to_file_with (&input, &self->options, path, NULL, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* on the main loop: the session hears how it went, then the caller */
static void
write_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GTask *outer = user_data;
  TlSession *session = TL_SESSION (source);
  GFile *file = g_task_get_task_data (outer);
  GError *error = NULL;

  tl_session_remove_export (session, g_task_get_cancellable (G_TASK (result)));
  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *where = g_file_get_parse_name (file);
      g_autofree char *text = g_strdup_printf (_("Exported to %s"), where);
      tl_session_set_status (session, text);
      g_task_return_boolean (outer, TRUE);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *where = g_file_get_parse_name (file);
      g_autofree char *text = g_strdup_printf (_("Export cancelled: %s was not written"), where);
      tl_session_set_status (session, text);
      g_task_return_error (outer, error);
    }
  else
    {
      tl_session_report_error (session, _("Could not export the view."), error);
      g_task_return_error (outer, error);
    }
  g_object_unref (outer);
}

void
tl_export_write_async (TlExport *self, GFile *file, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (self != NULL && G_IS_FILE (file));

  /* Escape (tl_session_cancel) stops it, whoever asked */
  g_autoptr (GCancellable) stop = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  GTask *outer = g_task_new (self->session, stop, callback, user_data);
  g_task_set_source_tag (outer, tl_export_write_async);
  g_task_set_task_data (outer, g_object_ref (file), g_object_unref);

  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *what = g_strdup_printf (_("exporting %s…"), name);
  tl_session_add_export (self->session, stop, what);

  g_autoptr (GTask) task = g_task_new (self->session, stop, write_done_cb, outer);
  g_object_set_data_full (G_OBJECT (task), "file", g_object_ref (file), g_object_unref);
  g_task_set_task_data (task, self, (GDestroyNotify) tl_export_free);
  g_task_run_in_thread (task, write_thread);
}

static void
relay_cb (GObject *session, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;
  if (tl_export_write_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
tl_export_write_as_async (TlExport *self, gpointer source_object, GFile *file, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task = g_task_new (source_object, cancellable, callback, user_data);
  tl_export_write_async (self, file, cancellable, relay_cb, task);
}

gboolean
tl_export_write_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
