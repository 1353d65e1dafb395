/* tl-session.h — what the window shows, apart from how it shows it.
 *
 * A TlSession holds the app's state: the sources A and B, the runner and
 * the runs it makes, the run record on show, the Gauss record, the
 * history of runs for the size sweep and the GPUs found.  Loading,
 * generating and opening records run off the main loop (GTask); runs go
 * to the runner's worker.  The pages and panels of the window observe a
 * session through its signals and never keep state of their own that
 * the session owns:
 *
 *   "source-changed"    (guint index)        A (0) or B (1) was replaced
 *   "source-loading"    (guint index)        a file for A or B began to be read, read
 *                                            further, or stopped being read (whole,
 *                                            stopped or failed)
 *   "results-changed"                        the runs on show changed
 *   "history-changed"                        a run joined the size sweep
 *   "lu-record-changed"                      the Gauss record changed
 *   "devices-changed"                        the GPU probe finished
 *   "device-changed"                         another GPU was chosen
 *   "state-changed"                          busy or running changed
 *   "message"           (GtkMessageType, const char *text or NULL to hide)
 *   "progress"          (const char *text, double fraction)
 *   "status"            (const char *text)   one line about the last event
 *   "record-opened"     (gboolean has_gemm, gboolean has_lu)
 *   "hosts-changed"                          the list of hosts, or what one has
 */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"
#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"
#include "remote/tl-remote-host.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

enum
{
  TL_TARGET_A = 1 << 0,
  TL_TARGET_B = 1 << 1,
};

/* What a run uses besides the sources: the window's kernel list, data
 * type, repeats, device, and whether GPU runs count hardware events. */
typedef struct
{
  const char *const *kernels;
  TlDtype dtype;
  guint repeats;
  int device;
  gboolean counters;
  int host;            /* -1: this computer; else one of tl_session_get_n_hosts () */
} TlRunSettings;

#define TL_TYPE_SESSION (tl_session_get_type ())
G_DECLARE_FINAL_TYPE (TlSession, tl_session, TL, SESSION, GObject)

TlSession   *tl_session_new (void);
TlRunner    *tl_session_get_runner (TlSession *self);

/* ---- sources: index 0 is A, 1 is B ---- */
TlMatrix    *tl_session_get_source       (TlSession *self, guint index);
const TlMatrixStats *tl_session_get_source_stats (TlSession *self, guint index);
const char  *tl_session_get_source_label (TlSession *self, guint index);
/* The file being read into A (0) or B (1): its name (g_free) and how much
 * of it is read, 0…1; NULL when none is. */
char        *tl_session_get_source_loading (TlSession *self, guint index, double *fraction);
/* Why the last file (or generator) asked for A or B failed, "could not
 * open “bad.npy”: …";
 * NULL once A or B is replaced or read again. */
const char  *tl_session_get_source_failure (TlSession *self, guint index);
/* Off the main loop; on failure the previous matrix stays and "message" says why. */
void         tl_session_load_source (TlSession *self, guint target, GFile *file);
/* A gets seed, B seed + 1. */
void         tl_session_generate    (TlSession *self, guint targets, const char *spec,
                                     gsize rows, gsize cols, TlDtype dtype, guint64 seed);
/* "random-uniform:512": A and B both 512×512.  FALSE if the form is wrong. */
gboolean     tl_session_generate_from_option (TlSession *self, const char *spec_n, TlDtype dtype,
                                              GError **error);
/* When A's columns differ from B's rows (C = A·B has no meaning): a
 * sentence saying so and what to do; NULL otherwise.  g_free. */
char        *tl_session_mismatch_text (TlSession *self);
/* a run record (GEMM or LU) or a Gauss record */
void         tl_session_open_record (TlSession *self, GFile *file);

/* a user's kernel file (.cu, gemm/tl-user-kernel.h): read and registered
 * off the main loop; _finish gives its row of the registry */
void         tl_session_open_kernel (TlSession *self, GFile *file, GAsyncReadyCallback callback,
                                     gpointer user_data);
const TlKernelInfo *tl_session_open_kernel_finish (TlSession *self, GAsyncResult *result,
                                                   GError **error);

/* ---- runs ---- */
gboolean     tl_session_run       (TlSession *self, const TlRunSettings *settings);
/* Every kernel of settings, with the vendor of each (cuBLAS, OpenBLAS)
 * beside it, at each of the sweep's sizes (random uniform A and B) */
gboolean     tl_session_run_sweep (TlSession *self, const TlRunSettings *settings);
/* The sweep's sizes (view/tl-sweep-sizes.h; TL_SWEEP_SIZES_DEFAULT at
 * first): FALSE with an error naming the item, the sizes unchanged. */
