/* tl-serve-kinds.h — the worker's job kinds (one start function each).
 *
 *   devices  the GPUs' facts and the machine's (tl-serve-runner-jobs.c)
 *   gemm     a TlJob on the worker's runner: progress, each kernel's run,
 *            the record; matrices kept for requests
 *   gauss    an LU factorisation with its step recording
 *   command  a tilelab-cli command as a child process: its output, the
 *            files it wrote, its exit status (tl-serve-command.c)
 *   user-gemm  a student's kernel, its text in the job: compiled here by
 *            NVRTC and run through the harness (tl-serve-user.c)
 *
 * docs/remote.md describes each kind's messages.
 */
#pragma once

#include "remote/tl-serve.h"

G_BEGIN_DECLS

gboolean tl_serve_start_devices (TlServeJob *job, JsonObject *message, GError **error);
gboolean tl_serve_start_gemm    (TlServeJob *job, JsonObject *message, GError **error);
gboolean tl_serve_start_gauss   (TlServeJob *job, JsonObject *message, GError **error);
gboolean tl_serve_start_command (TlServeJob *job, JsonObject *message, GError **error);
gboolean tl_serve_start_user_gemm (TlServeJob *job, JsonObject *message, GError **error);

G_END_DECLS
