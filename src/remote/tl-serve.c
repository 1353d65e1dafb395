/* tl-serve.c — the worker: jobs in as JSON lines, results out as JSON lines. */
#include "remote/tl-serve.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-memory.h"
#include "io/tl-io.h"
#include "record/tl-machine.h"
#include "remote/tl-serve-writer.h"
#include "remote/tl-wire.h"
#include "remote/tl-wire-lines.h"
#include "tl-config.h"

#include <inttypes.h>
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define UPLOAD_CHUNK (1u << 20)
/* Matrices larger than this along an axis go pooled unless asked whole. */
#define DEFAULT_MAX_SIDE 2048
/* How long the last messages may take to go when the worker ends. */
#define WRITER_FINISH_MS 5000

struct _TlServe
{
  GMainLoop *loop;
  GDataInputStream *in;
  TlServeWriter *writer;    /* the output, written on a thread of its own */
  GCancellable *stop;       /* the worker is stopping */
  TlRunner *runner;
  char *folder;             /* private temporary folder: uploads, jobs' folders */
  GHashTable *jobs;         /* id → TlServeJob, running or keeping matrices */
  GHashTable *uploads;      /* sha256 → path */
  GHashTable *upload_matrices; /* sha256 or recipe → the input, the last few */
  gboolean client_ok;       /* the client's hello was right */
  int status;
  guint n_running;
  guint give_back_timer;    /* idle: the memory jobs freed goes back to the system */
};

struct _TlServeJob
{
  TlServe *serve;
  guint64 id;
  GCancellable *cancellable;
  GCancellable *cut;        /* cuts the payloads queued before the client's latest cancel */
  gulong stop_handler;
  char *folder;
  GHashTable *matrices;     /* name → TlMatrix */
  gboolean running;
};

static void remove_tree (const char *path);
static void give_back_when_idle (TlServe *serve);

/* ---- writing ------------------------------------------------------------------- */

/* Jobs stop at their next launch boundary and commands on SIGINT; one
 * that has not within this long is left to the end of the process. */
#define STOP_GRACE_S 15

static gboolean
stop_grace_cb (gpointer data)
{
  TlServe *serve = data;
  g_debug ("serve: %u job(s) did not stop in time", serve->n_running);
  g_main_loop_quit (serve->loop);
  return G_SOURCE_REMOVE;
}

static void
stop_serving (TlServe *serve)
{
  if (!g_cancellable_is_cancelled (serve->stop))
    {
      g_debug ("serve: stopping, %u job(s) running", serve->n_running);
      g_cancellable_cancel (serve->stop);
      if (serve->n_running > 0)
        g_timeout_add_seconds (STOP_GRACE_S, stop_grace_cb, serve);
    }
  if (serve->n_running == 0)
    g_main_loop_quit (serve->loop);
}

static gboolean
writer_broken_cb (gpointer data)
{
  stop_serving (data);
  return G_SOURCE_REMOVE;
}

/* Ends b with "bytes" (size) and, for a large payload, "chunks". */
static GBytes *
end_with_size (JsonBuilder *b, guint64 size)
{
  if (size > 0)
    tl_json_member_int (b, "bytes", (gint64) size);
  if (tl_serve_writer_chunks (size))
    tl_json_member_bool (b, "chunks", TRUE);
  return tl_wire_end (b);
}

/* Queues a message and its payload for the writer; cut (NULL: none)
 * stops a large payload at its next chunk. */
static void
send_message (TlServe *serve, JsonBuilder *b, GBytes *payload, GCancellable *cut)
{
  g_autoptr (GBytes) line = end_with_size (b, payload ? g_bytes_get_size (payload) : 0);
  tl_serve_writer_send (serve->writer, line, payload && g_bytes_get_size (payload) ? payload : NULL,
                        cut);
}

void
tl_serve_add_machine (JsonBuilder *b)
{
  TlMachineFacts facts;
  tl_machine_facts_read (&facts);
  json_builder_set_member_name (b, "machine");
  json_builder_begin_object (b);
  tl_json_member_string (b, "host_name", facts.host_name);
  tl_json_member_string (b, "os", facts.os);
  tl_json_member_string (b, "cpu_model", facts.cpu_model);
  tl_json_member_int (b, "cores", facts.cores);
  json_builder_end_object (b);
  tl_machine_facts_clear (&facts);
}

