/* tl-record.h — run records: what a job was, what ran and what it measured.
 *
 * A TlRunRecord is a plain C struct model, written to and read from JSON
 * (schema "tilelab-run/2" — "tilelab-run/1", the same without hardware
 * counters, is still read — documented with an example in
 * docs/run-record.md).  The runner fills it, views paint it, the CLI
 * writes it, `render` reads it.  Measured numbers that were not measured
 * are NAN in C and absent in JSON.
 *
 * The model is here (tl-record.c); tl-record-write.c writes it as JSON,
 * tl-record-read.c reads and validates it, tl-record-file.h opens record
 * files; the job is in tl-job.h and the machine facts in tl-machine.h.
 *
 * Matrices (A, B, the float64 reference and each kernel's C) may travel
 * beside the record as .npy files; the record stores their paths relative
 * to its own directory, and loading resolves them there (never outside
 * it).  In memory a record may also hold the matrices themselves.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tl-gpu.h"
#include "gemm/tl-gemm-check.h"
#include "gemm/tl-kernels.h"
#include "core/tl-json-pack.h"
#include "core/tl-matrix.h"
#include "core/tl-stats.h"
#include "record/tl-counters.h"
#include "record/tl-job.h"
#include "record/tl-machine.h"

G_BEGIN_DECLS

#define TL_RUN_RECORD_SCHEMA "tilelab-run/2"
/* The first schema, still read: it has no hardware counters. */
#define TL_RUN_RECORD_SCHEMA_V1 "tilelab-run/1"
/* Units (SMs or CPU threads) a record may name: lanes of the timeline. */
#define TL_RECORD_MAX_UNITS 65536
/* Saved records are indented unless they hold more block records than this. */
#define TL_RUN_RECORD_PRETTY_BLOCKS 20000

/* ---- one kernel's run ------------------------------------------------- */

typedef enum
{
  TL_RUN_OK,        /* ran; see `passed` for verification */
  TL_RUN_ERROR,     /* failed: error_code and message say why */
  TL_RUN_CANCELLED, /* stopped by the user before it finished (record->cancelled is set) */
  TL_RUN_SKIPPED,   /* not run: message says why */
} TlRunStatus;

const char *tl_run_status_name (TlRunStatus status); /* "ok", "error", "cancelled", "skipped" */
const char *tl_backend_name (TlBackend backend);     /* "cpu", "gpu" */
/* A TlErrorCode as a record names it ("parse", "io", …; "other" for -1
 * and unknown codes), and back (-1 for a name it does not know). */
const char *tl_run_error_code_name (int code);
int         tl_run_error_code_from_name (const char *name);

/* Per-block (GPU) or per-tile (CPU) timing: one entry per block. */
typedef struct
{
  guint32 block_x, block_y; /* blockIdx (CPU: tile column, tile row) */
  guint32 unit;             /* SM id (GPU) or thread (CPU) */
  guint32 launch;           /* launch of a multi-launch kernel (CPU: 0) */
  guint64 start_ns, end_ns; /* relative to the earliest start */
} TlBlockRecord;

typedef struct
{
  gboolean valid;
  int regs_per_thread;
  int static_smem_bytes, dynamic_smem_bytes;
  int local_bytes_per_thread; /* spills and local arrays */
  int max_threads_per_block;
  int active_blocks_per_sm;
  int grid_x, grid_y, grid_z;
  int block_x, block_y, block_z;
  int launches;
  double waves;
  double occupancy; /* active warps / max warps per SM, 0..1; NAN if unknown */
  int const_bytes;  /* the kernel's own __constant__ data; -1 when the record has none */
} TlLaunchFacts;

