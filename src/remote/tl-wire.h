/* tl-wire.h — the worker protocol's messages, as they travel.
 *
 * The worker (`tilelab-cli serve --stdio`) and its clients talk in JSON
 * lines: one JSON object per line, its "type" first.  A message that
 * carries bytes (an uploaded matrix, a matrix asked for, a file a command
 * wrote) says how many in "bytes", and exactly that many raw bytes follow
 * its newline.  docs/remote.md lists every message; this header has the
 * pieces both ends share: building and parsing a message, the versions
 * exchanged first, errors as JSON, matrices as NPY bytes.
 *
 * Versions: TL_WIRE_PROTOCOL counts incompatible changes of the messages;
 * the run record schema (TL_RUN_RECORD_SCHEMA) and the Gauss record schema
 * (TL_LU_RECORD_SCHEMA) are the formats results travel in.  Both ends
 * refuse a peer whose protocol or either schema differs, naming both
 * sides' versions.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "core/tl-json-pack.h"
#include "core/tl-matrix.h"
#include "record/tl-gauss-record.h"

G_BEGIN_DECLS

#define TL_WIRE_PROTOCOL 3
/* A payload larger than this travels in chunk frames: its message says
 * "bytes" (all of it) and "chunks": true, and each part of at most this
 * many bytes follows a line {"type":"chunk","bytes":N}, until all came —
 * or a line {"type":"cut","at":N} says the sender stopped (the job was
 * cancelled, a file ended early): the receiver drops what came of that
 * payload and reads on.  A frame is a point where a cancel takes effect. */
#define TL_WIRE_CHUNK (1u << 20)
/* The longest line either end accepts (a record with every block of an
 * instrumented run is a few MB); longer is a protocol error. */
#define TL_WIRE_MAX_LINE (256u << 20)

/* ---- errors of the remote area ------------------------------------------- */

#define TL_REMOTE_ERROR (tl_remote_error_quark ())

typedef enum
{
  TL_REMOTE_ERROR_UNREACHABLE, /* the host did not answer (name, network, port) */
  TL_REMOTE_ERROR_HOST_KEY,    /* ssh does not know (or distrusts) the host's key */
  TL_REMOTE_ERROR_AUTH,        /* the host refused the login */
  TL_REMOTE_ERROR_NO_WORKER,   /* no tilelab-cli there, or one without `serve` */
  TL_REMOTE_ERROR_VERSION,     /* a worker of another protocol or schema */
  TL_REMOTE_ERROR_LAUNCHER,    /* the launcher (Slurm) refused or ended the job */
  TL_REMOTE_ERROR_LOST,        /* the connection ended during a job */
  TL_REMOTE_ERROR_TIMEOUT,     /* no answer within the time allowed */
  TL_REMOTE_ERROR_PROTOCOL,    /* a malformed or unexpected message */
} TlRemoteErrorCode;

GQuark tl_remote_error_quark (void);

/* ---- messages ------------------------------------------------------------- */

/* A builder inside a new object whose first member is "type": type. */
JsonBuilder *tl_wire_begin (const char *type);
/* Ends the object and returns it as one line (with its '\n'). */
GBytes      *tl_wire_end   (JsonBuilder *builder);
/* A line (without its '\n') as an object with a string "type" (its
 * value in *type, owned by the object), or NULL with
 * TL_REMOTE_ERROR_PROTOCOL. */
JsonObject  *tl_wire_parse (const char *line, gsize length, const char **type, GError **error);
/* The same, but a long array of numbers (a run's block columns, samples)
 * stays as it was read, a typed array (core/tl-json-pack.h) that the
 * readers of core/tl-json-read.h take as any other: 4 or 8 bytes a number
 * rather than a tree's 80.  *arrays holds them (NULL when there are none):
 * keep it while the object is read, then tl_json_pack_store_unref.  A
 * record reader that keeps part of the object keeps its own hold. */
JsonObject  *tl_wire_parse_packed (const char *line, gsize length, const char **type,
                                   TlJsonPackStore **arrays, GError **error);

/* A member that is a non-negative integer, or fallback (absent, or of
 * another type). */
gint64       tl_wire_get_count (JsonObject *object, const char *name, gint64 fallback);