static void
send_hello (TlServe *serve)
{
  TlMachineFacts facts;
  tl_machine_facts_read (&facts);
  JsonBuilder *b = tl_wire_begin ("hello");
  tl_wire_add_versions (b);
  tl_json_member_string (b, "host", facts.host_name);
  tl_json_member_int (b, "pid", getpid ());
  tl_json_member_string (b, "slurm_job", g_getenv ("SLURM_JOB_ID"));
  tl_serve_add_machine (b);
  json_builder_set_member_name (b, "kinds");
  json_builder_begin_array (b);
  for (guint i = 0; i < tl_serve_n_job_kinds; i++)
    json_builder_add_string_value (b, tl_serve_job_kinds[i].kind);
  json_builder_end_array (b);
  send_message (serve, b, NULL, NULL);
  tl_machine_facts_clear (&facts);
}

/* ---- jobs ------------------------------------------------------------------------ */

static void
job_free (TlServeJob *job)
{
  if (job->stop_handler)
    g_cancellable_disconnect (job->serve->stop, job->stop_handler);
  g_object_unref (job->cancellable);
  g_object_unref (job->cut);
  g_hash_table_unref (job->matrices);
  if (job->folder)
    {
      /* what its command wrote went to the client */
      remove_tree (job->folder);
      g_free (job->folder);
    }
  g_free (job);
}

/* A cancel: the job stops at its next launch boundary, and what it had
 * queued to send before stops at its next chunk (what it sends after,
 * its record of what finished, goes whole). */
static void
cancel_job (TlServeJob *job)
{
  g_cancellable_cancel (job->cancellable);
  g_cancellable_cancel (job->cut);
  g_object_unref (job->cut);
  job->cut = g_cancellable_new ();
}

static void
stop_job_cb (GCancellable *stop, gpointer data)
{
  cancel_job (data);
}

TlServe *
tl_serve_job_get_serve (TlServeJob *job)
{
  return job->serve;
}

guint64
tl_serve_job_get_id (TlServeJob *job)
{
  return job->id;
}

GCancellable *
tl_serve_job_get_cancellable (TlServeJob *job)
{
  return job->cancellable;
}

const char *
tl_serve_job_get_folder (TlServeJob *job)
{
  if (job->folder == NULL)
    {
      g_autofree char *name = g_strdup_printf ("job-%" G_GUINT64_FORMAT, job->id);
      job->folder = g_build_filename (job->serve->folder, name, NULL);
      g_mkdir_with_parents (job->folder, 0700);
    }
  return job->folder;
}

void
tl_serve_job_send (TlServeJob *job, JsonBuilder *b, GBytes *payload)
{
  tl_json_member_int (b, "id", (gint64) job->id);
  send_message (job->serve, b, payload, job->cut);
}

void
tl_serve_job_send_file (TlServeJob *job, JsonBuilder *b, const char *path)
{
  tl_json_member_int (b, "id", (gint64) job->id);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, &error);
  g_autoptr (GFileInfo) info = in ? g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                                   NULL, &error)
                                  : NULL;
  if (info == NULL)
    {
      tl_wire_add_error (b, error);
      send_message (job->serve, b, NULL, NULL);
      return;
    }
  /* read by the writer as it goes: the job's folder may go meanwhile */
  guint64 size = (guint64) g_file_info_get_size (info);
  g_autoptr (GBytes) line = end_with_size (b, size);
  tl_serve_writer_send_stream (job->serve->writer, line, G_INPUT_STREAM (in), size, job->cut);
}

void
tl_serve_job_keep_matrix (TlServeJob *job, const char *name, TlMatrix *matrix)
{
  if (matrix)
    g_hash_table_replace (job->matrices, g_strdup (name), tl_matrix_ref (matrix));
}

void
tl_serve_job_done (TlServeJob *job, const GError *error, int exit_code)
{
  g_return_if_fail (job->running);
  TlServe *serve = job->serve;
  JsonBuilder *b = tl_wire_begin ("done");
  const char *status = error == NULL ? "ok"
                       : g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled"
                                                                                     : "error";
  tl_json_member_string (b, "status", status);
  if (exit_code >= 0)
    tl_json_member_int (b, "exit", exit_code);
  if (error)
    tl_wire_add_error (b, error);
  tl_serve_job_send (job, b, NULL);
  job->running = FALSE;
  serve->n_running--;
  g_debug ("serve: job %" G_GUINT64_FORMAT " done (%s)", job->id, status);
  if (serve->n_running == 0)
    give_back_when_idle (serve);
  if (g_cancellable_is_cancelled (serve->stop) && serve->n_running == 0)
    g_main_loop_quit (serve->loop);
}

