/* tl-serve.h — the worker: jobs in as JSON lines, results out as JSON lines.
 *
 * `tilelab-cli serve --stdio` is this loop on standard input and output.
 * It says hello first (its versions, host, pid, Slurm job), refuses a
 * client of another protocol or schema, then runs what the client sends:
 * uploads (bytes kept in a private temporary folder, named by their
 * SHA-256), jobs, cancels and requests for matrices.  docs/remote.md
 * lists the messages.
 *
 * Jobs come in kinds, one row each in tl-serve-kinds.c: devices, gemm,
 * gauss (on a TlRunner, the same worker thread the app uses locally) and
 * command (a tilelab-cli command as a child process).  A new kind is a
 * start function and a row.
 *
 * The end of the input — the client closed it, ssh lost the connection,
 * srun forwarded the end — or SIGINT, SIGTERM or SIGHUP stops everything:
 * running jobs are cancelled, child processes stopped (SIGINT, then
 * SIGKILL after a grace), the folder removed.  Nothing is left running.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "core/tl-matrix.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

typedef struct _TlServe TlServe;
typedef struct _TlServeJob TlServeJob;

/* One kind of job.  start runs on the worker's main loop; the job then
 * ends, at once or later, with tl_serve_job_done.  FALSE with error ends it
 * at once with that error. */
typedef struct
{
  const char *kind;
  gboolean (*start) (TlServeJob *job, JsonObject *message, GError **error);
} TlServeJobKind;

/* The kinds, in tl-serve-kinds.c. */
extern const TlServeJobKind tl_serve_job_kinds[];
extern const guint tl_serve_n_job_kinds;

/* Runs the worker on in and out until the input ends; returns the exit
 * status (0, or 3 when the client was refused). */
int           tl_serve_run (GInputStream *in, GOutputStream *out);

TlServe      *tl_serve_job_get_serve       (TlServeJob *job);
guint64       tl_serve_job_get_id          (TlServeJob *job);
/* Cancelled by the client's "cancel" or when the worker stops. */
GCancellable *tl_serve_job_get_cancellable (TlServeJob *job);
/* The job's own folder inside the worker's (made on first call). */
const char   *tl_serve_job_get_folder      (TlServeJob *job);
/* Sends a message of the job (a builder from tl_wire_begin; "id" is
 * added), with payload bytes after it when not NULL. */
void          tl_serve_job_send            (TlServeJob *job, JsonBuilder *message, GBytes *payload);
/* Sends a message of the job (as tl_serve_job_send) with the contents
 * of the file at path after it, read as they go out; a file that cannot
 * be read is said as the message's "error". */
void          tl_serve_job_send_file       (TlServeJob *job, JsonBuilder *message, const char *path);
/* Keeps a matrix for the client's "matrix" requests ("a", "b",
 * "reference", "c/KERNEL"); until the client releases the job or starts
 * another. */
void          tl_serve_job_keep_matrix     (TlServeJob *job, const char *name, TlMatrix *matrix);
/* Sends a matrix as a "matrix" message (req 0: unasked, a job's own),
 * pooled to at most max_side per axis (0: whole) with its factors said. */
void          tl_serve_job_send_matrix     (TlServeJob *job, const char *name, TlMatrix *matrix,
                                            gint64 max_side, guint64 req);
/* Ends the job: "done" with status ok, cancelled (error is
 * G_IO_ERROR_CANCELLED) or error; exit_code ≥ 0 is sent as "exit". */
void          tl_serve_job_done            (TlServeJob *job, const GError *error, int exit_code);

TlRunner     *tl_serve_get_runner (TlServe *serve);
/* The member "machine": this machine's facts (host_name, os, cpu_model, cores). */
void          tl_serve_add_machine (JsonBuilder *builder);
/* The file an "upload" with this SHA-256 left, or NULL with TL_ERROR_INVALID. */
const char   *tl_serve_get_upload (TlServe *serve, const char *sha256, GError **error);
/* The matrix an NPY upload holds (a new reference), read once: the next
 * job of the same input takes it as it is (jobs never change inputs);
 * name ("A") prefixes an error. */
TlMatrix     *tl_serve_get_upload_matrix (TlServe *serve, const char *sha256, const char *name,
                                          GError **error);
/* A job's input kept under a key that says all it is (a generator's
 * recipe), for the next job of the same: a new reference, or NULL. */
TlMatrix     *tl_serve_get_kept_input (TlServe *serve, const char *key);
void          tl_serve_keep_input     (TlServe *serve, const char *key, TlMatrix *matrix);

G_END_DECLS
