/* tl-record-file.c — record files: one parse, the kind's reader, the matrices beside. */
#include "record/tl-record-file.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "io/tl-io.h"
#include "io/tl-npy.h"
#include "record/tl-record-private.h"
#include "record/tl-gauss-record.h"

TlMatrix *
tl_run_record_load_matrix (const TlRunRecord *record, const char *relative_path,
                           TlRecordMatrix which, GError **error)
{
  g_return_val_if_fail (record != NULL && relative_path != NULL, NULL);
  if (!tl_record_check_relative_path (relative_path, "matrix path", error))
    return NULL;
  g_autofree char *full = g_build_filename (record->base_dir ? record->base_dir : ".",
                                            relative_path, NULL);
  /* the job's shape: A is m×k, B k×n, the reference and each C m×n —
   * checked on the header first, so a 1 × 350,000,000 file named as a
   * 70 × 50 C is refused without reading 1.4 GB */
  const TlJob *job = record->job;
  gboolean shaped = job != NULL && g_strcmp0 (job->kind, "gemm") == 0 && job->m != 0;
  gsize rows = 0, cols = 0;
  guint64 file_rows = 0, file_cols = 0;
  if (shaped)
    {
      rows = which == TL_RECORD_MATRIX_B ? job->k : job->m;
      cols = which == TL_RECORD_MATRIX_A ? job->k : job->n;
      if (!tl_npy_read_shape (full, &file_rows, &file_cols, error))
        return NULL;
    }
  g_autoptr (TlMatrix) matrix = NULL;
  if (!shaped || (file_rows == rows && file_cols == cols))
    matrix = tl_matrix_load (full, TL_FORMAT_NPY, error);
  if (shaped && (file_rows != rows || file_cols != cols))
    {
      g_autofree char *name = g_filename_display_name (full);
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("%s: a %" PRIu64 "×%" PRIu64 " matrix, but the run "
                     "record's job makes it %zu×%zu"),
                   name, file_rows, file_cols, rows, cols);
      return NULL;
    }
  return g_steal_pointer (&matrix);
}

/* rel's matrix into *out (NULL when the record names none). */
static gboolean
load_named (const TlRunRecord *record, const char *rel, TlRecordMatrix which, TlMatrix **out,
            GError **error)
{
  *out = NULL;
  if (rel == NULL)
    return TRUE;
  *out = tl_run_record_load_matrix (record, rel, which, error);
  return *out != NULL;
}

gboolean
tl_run_record_load_matrices (TlRunRecord *record, GError **error)
{
  g_return_val_if_fail (record != NULL, FALSE);
  /* slots 0–2: A, B, the reference; then each run's C */
  const guint n = 3 + record->runs->len;
  g_autofree TlMatrix **loaded = g_new0 (TlMatrix *, n);
  const char *rel[3] = { record->a_path, record->b_path, record->reference_path };
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < n; i++)
    {
      const TlKernelRun *run = i >= 3 ? record->runs->pdata[i - 3] : NULL;
      TlRecordMatrix which = i == 0 ? TL_RECORD_MATRIX_A : i == 1 ? TL_RECORD_MATRIX_B
                                                                  : TL_RECORD_MATRIX_C;
      ok = load_named (record, run ? run->c_path : rel[i], which, &loaded[i], error);
    }
  if (!ok)
    {
      for (guint i = 0; i < n; i++)
        g_clear_pointer (&loaded[i], tl_matrix_unref);
      return FALSE;
    }
  TlMatrix **slot[3] = { &record->a, &record->b, &record->reference };
  for (guint i = 0; i < n; i++)
    {
      if (loaded[i] == NULL)
        continue;
      TlMatrix **dst = i < 3 ? slot[i] : &((TlKernelRun *) record->runs->pdata[i - 3])->c;
      g_clear_pointer (dst, tl_matrix_unref);
      *dst = loaded[i];
    }
  return TRUE;
}

/* The run record in root, with the folder of path noted for its matrices. */
static TlRunRecord *
run_record_from_root (JsonNode *root, const char *path, TlRecordLoadFlags flags, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (TlRunRecord) record = tl_run_record_from_json (root, &local);
  if (record == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
      return NULL;
    }
  record->base_dir = g_path_get_dirname (path);
  if ((flags & TL_RECORD_LOAD_MATRICES) && !tl_run_record_load_matrices (record, error))
    return NULL;
  return g_steal_pointer (&record);
}

/* A run record with its Gauss record ($.extensions.lu), if it has one.
 * The Gauss record is read from the document as it was parsed, its long
 * arrays still packed, and then taken out of the extensions, which the
 * run record keeps as a tree (some 80 bytes a number): it lives on in
 * file->lu.  A run record that is wrong is said before its Gauss record. */
static gboolean
read_run_record (TlRecordFile *file, JsonNode *root, const char *path, const char *name,
                 TlRecordLoadFlags flags, GError **error)
{
  g_autoptr (GError) lu_error = NULL;
  JsonNode *ext = json_object_get_member (json_node_get_object (root), "extensions");
  if (ext && JSON_NODE_HOLDS_OBJECT (ext) && json_object_has_member (json_node_get_object (ext), "lu"))
    {
      JsonObject *ext_obj = json_node_get_object (ext);
      file->lu = tl_lu_recorder_from_json (json_object_get_member (ext_obj, "lu"), &lu_error);
      json_object_remove_member (ext_obj, "lu");
    }
  file->record = run_record_from_root (root, path, flags, error);
  if (file->record == NULL)
    return FALSE;
  if (lu_error)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, "%s: $.extensions.lu: %s", name,
                   lu_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
tl_record_file_load (TlRecordFile *file, const char *path, TlRecordLoadFlags flags,
                     GError **error)
{
  g_return_val_if_fail (file != NULL && path != NULL, FALSE);
  *file = (TlRecordFile) {0};

  g_autoptr (TlJsonDoc) doc = tl_json_doc_load_file (path, error);
  if (doc == NULL)
    return FALSE;
  JsonNode *root = tl_json_doc_root (doc);
  g_autofree char *name = g_filename_display_name (path);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE,
                   _("%s: neither a run record nor a Gauss record (expected a JSON object)"), name);
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (root);
  if (g_strcmp0 (tl_json_object_get_string (obj, "kind", ""), "lu") == 0)
    {
      g_autoptr (GError) local = NULL;
      file->lu = tl_lu_recorder_from_json (root, &local);
      if (file->lu == NULL)
        {
          g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
          return FALSE;
        }
      return TRUE;
    }
  if (!read_run_record (file, root, path, name, flags, error))
    {
      tl_record_file_clear (file);
      return FALSE;
    }
  return TRUE;
}

void
tl_record_file_clear (TlRecordFile *file)
{
  g_return_if_fail (file != NULL);
  g_clear_pointer (&file->record, tl_run_record_unref);
  g_clear_pointer (&file->lu, tl_lu_recorder_free);
}

TlRunRecord *
tl_run_record_load (const char *path, TlRecordLoadFlags flags, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr (GError) local = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_load_file (path, &local);
  if (doc == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, _("run record %s"), local->message);
      return NULL;
    }
  return run_record_from_root (tl_json_doc_root (doc), path, flags, error);
}