TlRunner *
tl_serve_get_runner (TlServe *serve)
{
  return serve->runner;
}

const char *
tl_serve_get_upload (TlServe *serve, const char *sha256, GError **error)
{
  const char *path = sha256 ? g_hash_table_lookup (serve->uploads, sha256) : NULL;
  if (path == NULL)
    g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                 _("no upload with SHA-256 %s reached the worker"), sha256 ? sha256 : "(none)");
  return path;
}

/* How many inputs stay in memory (uploaded ones as read from their
 * files, generated ones as made: a job's A and B, and the last job's);
 * more are read or made again. */
#define KEPT_UPLOAD_MATRICES 4

TlMatrix *
tl_serve_get_upload_matrix (TlServe *serve, const char *sha256, const char *name,
                            GError **error)
{
  TlMatrix *m = sha256 ? g_hash_table_lookup (serve->upload_matrices, sha256) : NULL;
  if (m)
    return tl_matrix_ref (m);
  const char *path = tl_serve_get_upload (serve, sha256, error);
  /* uploads travel as NPY; the client names what it was */
  m = path ? tl_matrix_load (path, TL_FORMAT_NPY, error) : NULL;
  if (m == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  tl_serve_keep_input (serve, sha256, m);
  return m;
}

TlMatrix *
tl_serve_get_kept_input (TlServe *serve, const char *key)
{
  TlMatrix *m = g_hash_table_lookup (serve->upload_matrices, key);
  return m ? tl_matrix_ref (m) : NULL;
}

void
tl_serve_keep_input (TlServe *serve, const char *key, TlMatrix *matrix)
{
  if (g_hash_table_size (serve->upload_matrices) >= KEPT_UPLOAD_MATRICES)
    g_hash_table_remove_all (serve->upload_matrices);
  g_hash_table_replace (serve->upload_matrices, g_strdup (key), tl_matrix_ref (matrix));
}

/* Finished jobs keep their matrices until the client starts another (or
 * the worker has been idle a while). */
static void
forget_finished_jobs (TlServe *serve)
{
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, serve->jobs);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (!((TlServeJob *) value)->running)
      g_hash_table_iter_remove (&it);
}

static void
start_job (TlServe *serve, JsonObject *msg)
{
  guint64 id = tl_wire_get_count (msg, "id", 0);
  const char *kind = tl_json_object_get_string (msg, "kind", "");
  forget_finished_jobs (serve);
  g_clear_handle_id (&serve->give_back_timer, g_source_remove);
  TlServeJob *job = g_new0 (TlServeJob, 1);
  job->serve = serve;
  job->id = id;
  job->cancellable = g_cancellable_new ();
  job->cut = g_cancellable_new ();
  job->matrices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) tl_matrix_unref);
  job->running = TRUE;
  job->stop_handler = g_cancellable_connect (serve->stop, G_CALLBACK (stop_job_cb), job, NULL);
  serve->n_running++;
  g_hash_table_replace (serve->jobs, GUINT_TO_POINTER (id), job);

  g_autoptr (GError) error = NULL;
  for (guint i = 0; i < tl_serve_n_job_kinds; i++)
    if (strcmp (tl_serve_job_kinds[i].kind, kind) == 0)
      {
        g_debug ("serve: job %" G_GUINT64_FORMAT " (%s)", id, kind);
        if (!tl_serve_job_kinds[i].start (job, msg, &error))
          tl_serve_job_done (job, error, -1);
        return;
      }
  error = g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                       _("this worker (Tilelab %s) runs no jobs of kind “%s”"), TL_VERSION, kind);
  tl_serve_job_done (job, error, -1);
}

/* ---- matrices on request ------------------------------------------------------------ */

