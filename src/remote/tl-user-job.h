/* tl-user-job.h — the "user-gemm" job: a student's kernel, its text in the job.
 *
 * The client (tl-remote-user.c: the program whose kernel it is) compiles
 * the kernel with NVRTC for the worker's GPU, once per version, and sends
 * the build: the worker (`tilelab-cli serve --stdio`, tl-serve-user.c)
 * loads that image and runs it through the ladder's harness — it never
 * compiles.  The messages (docs/remote.md lists them):
 *
 *   client → {"type":"job","kind":"user-gemm","kernel":{"path","source"},
 *             "build":{"arch":"sm_90","entry":the dtype's entry as named in
 *                      the cubin,"image":SHA256,"timed_image":SHA256|null},
 *             "device","dtype","m","k","n","warmups","repeats","flush_l2",
 *             "instrument","instrument_repeats","counters",
 *             "inputs":{"a":SHA256,"b":SHA256}}    (A and B uploaded as NPY,
 *                                                   the cubins as they are)
 *   worker → {"type":"progress","kernel","stage":"run","step":3,"total":10}   (any number)
 *   worker → {"type":"result","numbers":{…},"blocks":[[x,y,sm,launch,start,end],…]}
 *   worker → {"type":"matrix","name":"c",…} + NPY
 *   worker → {"type":"done",…}  an error in words when its launch was
 *             refused or it faulted (then "gpu_lost" is true in the
 *             error's place and the worker's GPU is of no more use)
 *
 * Numbers cross as JSON (NaN as "nan"), so the two ends may be different
 * machines.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "gemm/tl-user-kernel.h"
#include "run/tl-user-worker.h" /* the harness's types, through the run area */

G_BEGIN_DECLS

#define TL_USER_JOB_KIND "user-gemm"

/* The images of a build as uploaded: their SHA-256s (timed: NULL when
 * the kernel has no timing marks). */
typedef struct
{
  int arch;              /* × 10 */
  char *entry;           /* the job's dtype's entry, as the cubin names it */
  char *sha_image, *sha_timed;
} TlUserJobBuild;

/* The job's message (a builder from tl_wire_begin ("job")), A and B
 * named by their uploads' SHA-256s. */
JsonBuilder *tl_user_job_begin (TlUserKernel *kernel, const TlUserJobBuild *build, int device,
                                const TlGpuGemmArgs *args, const char *sha_a, const char *sha_b);

typedef struct
{
  char *path, *source;   /* the kernel file as the client has it */
  TlUserJobBuild build;  /* what it was compiled to */
  char *sha_a, *sha_b;   /* the inputs' uploads */
  int device;
  TlGpuGemmArgs args;    /* sizes and launches; no pointers, no callbacks */
} TlUserJobRequest;

/* Reads a job's message: FALSE with TL_ERROR_PARSE naming what is wrong. */
gboolean tl_user_job_parse (JsonObject *message, TlUserJobRequest *out, GError **error);
void     tl_user_job_request_clear (TlUserJobRequest *request);

/* A harness stage as a word ("upload", "warmup", "run", …) and back (-1:
 * unknown). */
const char *tl_user_job_stage_name (TlGpuStage stage);
int         tl_user_job_stage_from_name (const char *name);

/* The result's members "numbers" and "blocks" into b, and back (times
 * and blocks g_malloc'd: tl_user_worker_result_clear). */
void     tl_user_job_add_result (JsonBuilder *b, const TlGpuGemmResult *result);
gboolean tl_user_job_get_result (JsonObject *message, TlGpuGemmResult *out, GError **error);

G_END_DECLS
