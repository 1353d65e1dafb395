/* tl-serve-user.c — the worker's "user-gemm" job: a student's kernel, run here.
 *
 * The job carries the kernel file's text and the build its client
 * compiled for this machine's GPU (tl-user-job.h): the images arrive as
 * uploads, so the worker never runs NVRTC and a kernel is compiled once.
 * On the runner's worker thread — the one that owns the GPUs — its
 * geometry is evaluated at the job's size and the image run through the
 * ladder's harness.  The harness's progress, the numbers and C go back as
 * they come.  A fault ruins this process's GPU: the job says so in words
 * and the client ends this worker (the next run starts a fresh one).
 */
#include "remote/tl-serve-kinds.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "io/tl-io.h"
#include "remote/tl-user-job.h"
#include "remote/tl-wire.h"
#include "run/tl-user-run.h"
#include "run/tl-user-worker.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  gatomicrefcount ref_count;
  TlServeJob *job;           /* NULL once done: messages posted late are dropped */
  GMainContext *context;     /* the worker's main loop, where messages are sent */
  TlUserJobRequest request;
  TlMatrix *a, *b;
  TlUserBuild *build;        /* the client's, from the uploaded images */
  char *name;                /* the file's name, for messages */
} UserJob;

typedef struct
{
  TlGpuGemmResult result;
  TlMatrix *c;
} UserOutcome;

static UserJob *
user_job_ref (UserJob *u)
{
  g_atomic_ref_count_inc (&u->ref_count);
  return u;
}

static void
user_job_unref (UserJob *u)
{
  if (!g_atomic_ref_count_dec (&u->ref_count))
    return;
  g_main_context_unref (u->context);
  tl_user_job_request_clear (&u->request);
  g_clear_pointer (&u->a, tl_matrix_unref);
  g_clear_pointer (&u->b, tl_matrix_unref);
  g_clear_pointer (&u->build, tl_user_build_unref);
  g_free (u->name);
  g_free (u);
}

static void
user_outcome_free (UserOutcome *o)
{
  tl_user_worker_result_clear (&o->result);
  g_clear_pointer (&o->c, tl_matrix_unref);
  g_free (o);
}

/* ---- messages from the runner's thread ---------------------------------------- */

typedef struct
{
  UserJob *u;
  JsonBuilder *message;
} Post;

static gboolean
post_cb (gpointer data)
{
  Post *p = data;
  if (p->u->job != NULL)
    tl_serve_job_send (p->u->job, g_steal_pointer (&p->message), NULL);
  return G_SOURCE_REMOVE;
}

static void
post_free (gpointer data)
{
  Post *p = data;
  g_clear_object (&p->message);
  user_job_unref (p->u);
  g_free (p);
}

/* Sends message from the worker's main loop (in the order posted, before
 * the job's end, which comes back the same way). */
static void
post (UserJob *u, JsonBuilder *message)
{
  Post *p = g_new0 (Post, 1);
  p->u = user_job_ref (u);
  p->message = message;
  g_main_context_invoke_full (u->context, G_PRIORITY_DEFAULT, post_cb, p, post_free);
}

/* What the harness's callbacks are handed. */
typedef struct
{
  UserJob *u;
  GCancellable *cancellable;
} Harness;

static void
progress_cb (TlGpuStage stage, int step, int total, void *data)
{
  UserJob *u = ((Harness *) data)->u;
  JsonBuilder *b = tl_wire_begin ("progress");
  tl_json_member_string (b, "kernel", u->name);
  tl_json_member_string (b, "stage", tl_user_job_stage_name (stage));
  tl_json_member_int (b, "step", step);
  tl_json_member_int (b, "total", total);
  json_builder_set_member_name (b, "fraction");
  json_builder_add_double_value (b, total > 0 ? CLAMP ((double) step / total, 0.0, 1.0) : 0.0);
  post (u, b);
}

static int
cancelled_cb (void *data)
{
  return g_cancellable_is_cancelled (((Harness *) data)->cancellable);
}

/* ---- on the runner's thread ------------------------------------------------------ */

/* The kernels sent so far, by their path and text (parsed once). */
static GMutex kernels_lock;
static GHashTable *kernels;

static TlUserKernel *
kernel_for (const TlUserJobRequest *r, GError **error)
{
  g_autofree char *key = g_strconcat (r->path, "\n", r->source, NULL);
  g_mutex_lock (&kernels_lock);
  if (kernels == NULL)
    kernels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) tl_user_kernel_unref);
  TlUserKernel *kernel = g_hash_table_lookup (kernels, key);
  if (kernel == NULL && (kernel = tl_user_kernel_parse (r->path, r->source, error)) != NULL)
    g_hash_table_insert (kernels, g_steal_pointer (&key), kernel);
  if (kernel)
    tl_user_kernel_ref (kernel);
  g_mutex_unlock (&kernels_lock);
  return kernel;
}