void
tl_serve_job_send_matrix (TlServeJob *job, const char *name, TlMatrix *m, gint64 max_side,
                          guint64 req)
{
  JsonBuilder *b = tl_wire_begin ("matrix");
  if (req)
    tl_json_member_int (b, "req", (gint64) req);
  tl_json_member_string (b, "name", name);
  g_autoptr (GError) error = NULL;
  guint fr = 1, fc = 1;
  g_autoptr (TlMatrix) sent = NULL;
  if (m == NULL)
    error = g_error_new (TL_ERROR, TL_ERROR_INVALID, _("job %" PRIu64
                                                       " keeps no matrix “%s”"), job->id, name);
  else if (max_side > 0)
    sent = tl_wire_pool_mean (m, max_side, &fr, &fc, &error);
  else /* the writer sends contiguous rows */
    sent = tl_matrix_is_contiguous (m) ? tl_matrix_ref (m) : tl_matrix_copy (m, &error);
  if (sent == NULL)
    {
      tl_wire_add_error (b, error);
      tl_serve_job_send (job, b, NULL);
      return;
    }
  tl_json_member_int (b, "rows", m->rows);
  tl_json_member_int (b, "cols", m->cols);
  tl_json_member_int (b, "factor_r", fr);
  tl_json_member_int (b, "factor_c", fc);
  tl_json_member_int (b, "id", (gint64) job->id);
  /* the NPY header and then the rows straight from the matrix, no copy between */
  g_autoptr (GBytes) header = tl_wire_npy_header (sent->dtype, sent->rows, sent->cols);
  tl_wire_add_matrix_form (b, sent);
  if (tl_serve_writer_chunks (g_bytes_get_size (header) + tl_matrix_n_bytes (sent)))
    tl_json_member_bool (b, "chunks", TRUE);
  g_autoptr (GBytes) line = tl_wire_end (b);
  tl_serve_writer_send_matrix (job->serve->writer, line, header, sent, job->cut);
}

static void
answer_matrix (TlServe *serve, JsonObject *msg)
{
  guint64 id = tl_wire_get_count (msg, "id", 0);
  guint64 req = tl_wire_get_count (msg, "req", 0);
  const char *name = tl_json_object_get_string (msg, "name", "");
  gint64 max_side = tl_wire_get_count (msg, "max_side", DEFAULT_MAX_SIDE);
  TlServeJob *job = g_hash_table_lookup (serve->jobs, GUINT_TO_POINTER (id));
  if (job == NULL)
    {
      JsonBuilder *b = tl_wire_begin ("matrix");
      tl_json_member_int (b, "id", (gint64) id);
      tl_json_member_int (b, "req", (gint64) req);
      g_autoptr (GError) error = g_error_new (TL_ERROR, TL_ERROR_INVALID,
                                              _("no job %" PRIu64 " keeps matrices"), id);
      tl_wire_add_error (b, error);
      send_message (serve, b, NULL, NULL);
      return;
    }
  tl_serve_job_send_matrix (job, name, g_hash_table_lookup (job->matrices, name), max_side, req);
}

/* ---- uploads ------------------------------------------------------------------------ */

typedef struct
{
  TlServe *serve;
  char *sha256;
  char *path;
  GOutputStream *file;
  GChecksum *checksum;
  guint64 left;
  gboolean failed;
} Upload;

static void read_next_line (TlServe *serve);
static void read_upload_chunk (Upload *up);

static void
upload_finish (Upload *up)
{
  TlServe *serve = up->serve;
  g_output_stream_close (up->file, NULL, NULL);
  const char *got = g_checksum_get_string (up->checksum);
  if (!up->failed && strcmp (got, up->sha256) == 0)
    g_hash_table_replace (serve->uploads, g_strdup (up->sha256), g_strdup (up->path));
  else
    {
      g_debug ("serve: upload %s damaged or not stored", up->sha256);
      g_unlink (up->path);
    }
  g_object_unref (up->file);
  g_checksum_free (up->checksum);
  g_free (up->sha256);
  g_free (up->path);
  g_free (up);
  read_next_line (serve);
}

static void
upload_chunk_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Upload *up = data;
  g_autoptr (GBytes) chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result,
                                                              NULL);
  gsize size = chunk ? g_bytes_get_size (chunk) : 0;
  if (size == 0)
    {
      /* the input ended inside an upload */
      up->failed = TRUE;
      up->left = 0;
      TlServe *serve = up->serve;
      upload_finish (up);
      stop_serving (serve);
      return;
    }
  const guchar *bytes = g_bytes_get_data (chunk, NULL);
  g_checksum_update (up->checksum, bytes, size);
  if (!up->failed && !g_output_stream_write_all (up->file, bytes, size, NULL, NULL, NULL))
    up->failed = TRUE; /* the disk is full: the bytes are still read to stay in step */
  up->left -= size;
  if (up->left == 0)
    upload_finish (up);
  else
    read_upload_chunk (up);
}