typedef struct
{
  char *kernel_id;
  const TlKernelInfo *info; /* kernel_id's row of the GEMM registry, resolved once when the run
                               is made or read; NULL for an id this build has no GEMM row for
                               (a Gauss rung, a record from another build) */
  TlBackend backend;
  char *precision;  /* what the math did: "exact", "fp32", "fp64", "tf32", "bf16" */
  TlRunStatus status;
  int error_code;   /* TlErrorCode when status is error, -1 otherwise */
  char *message;    /* error text or skip reason; NULL when ok */
  guint threads;    /* CPU threads used (0 for GPU) */

  /* timing (uninstrumented runs), ms */
  TlTimingStats time;
  double *samples_ms;
  guint n_samples;
  double upload_ms, download_ms;     /* GPU transfers; NAN on the CPU */
  double gflops;
  guint64 bytes;                     /* compulsory traffic, tl_stats_gemm_bytes */
  double gbytes_per_s;

  /* verification against the float64 reference: the one rule of
   * gemm/tl-gemm-check.h, |C − ref| ≤ tolerance·(|A|·|B|) per element */
  gboolean verified;
  double max_abs, max_rel, rel_norm;
  double normwise;                   /* ‖C − ref‖_F / (‖A‖_F·‖B‖_F) */
  double tolerance;                  /* the rule's tol(k) (0 for exact) */
  double worst;                      /* max |C − ref| / (|A|·|B|) per element, beside tolerance */
  guint64 n_wrong;                   /* elements over their bound */
  guint n_mismatches;                /* the first of them, in row-major order */
  TlGemmMismatch mismatches[TL_GEMM_CHECK_KEEP];
  gboolean passed;

  /* comparison within the job */
  char *reference_id;                /* the yardstick of this backend and precision */
  const TlKernelInfo *reference;     /* reference_id's row, resolved where it is set or read;
                                        NULL without one (or for an id this build lacks) */
  double percent_of_reference;
  double speedup_vs_naive;           /* against cpu-naive in the same job */

  TlLaunchFacts launch;              /* GPU only */
  gboolean has_plan;                 /* a planned rung: what it ran (gpu/tl-gpu-plan.c) */
  TlGpuGemmPlan plan;
  TlCounters *counters;              /* GPU hardware counters (job.counters); NULL if not asked */

  /* instrumented run */
  double instrumented_median_ms;
  double instrument_overhead_pct;    /* 100·(instrumented − median)/median */
  const char *block_unit;            /* "sm" or "thread" (static string) */
  guint block_tile_m, block_tile_n;  /* C tile per block, 0 if unknown */
  TlBlockRecord *blocks;
  gsize n_blocks;

  /* the result */
  gboolean has_c_stats;
  TlMatrixStats c_stats;
  char *c_path;                      /* .npy beside the record, relative; may be NULL */
  TlMatrix *c;                       /* kept result (job.keep_matrices or loaded); may be NULL */
} TlKernelRun;

TlKernelRun *tl_kernel_run_new  (const char *kernel_id, TlBackend backend);
TlKernelRun *tl_kernel_run_copy (const TlKernelRun *run);
void         tl_kernel_run_free (TlKernelRun *run);
/* marks the run failed with error's domain code and message */
void         tl_kernel_run_set_error (TlKernelRun *run, const GError *error);
void         tl_kernel_run_set_skipped (TlKernelRun *run, const char *reason);
void         tl_kernel_run_set_samples (TlKernelRun *run, const double *samples_ms, guint n);
/* takes ownership of blocks (g_malloc'd) */
void         tl_kernel_run_take_blocks (TlKernelRun *run, TlBlockRecord *blocks, gsize n,
                                        const char *unit);

/* ---- the record ------------------------------------------------------- */