gboolean     tl_session_set_sweep_sizes (TlSession *self, const char *text, GError **error);
char        *tl_session_get_sweep_sizes (TlSession *self);
void         tl_session_cancel    (TlSession *self);
gboolean     tl_session_is_running (TlSession *self);
/* loading, generating, opening, running, factoring or probing */
gboolean     tl_session_is_busy    (TlSession *self);
/* A matrix file is being read (Escape stops it: tl_session_cancel). */
gboolean     tl_session_is_loading (TlSession *self);
/* Export (tl-export.c) says what it draws, and stops drawing when
 * cancellable is (tl_session_cancel cancels it; the progress bar shows
 * what while no run does). */
void         tl_session_add_export    (TlSession *self, GCancellable *cancellable, const char *what);
void         tl_session_remove_export (TlSession *self, GCancellable *cancellable);
gboolean     tl_session_is_exporting  (TlSession *self);

/* the runs on show: the record's, or the live ones of the run in flight
 * (TlKernelRun*) */
GPtrArray   *tl_session_get_runs   (TlSession *self);
guint        tl_session_get_n_live_results (TlSession *self);
/* NULL while a run is in flight or before the first */
TlRunRecord *tl_session_get_record (TlSession *self);
/* whether the record on show was read from a file (FALSE: run here) */
gboolean     tl_session_record_from_file (TlSession *self);
/* what the status bar says of a record: "Run record from vm (2026-11-24
 * 07:07 UTC) · NVIDIA H200", "LU record from …" */
char        *tl_session_describe_record (const TlRunRecord *record);
/* the problem the runs on show solved */
void         tl_session_get_size   (TlSession *self, gsize *m, gsize *k, gsize *n);
TlDtype      tl_session_get_dtype  (TlSession *self);
/* TRUE when A or B changed after the runs on show were made (or a record
 * without its matrices is shown beside other matrices): views clear or
 * mark those results */
gboolean     tl_session_results_are_stale (TlSession *self);
/* why they are stale, in a sentence; NULL when they are not */
const char  *tl_session_stale_text (TlSession *self);
/* every GEMM record of this session (TlRunRecord*), for the size sweep */
GPtrArray   *tl_session_get_history (TlSession *self);

/* ---- Gauss ---- */
/* the Gauss record the player shows */
TlLuRecorder *tl_session_get_lu_record (TlSession *self);
/* The same, held for work off the main loop (an export): it stays whole
 * while held, even when the session replaces it; NULL when there is none.
 * Release with tl_lu_record_release (any thread). */
TlLuRecorder **tl_session_hold_lu_record (TlSession *self);
void          tl_lu_record_release (TlLuRecorder **lu);
/* the LU run record opened beside the GEMM one (time, device, result), or NULL */
TlRunRecord *tl_session_get_lu_run (TlSession *self);
/* Factors A with the recorder on, on the worker. */
gboolean     tl_session_factor (TlSession *self, const char *kernel_id, gsize block_size);
gboolean     tl_session_is_factoring (TlSession *self);

/* ---- devices ---- */
/* TlGpuFacts of every GPU (empty before the probe and without one) */
GArray      *tl_session_get_gpus (TlSession *self);
gboolean     tl_session_devices_known (TlSession *self);
/* Starts the device probe on the worker (once). */
void         tl_session_probe_devices (TlSession *self);
/* why there is no GPU ("built without CUDA", "no driver" …), or NULL */
const char  *tl_session_get_no_gpu_reason (TlSession *self);
/* the GPU chosen (Factor A uses it; runs name theirs in TlRunSettings) */
void         tl_session_set_device (TlSession *self, int ordinal);
int          tl_session_get_device (TlSession *self);

/* ---- other machines (docs/remote.md) ---- */
/* Follows the "hosts" key of settings: a worker for each host, and a probe
 * of its devices (not for a host with a launcher: that would take a job
 * in its queue; it is asked when it runs). */
void         tl_session_watch_hosts (TlSession *self, GSettings *settings);
guint        tl_session_get_n_hosts (TlSession *self);
const TlRemoteTarget  *tl_session_get_host_target  (TlSession *self, guint index);
/* its devices after a probe, or NULL (not yet, failed, or not asked) */
const TlRemoteDevices *tl_session_get_host_devices (TlSession *self, guint index);
/* why its probe failed, or NULL */
const char  *tl_session_get_host_error (TlSession *self, guint index);
gboolean     tl_session_host_is_probing (TlSession *self, guint index);
/* the machine Factor A uses (-1: this computer) and its GPU */
void         tl_session_set_run_on (TlSession *self, int host, int device);

/* ---- messages ---- */
void         tl_session_report (TlSession *self, GtkMessageType type, const char *text);
void         tl_session_report_error (TlSession *self, const char *what, const GError *error);
void         tl_session_hide_message (TlSession *self);
void         tl_session_set_status (TlSession *self, const char *text);

G_END_DECLS