static void
read_upload_chunk (Upload *up)
{
  g_input_stream_read_bytes_async (G_INPUT_STREAM (up->serve->in), MIN (up->left, UPLOAD_CHUNK),
                                   G_PRIORITY_DEFAULT, NULL, upload_chunk_cb, up);
}

static gboolean
start_upload (TlServe *serve, JsonObject *msg)
{
  const char *sha = tl_json_object_get_string (msg, "sha256", "");
  gint64 size = tl_wire_get_count (msg, "bytes", 0);
  if (size == 0)
    return FALSE;
  Upload *up = g_new0 (Upload, 1);
  up->serve = serve;
  up->sha256 = g_strdup (sha);
  up->left = size;
  up->checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *dir = g_build_filename (serve->folder, "uploads", NULL);
  g_mkdir_with_parents (dir, 0700);
  g_autofree char *leaf = g_strdup_printf ("upload-%u", g_hash_table_size (serve->uploads));
  up->path = g_build_filename (dir, leaf, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (up->path);
  up->file = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_PRIVATE, NULL, NULL));
  if (up->file == NULL)
    {
      up->failed = TRUE;
      up->file = g_memory_output_stream_new_resizable ();
    }
  read_upload_chunk (up);
  return TRUE;
}

/* ---- reading the client --------------------------------------------------------------- */

static void
refuse (TlServe *serve, GError *error)
{
  JsonBuilder *b = tl_wire_begin ("refused");
  tl_wire_add_error (b, error);
  send_message (serve, b, NULL, NULL);
  serve->status = 3;
  stop_serving (serve);
}

/* Handles one message; FALSE when reading must wait (an upload reads its bytes first). */
static gboolean
handle (TlServe *serve, const char *type, JsonObject *msg)
{
  if (!serve->client_ok)
    {
      g_autoptr (GError) error = NULL;
      if (strcmp (type, "hello") != 0)
        error = g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                             _("the client's first message must be its hello, not “%s”"), type);
      else if (tl_wire_check_versions (msg, _("The client"), &error))
        serve->client_ok = TRUE;
      if (error)
        refuse (serve, error);
      return TRUE;
    }
  if (strcmp (type, "upload") == 0)
    return !start_upload (serve, msg);
  if (strcmp (type, "job") == 0)
    start_job (serve, msg);
  else if (strcmp (type, "cancel") == 0)
    {
      TlServeJob *job = g_hash_table_lookup (serve->jobs,
                                             GUINT_TO_POINTER (tl_wire_get_count (msg, "id", 0)));
      g_debug ("serve: cancel of job %" G_GINT64_FORMAT " at %.3f ms (monotonic)",
               tl_wire_get_count (msg, "id", 0), g_get_monotonic_time () / 1000.0);
      if (job)
        cancel_job (job);
    }
  else if (strcmp (type, "matrix") == 0)
    answer_matrix (serve, msg);
  else if (strcmp (type, "release") == 0)
    {
      gpointer key = GUINT_TO_POINTER (tl_wire_get_count (msg, "id", 0));
      TlServeJob *job = g_hash_table_lookup (serve->jobs, key);
      if (job && !job->running)
        g_hash_table_remove (serve->jobs, key);
    }
  else
    {
      JsonBuilder *b = tl_wire_begin ("error");
      g_autoptr (GError) error = g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                              _("unknown message “%s”"), type);
      tl_wire_add_error (b, error);
      send_message (serve, b, NULL, NULL);
    }
  return TRUE;
}

static void
line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlServe *serve = data;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = tl_wire_read_line_finish (G_BUFFERED_INPUT_STREAM (source), result,
                                                    &length, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      /* what follows it cannot be read in step */
      g_autoptr (GError) refused = g_error_new_literal (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                                        error->message);
      refuse (serve, refused);
      return;
    }
  if (line == NULL)
    {
      g_debug ("serve: the input ended");
      stop_serving (serve);
      return;
    }
  const char *type = NULL;
  g_autoptr (JsonObject) msg = tl_wire_parse (line, length, &type, &error);
  if (msg == NULL)
    {
      if (!serve->client_ok)
        {
          refuse (serve, error);
          return;
        }
      read_next_line (serve);
      return;
    }
  if (handle (serve, type, msg) && !g_cancellable_is_cancelled (serve->stop))
    read_next_line (serve);
}

static void
read_next_line (TlServe *serve)
{
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (serve->in), TL_WIRE_MAX_LINE, NULL, line_cb,
                           serve);
}

