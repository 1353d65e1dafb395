/* tl-remote-diagnose.h — why a worker could not be reached or went away, in words.
 *
 * ssh, the remote shell and Slurm say what went wrong on standard error
 * and in their exit status; this turns that into one message that names
 * the host and says what to do, in TL_REMOTE_ERROR.
 */
#pragma once

#include <glib.h>

#include "remote/tl-remote-target.h"

G_BEGIN_DECLS

typedef enum
{
  TL_REMOTE_STAGE_CONNECTING, /* before the worker's hello */
  TL_REMOTE_STAGE_JOB,        /* the worker had said hello */
} TlRemoteStage;

/* exit_status: the transport's exit code, 128 + N for signal N, -1 when
 * unknown; stderr_tail: its last lines of standard error. */
GError  *tl_remote_diagnose (const TlRemoteTarget *target, TlRemoteStage stage, int exit_status,
                             const char *stderr_tail);

/* A line of srun's standard error that names its job: "srun: job 1234
 * queued and waiting for resources" (*queued TRUE) or "srun: job 1234 has
 * been allocated resources" (FALSE).  FALSE for other lines. */
gboolean tl_remote_parse_launcher_line (const char *line, char **job_id, gboolean *queued);

G_END_DECLS