static gpointer
run_user_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  UserJob *u = data;
  g_autoptr (TlUserKernel) kernel = kernel_for (&u->request, error);
  if (kernel == NULL)
    return NULL;
  TlGpuSession *gpu = tl_runner_job_get_gpu (job);
  UserOutcome *o = g_new0 (UserOutcome, 1);
  o->c = tl_matrix_new ((TlDtype) u->request.args.dtype, (gsize) u->request.args.m,
                        (gsize) u->request.args.n, error);
  if (o->c == NULL)
    {
      user_outcome_free (o);
      return NULL;
    }
  Harness harness = { u, cancellable };
  TlGpuGemmArgs args = u->request.args;
  args.a = u->a->data;
  args.b = u->b->data;
  args.c = o->c->data;
  args.progress = progress_cb;
  args.cancelled = cancelled_cb;
  args.user_data = &harness;
  TlUserGeometry geometry;
  if (!tl_user_run_here (kernel, u->build, gpu, u->request.device, &args, TRUE, &geometry,
                         &o->result, error))
    {
      user_outcome_free (o);
      return NULL;
    }
  return o;
}

/* ---- on the worker's main loop ---------------------------------------------------- */

static void
user_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  UserJob *u = data;
  g_autoptr (GError) error = NULL;
  UserOutcome *o = tl_runner_run_func_finish (TL_RUNNER (source), result, &error);
  if (o != NULL)
    {
      JsonBuilder *b = tl_wire_begin ("result");
      tl_user_job_add_result (b, &o->result);
      tl_serve_job_send (u->job, b, NULL);
      tl_serve_job_send_matrix (u->job, "c", o->c, 0, 0);
      user_outcome_free (o);
    }
  tl_serve_job_done (u->job, error, -1);
  u->job = NULL;
  user_job_unref (u);
}

static GBytes *
load_image (TlServe *serve, const char *sha, GError **error)
{
  const char *path = tl_serve_get_upload (serve, sha, error);
  gchar *data = NULL;
  gsize size = 0;
  if (path == NULL || !g_file_get_contents (path, &data, &size, error))
    {
      g_prefix_error (error, "the kernel's image: ");
      return NULL;
    }
  return g_bytes_new_take (data, size);
}

/* The build the client sent: its images loaded from their uploads. */
static TlUserBuild *
load_build (TlServe *serve, const TlUserJobRequest *r, GError **error)
{
  g_autoptr (GBytes) image = load_image (serve, r->build.sha_image, error);
  g_autoptr (GBytes) timed = image && r->build.sha_timed
                               ? load_image (serve, r->build.sha_timed, error)
                               : NULL;
  if (image == NULL || (r->build.sha_timed && timed == NULL))
    return NULL;
  return tl_user_build_new_compiled (r->build.arch, (TlDtype) r->args.dtype, r->build.entry, image,
                                     timed);
}

gboolean
tl_serve_start_user_gemm (TlServeJob *job, JsonObject *message, GError **error)
{
  TlServe *serve = tl_serve_job_get_serve (job);
  UserJob *u = g_new0 (UserJob, 1);
  g_atomic_ref_count_init (&u->ref_count);
  u->context = g_main_context_ref_thread_default ();
  if (!tl_user_job_parse (message, &u->request, error)
      || (u->a = tl_serve_get_upload_matrix (serve, u->request.sha_a, "A", error)) == NULL
      || (u->b = tl_serve_get_upload_matrix (serve, u->request.sha_b, "B", error)) == NULL
      || (u->build = load_build (serve, &u->request, error)) == NULL)
    {
      user_job_unref (u);
      return FALSE;
    }
  const TlGpuGemmArgs *r = &u->request.args;
  TlDtype dtype = (TlDtype) r->dtype;
  if (u->a->dtype != dtype || u->b->dtype != dtype || u->a->rows != (gsize) r->m
      || u->a->cols != (gsize) r->k || u->b->rows != (gsize) r->k || u->b->cols != (gsize) r->n
      || !tl_matrix_is_contiguous (u->a) || !tl_matrix_is_contiguous (u->b))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("the inputs sent are not %s matrices of %d×%d and %d×%d"),
                   tl_dtype_name (dtype), r->m, r->k, r->k, r->n);
      user_job_unref (u);
      return FALSE;
    }
  u->job = job;
  u->name = g_path_get_basename (u->request.path);
  /* said at once: the client watches for its cancel from its first
   * message on (the watchdog waits for the first launch) */
  JsonBuilder *b = tl_wire_begin ("progress");
  tl_json_member_string (b, "kernel", u->name);
  tl_json_member_string (b, "stage", "upload");
  tl_serve_job_send (job, b, NULL);
  tl_runner_run_func_async (tl_serve_get_runner (serve), run_user_job, user_job_ref (u),
                            (GDestroyNotify) user_job_unref, (GDestroyNotify) user_outcome_free,
                            tl_serve_job_get_cancellable (job), user_done_cb, u);
  return TRUE;
}