typedef struct
{
  char *schema;           /* TL_RUN_RECORD_SCHEMA */
  char *tilelab_version;
  char *created;          /* ISO 8601, UTC */
  char *command_line;     /* how it was made (CLI), may be NULL */
  char *note;             /* e.g. "no GPU: only CPU kernels ran", may be NULL */
  gboolean cancelled;     /* the user stopped the job: the runs that finished are
                           * complete, the others say TL_RUN_CANCELLED */
  TlMachineFacts machine;
  gboolean has_device;
  TlGpuFacts device;      /* when a GPU ran */
  gboolean has_bandwidth;
  TlGpuBandwidth bandwidth; /* measured by copy kernels in the same job (job.counters) */
  TlJob *job;
  GPtrArray *runs;        /* TlKernelRun*, in the order asked */

  /* summaries of the inputs and the reference */
  gboolean has_input_stats;
  TlMatrixStats a_stats, b_stats, reference_stats;

  /* matrices beside the record (relative paths) or in memory; may be NULL */
  char *a_path, *b_path, *reference_path;
  TlMatrix *a, *b, *reference;

  JsonObject *extensions; /* free-form members for later job kinds; may be NULL */
  TlJsonPackStore *extensions_packed; /* a read record's long arrays of numbers under
                                         extensions, kept packed (core/tl-json-pack.h) */
  char *base_dir;         /* directory the record was loaded from; NULL if not loaded */

  /*< private >*/
  gint ref_count;
} TlRunRecord;

/* A record with created time, version and machine facts filled in; takes
 * a copy of job.  Records are reference counted: new, copy, from_json,
 * from_data and load return one reference. */
TlRunRecord *tl_run_record_new   (const TlJob *job);
TlRunRecord *tl_run_record_copy  (const TlRunRecord *record); /* deep; matrices are ref'd */
TlRunRecord *tl_run_record_ref   (TlRunRecord *record);
void         tl_run_record_unref (TlRunRecord *record);
/* The same as tl_run_record_unref (kept while callers move to unref). */
void         tl_run_record_free  (TlRunRecord *record);
TlKernelRun *tl_run_record_find_run (const TlRunRecord *record, const char *kernel_id);
/* Whether the record was read from the first schema (no counters). */
gboolean     tl_run_record_is_v1 (const TlRunRecord *record);
/* Why run has no counters, for where they would be shown (translated), or
 * NULL when it has them (tl_counters_absence with this record's facts). */
const char  *tl_run_record_counters_absence (const TlRunRecord *record, const TlKernelRun *run);

/* JSON.  Reading validates everything: malformed JSON, a wrong schema,
 * missing members and wrong types give TL_ERROR_PARSE naming the JSON path
 * (e.g. "$.runs[1].time.median.value"). */
JsonNode    *tl_run_record_to_json   (const TlRunRecord *record);
char        *tl_run_record_to_string (const TlRunRecord *record, gboolean pretty);
TlRunRecord *tl_run_record_from_json (JsonNode *node, GError **error);
TlRunRecord *tl_run_record_from_data (const char *data, gssize length, GError **error);

/* Parts of a record on their own, as the record writes and reads them
 * (the worker protocol sends them one at a time: docs/remote.md): the
 * job ($.job), one kernel's run ($.runs[i], read against its job) and a
 * GPU's facts ($.device).  Reading validates as tl_run_record_from_json
 * does, with paths from "$". */
JsonNode    *tl_job_to_json          (const TlJob *job);
TlJob       *tl_job_from_json        (JsonNode *node, GError **error);
JsonNode    *tl_kernel_run_to_json   (const TlKernelRun *run);
TlKernelRun *tl_kernel_run_from_json (JsonNode *node, const TlJob *job, GError **error);
JsonNode    *tl_gpu_facts_to_json    (const TlGpuFacts *facts);
gboolean     tl_gpu_facts_from_json  (JsonNode *node, TlGpuFacts *out, GError **error);

typedef enum
{
  TL_RECORD_SAVE_DEFAULT = 0,
  TL_RECORD_SAVE_MATRICES = 1 << 0, /* write the in-memory matrices beside it as .npy */
} TlRecordSaveFlags;

/* Writes atomically (temporary file + rename).  With
 * TL_RECORD_SAVE_MATRICES the matrices held in memory are written beside
 * the record as STEM.A.npy, STEM.B.npy, STEM.reference.npy and
 * STEM.C.KERNEL.npy, and their relative paths set in the record. */
gboolean     tl_run_record_save (TlRunRecord *record, const char *path,
                                 TlRecordSaveFlags flags, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlKernelRun, tl_kernel_run_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRunRecord, tl_run_record_unref)

G_END_DECLS