/* The versions this program speaks, as members of a hello. */
void         tl_wire_add_versions (JsonBuilder *builder);
/* Compares a peer's hello with ours: FALSE with TL_REMOTE_ERROR_VERSION
 * naming both (who: "gpu1's tilelab-cli", "the client") on a mismatch. */
gboolean     tl_wire_check_versions (JsonObject *hello, const char *who, GError **error);

/* An error as the member "error": {"domain": "tilelab"|"remote"|"io"|…,
 * "code": name, "message": text}; and back (a GError in TL_ERROR,
 * TL_REMOTE_ERROR or G_IO_ERROR_CANCELLED; never NULL). */
void         tl_wire_add_error (JsonBuilder *builder, const GError *error);
GError      *tl_wire_get_error (JsonObject *object);

/* ---- matrices as NPY bytes ------------------------------------------------ */

GBytes      *tl_wire_matrix_to_npy   (const TlMatrix *matrix, GError **error);
/* tl_wire_sha256 of tl_wire_matrix_to_npy's bytes, read from the matrix
 * (nothing copied): whether a worker has it already. */
char        *tl_wire_matrix_sha256   (const TlMatrix *matrix);

/* A matrix on the wire goes as NPY straight from its rows: a "matrix"
 * message says "dtype", "shape" [rows, cols] and "header" (the NPY
 * header's length, which this function makes; the data follows it), so
 * the receiver can read the data straight into a matrix of its own,
 * without a buffer between.  The NPY (version 1.0, little-endian, C
 * order) header this protocol writes before the data of a matrix. */
GBytes      *tl_wire_npy_header      (TlDtype dtype, gsize rows, gsize cols);
/* Adds "dtype", "shape" and "header" (with "bytes": all of it) for m. */
void         tl_wire_add_matrix_form (JsonBuilder *builder, const TlMatrix *matrix);
/* Writes m's header and rows to out, straight from the matrix. */
gboolean     tl_wire_write_matrix    (GOutputStream *out, const TlMatrix *matrix, GError **error);
/* For a message with "bytes" following it: a new matrix of the dtype and
 * shape its "dtype", "shape" and "header" say, and the header's length,
 * or NULL when the message does not describe a matrix so (or one this
 * computer cannot hold: error says which). */
TlMatrix    *tl_wire_matrix_for_message (JsonObject *message, gsize *header, GError **error);
/* Whether the header read before a message's matrix is the one this
 * protocol writes for it. */
gboolean     tl_wire_check_npy_header (const TlMatrix *matrix, const void *header, gsize length);
/* name is for messages ("C of gemm-03 from gpu1") */
TlMatrix    *tl_wire_matrix_from_npy (GBytes *npy, const char *name, GError **error);
/* Makes the pipe behind fd hold up to 1 MiB (Linux; a no-op elsewhere, or
 * for a socket or a file): with the default 64 KiB a 4 MB matrix needs 64
 * round trips between two processes, each waiting for the scheduler on a
 * busy machine. */
void         tl_wire_widen_pipe (int fd);

/* ---- a Gauss step recording as a stream ---------------------------------- */

/* The parts' names on the wire: "step", "block", "snapshot". */
extern const char *const tl_wire_gauss_parts[TL_LU_N_PARTS];
/* "gauss-record": the recording's head and how many of each part follow. */
JsonBuilder *tl_wire_gauss_record (const TlLuRecorder *recorder);
/* "gauss-part": count parts from number first on ("index", and
 * "values" an array of them); their numbers appended to values as
 * float64 (the message's payload), or in the JSON when values is NULL. */
JsonBuilder *tl_wire_gauss_part   (const TlLuRecorder *recorder, TlLuRecordPart part, guint first,
                                   guint count, GByteArray *values);

/* The SHA-256 of bytes, in hex (uploads are named by it). */
char        *tl_wire_sha256 (GBytes *bytes);

/* A matrix larger than max_side along either axis as the means of f × f
 * blocks (float64, at most max_side per axis, the same f on both so the
 * proportions stay; NaN in a block makes its cell NaN; *factor_r and
 * *factor_c are f); a smaller one is returned as it is (a new reference,
 * factors 1). */
TlMatrix    *tl_wire_pool_mean (TlMatrix *matrix, gsize max_side, guint *factor_r,
                                guint *factor_c, GError **error);

G_END_DECLS