static gboolean
signal_cb (gpointer data)
{
  g_debug ("serve: signalled");
  stop_serving (data);
  return G_SOURCE_CONTINUE;
}

/* ---- the loop --------------------------------------------------------------------------- */

/* The worker makes the same large blocks job after job (A and B, each
 * kernel's C, the reference).  glibc gives blocks above its mmap
 * threshold back to the kernel when they are freed, and trims the heap's
 * free top, so the next job faults every page in again (a few µs a
 * page: tens of ms for a 1024² float64 matrix).  Blocks up to 32 MiB
 * (glibc's largest threshold) come from the heap instead, and up to
 * 256 MiB of freed memory stays for the next job: the price is that a
 * worker between jobs holds what its last job used.  One arena for every
 * thread: malloc_trim gives back the free top of the main arena only,
 * and a job's blocks freed on a runner thread's own arena into its top
 * (as C and the reference often are, by the order of their frees) would
 * stay resident however long the worker idles. */
#define WORKER_MMAP_THRESHOLD (32 << 20)
#define WORKER_TRIM_THRESHOLD (256 << 20)

static void
keep_freed_memory (void)
{
#ifdef M_MMAP_THRESHOLD
  mallopt (M_MMAP_THRESHOLD, WORKER_MMAP_THRESHOLD);
  mallopt (M_TRIM_THRESHOLD, WORKER_TRIM_THRESHOLD);
#endif
  tl_memory_share_one_arena ();
}

/* ...until no job has run for a while: then the finished jobs' matrices
 * go (a "matrix" request comes right after its job, if at all) and the
 * freed memory goes back to the system, so a worker kept beside the app
 * (its user kernels' worker) or waiting on a server holds its kept
 * inputs, not the peak of its largest job. */
#define GIVE_BACK_IDLE_S 2

static gboolean
give_back_cb (gpointer data)
{
  TlServe *serve = data;
  serve->give_back_timer = 0;
  forget_finished_jobs (serve);
#ifdef __GLIBC__
  malloc_trim (0);
#endif
  g_debug ("serve: idle, freed memory given back");
  return G_SOURCE_REMOVE;
}

static void
give_back_when_idle (TlServe *serve)
{
  g_clear_handle_id (&serve->give_back_timer, g_source_remove);
  serve->give_back_timer = g_timeout_add_seconds (GIVE_BACK_IDLE_S, give_back_cb, serve);
}

int
tl_serve_run (GInputStream *in, GOutputStream *out)
{
  signal (SIGPIPE, SIG_IGN);
  keep_freed_memory ();
  TlServe serve = { 0 };
  serve.loop = g_main_loop_new (NULL, FALSE);
  serve.in = g_data_input_stream_new (in);
  serve.writer = tl_serve_writer_new (out, writer_broken_cb, &serve);
  serve.stop = g_cancellable_new ();
  serve.runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  serve.jobs = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) job_free);
  serve.uploads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  serve.upload_matrices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                 (GDestroyNotify) tl_matrix_unref);
  g_autoptr (GError) error = NULL;
  serve.folder = g_dir_make_tmp ("tilelab-worker-XXXXXX", &error);
  if (serve.folder == NULL)
    {
      g_printerr ("tilelab-cli serve: %s\n", error->message);
      return 1;
    }
  guint signals[] = {
    g_unix_signal_add (SIGINT, signal_cb, &serve),
    g_unix_signal_add (SIGTERM, signal_cb, &serve),
    g_unix_signal_add (SIGHUP, signal_cb, &serve),
  };

  send_hello (&serve);
  read_next_line (&serve);
  g_main_loop_run (serve.loop);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (signals[i]);
  /* the last messages go out; a client that reads nothing more is left */
  gboolean flushed = tl_serve_writer_finish (serve.writer, WRITER_FINISH_MS);
  while (g_source_remove_by_user_data (&serve))
    ;
  if (serve.n_running > 0 || !flushed)
    {
      /* a job that would not stop: the process ends around it */
      remove_tree (serve.folder);
      return serve.status ? serve.status : 1;
    }
  g_hash_table_unref (serve.jobs);
  g_clear_object (&serve.runner);
  remove_tree (serve.folder);
  g_free (serve.folder);
  g_hash_table_unref (serve.uploads);
  g_hash_table_unref (serve.upload_matrices);
  g_object_unref (serve.stop);
  g_object_unref (serve.in);
  g_main_loop_unref (serve.loop);
  return serve.status;
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}
