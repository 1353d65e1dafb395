/* tl-user-wire.h — a user kernel's run between two processes.
 *
 * The window and the CLI run a student's kernel in a worker process of
 * its own (tl-user-worker.h), so that an illegal address or a kernel that
 * never ends takes that process, not theirs.  This is what crosses the
 * pipes.  A message is one line of JSON; when its member "payload" lists
 * [name, bytes] pairs, that many raw bytes follow the line, in order:
 *
 *   worker → {"worker": "tilelab-user-kernels", "protocol": 1, "version": "0.1.0"}
 *   parent → {"request": 7, "device": 0, "kernel": {…}, "args": {…},
 *             "payload": [["image", N], ["timed_image", N], ["a", N], ["b", N]]} + bytes
 *   worker → {"progress": [STAGE, STEP, TOTAL]}                 (TlGpuStage, any number)
 *   parent → {"cancel": 7}                                      (any time)
 *   worker → {"result": 7, "status": "ok", "message": "", "numbers": {…},
 *             "payload": [["c", N], ["blocks", N]]} + bytes
 *
 * Numbers cross as JSON (doubles exactly, via %.17g), matrices and block
 * records as the host's bytes (both ends are the same machine and build).
 */
#pragma once

#include <json-glib/json-glib.h>

#include "tl-gpu.h"

G_BEGIN_DECLS

#define TL_USER_WIRE_PROTOCOL 1
#define TL_USER_WIRE_HELLO "tilelab-user-kernels"
/* The most bytes one message may carry (the inputs of a large problem). */
#define TL_USER_WIRE_MAX_PAYLOAD (G_GUINT64_CONSTANT (1) << 36)

typedef struct
{
  JsonObject *head;
  GPtrArray *payloads; /* GBytes*, in the order the head lists them */
} TlWireMessage;

void  tl_wire_message_free (TlWireMessage *message);
/* The payload named name, or NULL. */
GBytes *tl_wire_message_payload (const TlWireMessage *message, const char *name);

/* Buffered reading from a pipe. */
typedef struct TlWireReader TlWireReader;
TlWireReader *tl_wire_reader_new  (int fd);
void          tl_wire_reader_free (TlWireReader *reader);
/* The next message.  timeout_ms < 0 waits as long as it takes; else
 * G_IO_ERROR_TIMED_OUT when no whole message came in time (what came
 * stays buffered for the next call).  G_IO_ERROR_CLOSED at end of file. */
TlWireMessage *tl_wire_read (TlWireReader *reader, int timeout_ms, GError **error);

/* Writes head (with its "payload" list filled from names and sizes) and
 * the payloads.  Blocks until all is written. */
gboolean tl_wire_write (int fd, JsonObject *head, const char *const *names, GBytes *const *payloads,
                        guint n_payloads, GError **error);

/* ---- the request and the result ------------------------------------- */

/* The head of a request (payloads: image, timed_image if any, a, b). */
JsonObject *tl_wire_request_head (guint64 id, int device, const TlGpuUserLaunch *kernel,
                                  const TlGpuGemmArgs *args);
/* Reads a request into kernel and args, whose pointers then point into
 * the message's payloads and strings (valid while it lives); progress,
 * cancel and user_data are left to the caller. */
gboolean tl_wire_request_parse (const TlWireMessage *message, guint64 *id, int *device,
                                TlGpuUserLaunch *kernel, TlGpuGemmArgs *args, GError **error);

/* The head of a result; its payloads are C (when ok) and the blocks. */
JsonObject *tl_wire_result_head (guint64 id, TlGpuStatus status, const char *message,
                                 const TlGpuGemmResult *result);
/* Reads a result: status and message (g_free), the numbers into result
 * (times_ms and blocks g_malloc'd: tl_wire_result_clear), C into c
 * (c_bytes, the size the request implied). */
gboolean tl_wire_result_parse (const TlWireMessage *message, TlGpuStatus *status, char **text,
                               TlGpuGemmResult *result, void *c, gsize c_bytes, GError **error);
void     tl_wire_result_clear (TlGpuGemmResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlWireMessage, tl_wire_message_free)

G_END_DECLS
