/* tl-session-private.h — the session's state, for its own files, each of
 * which calls only those listed before it:
 * tl-session.c (the object, its state, messages, the Gauss record,
 * devices), tl-session-sources.c (loading and generating A and B),
 * tl-session-records.c (opening record files), tl-session-hosts.c (other
 * machines: where a job runs), tl-session-runs.c (runs and the size
 * sweep) and tl-session-gauss.c (Factor A). */
#pragma once

#include "tl-session.h"
#include "run/tl-gauss-run.h"
#include "view/tl-sweep-sizes.h"

struct _TlSession
{
  GObject parent_instance;

  /* sources: immutable once set */
  TlMatrix *src[2];
  TlSource src_source[2];
  char *src_label[2];
  char *src_failure[2];         /* why the last file or generator for A or B failed, or NULL */
  TlMatrixStats src_stats[2];   /* computed off the main loop */
  guint inputs_serial;          /* bumped whenever A or B is replaced */
  GCancellable *source_cancellable[2];
  GCancellable *record_cancellable;
  guint n_pending_sources;
  guint errors_reported;        /* bumped at every error message */
  char *failures_shown;         /* the load failures the message bar says now, or NULL */
  GPtrArray *loads;             /* files being read into A or B (tl-session-sources.c) */
  guint load_ticker;            /* shows their progress while there are any */

  /* runs */
  TlRunner *runner;
  GCancellable *run_cancellable;
  guint job_id;
  gboolean running;
  gsize job_m, job_k, job_n;
  TlDtype job_dtype;
  GPtrArray *live_runs;       /* TlKernelRun* of the job in flight (copies) */
  GHashTable *sweep_jobs;     /* job ids whose records only feed the sweep */
  guint n_sweep_pending;
  gboolean sweep_cancelled; /* a job of the current sweep was cancelled */
  GArray *sweep_sizes;        /* TlSweepSize: what the next sweep runs */
  TlRunRecord *record;        /* on show (pages that keep it take a reference) */
  guint results_serial;       /* the inputs_serial the runs on show were made from */
  gboolean results_from_file; /* the runs on show came from a record file */
  GPtrArray *history;         /* TlRunRecord*, for the size sweep */

  /* Gauss */
  TlRunRecord *lu_run;        /* an LU run record (its timing, device, result) */
  TlLuRecorder **lu;           /* an atomic rc box: exports hold it while they draw */
  TlLuRecorder *lu_recording;   /* the worker fills it while Factor A runs */
  GCancellable *lu_cancellable;

  /* pictures being drawn and written (tl-export.c): their cancellables */
  GPtrArray *exports;

  /* devices */
  GArray *gpus;               /* TlGpuFacts */
  char *no_gpu_reason;        /* why there is none, after the probe */
  int device;                 /* the GPU runs and Factor A use */
  gboolean probe_started, probe_done;
  GCancellable *probe_cancellable;

  /* other machines (tl-session-hosts.c) */
  GPtrArray *hosts;           /* SessionHost*, in the order of the setting */
  GSettings *host_settings;   /* where the list lives; may be NULL */
  int run_host;               /* the host Factor A uses, -1: this computer */
};

enum
{
  SIGNAL_SOURCE_CHANGED,
  SIGNAL_SOURCE_LOADING,
  SIGNAL_RESULTS_CHANGED,
  SIGNAL_HISTORY_CHANGED,
  SIGNAL_LU_RECORD_CHANGED,
  SIGNAL_DEVICES_CHANGED,
  SIGNAL_DEVICE_CHANGED,
  SIGNAL_STATE_CHANGED,
  SIGNAL_MESSAGE,
  SIGNAL_PROGRESS,
  SIGNAL_STATUS,
  SIGNAL_RECORD_OPENED,
  SIGNAL_HOSTS_CHANGED,
  N_SIGNALS
};

extern guint tl_session_signals[N_SIGNALS];

void tl_session_state_changed (TlSession *self);
void tl_session_set_progress  (TlSession *self, const char *text, double fraction);
/* Hides the message bar, unless an error was reported after
 * errors_reported was read: a load that ends well does not hide why
 * another, finished meanwhile, failed. */
void tl_session_hide_message_unless_error_since (TlSession *self, guint errors_reported);
/* replaces A (0) or B (1); the inputs change, results from older ones turn stale */
void tl_session_set_source    (TlSession *self, guint i, TlMatrix *m, const TlMatrixStats *stats,
                               const TlSource *source, const char *label);
/* A and B from an opened run record, those it carries */
void tl_session_take_record_sources (TlSession *self, const TlRunRecord *record);
/* takes record; with_sources: an opened file, whose A and B were taken
 * (tl_session_take_record_sources) */
void tl_session_show_record   (TlSession *self, TlRunRecord *record, gboolean with_sources);
/* takes record */
void tl_session_add_to_history (TlSession *self, TlRunRecord *record);
/* takes lu */
void tl_session_set_lu_record (TlSession *self, TlLuRecorder *lu);
/* opened files go to the desktop's recent files (and the Open menu) */
void tl_session_remember_file (GFile *file);
/* a file that failed to open because it is gone leaves the recent files
 * (a stale entry of the Open menu is not offered again) */
void tl_session_forget_file_if_gone (GFile *file);

/* tl-session-hosts.c: where a job runs — host ≥ 0 a configured host's
 * worker, otherwise this computer's runner */
TlRunner *tl_session_host_get_runner (TlSession *self, int host);
guint     tl_session_host_run_gemm  (TlSession *self, int host, const TlJob *job,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data);
guint     tl_session_host_run_gauss (TlSession *self, int host, const TlGaussJob *job,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data);
/* A job on host ended: a launcher's connection (a Slurm job holding a GPU)
 * is let go after some minutes without another. */
void      tl_session_host_job_ended (TlSession *self, TlRunner *runner);

/* When a record was made, as a reader says it: "2026-11-24 07:07 UTC"
 * for "2026-11-24T07:07:41Z"; a time in another form stays as it is. */
char *tl_session_record_time (const char *created);

