/* tl-gpu.h — the only door between Tilelab's C code and CUDA.
 *
 * Plain C that nvcc also reads as C++: no GLib types, no VLAs, no
 * designated initialisers.  Errors are return values; the message of the
 * last failure on the calling thread is in tl_gpu_last_message().  Nothing
 * behind this door prints or exits.  When CUDA is not built (or no device
 * is present) the stub answers TL_GPU_NO_DEVICE, and the kernel registry
 * still lists every rung so views and the CLI can show the ladder.
 *
 * In a CUDA build the functions that need CUDA live in a module loaded on
 * the first call that needs it (tl-gpu-loader.c; the list is
 * tl-gpu-backend-list.h — a new such function is also a line there); if it
 * cannot be loaded the stub answers and tl_gpu_last_message says why.
 *
 * Matrices crossing the door are host, row-major, contiguous.
 */
#ifndef TL_GPU_H
#define TL_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  TL_GPU_OK = 0,
  TL_GPU_NO_DEVICE,      /* no CUDA device, or CUDA not built in */
  TL_GPU_OUT_OF_MEMORY,  /* message says bytes needed and available */
  TL_GPU_BAD_SHAPE,      /* the rung cannot take this shape or dtype; message says why */
  TL_GPU_LAUNCH_FAILED,  /* launch or API failure; the device is still usable */
  TL_GPU_DEVICE_LOST,    /* sticky fault (illegal address...): no further GPU calls */
  TL_GPU_CANCELLED,
} TlGpuStatus;

/* Same values as TlDtype in src/tl-matrix.h. */
typedef enum
{
  TL_GPU_INT32 = 0,
  TL_GPU_FLOAT32 = 1,
  TL_GPU_FLOAT64 = 2,
} TlGpuDtype;

#define TL_GPU_DTYPE_BIT(d) (1u << (d))

const char *tl_gpu_status_name (TlGpuStatus status);
/* The message of the last failure on this thread ("" if none). */
const char *tl_gpu_last_message (void);
/* 1 when CUDA was compiled in (the stub says 0). */
int tl_gpu_built_with_cuda (void);
/* 1 once a sticky fault (illegal address, …) ruined the CUDA context.  The
 * context belongs to the process, so this latch is process-wide and lives
 * here, where the fault is seen; every later call answers
 * TL_GPU_DEVICE_LOST, and src/ only reads the latch. */
int tl_gpu_is_lost (void);

/* ---- devices ---------------------------------------------------------- */

typedef struct
{
  int ordinal;
  char name[256];
  int cc_major, cc_minor;
  int sm_count;
  int clock_khz;            /* SM clock */
  int mem_clock_khz;
  int mem_bus_width_bits;
  uint64_t total_mem_bytes;
  uint64_t free_mem_bytes;  /* at the time the facts were read */
  int l2_bytes;
  int smem_per_block_bytes;        /* default limit */
  int smem_per_block_optin_bytes;  /* with cudaFuncSetAttribute */
  int smem_per_sm_bytes;
  int regs_per_sm;
  int regs_per_block;
  int max_threads_per_block;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int warp_size;
  int driver_version;       /* e.g. 13000 */
  int runtime_version;
} TlGpuFacts;

typedef struct TlGpuDevice TlGpuDevice;

/* Counts devices; 0 with TL_GPU_NO_DEVICE when there are none or no driver. */
TlGpuStatus tl_gpu_device_count (int *out_count);
TlGpuStatus tl_gpu_device_facts (int ordinal, TlGpuFacts *out_facts);
/* Opens (and makes current on this thread) a device.  Call from the one
 * worker thread that owns the GPU. */
TlGpuStatus tl_gpu_device_open (int ordinal, TlGpuDevice **out_device);
void tl_gpu_device_close (TlGpuDevice *device);
/* TL_GPU_DEVICE_LOST once a sticky fault happened: the caller stops using the GPU. */
TlGpuStatus tl_gpu_device_health (TlGpuDevice *device);
/* For tests only: launches a kernel that writes to an invalid address, so
 * the "GPU lost" path can be checked.  Ruins the CUDA context of the
 * process: every later call answers TL_GPU_DEVICE_LOST. */
TlGpuStatus tl_gpu_debug_fault (TlGpuDevice *device);
/* For tests only: how many GEMMs ran to completion on device `ordinal` in
 * this process (tl_gpu_gemm_run answering TL_GPU_OK), so a test can see
 * which device a job really used.
 *
 * The stub (no CUDA) can pretend to have devices: with the environment
 * variable TL_GPU_STUB_DEVICES=N (1..8) set before the first door call it
 * answers N devices named "Simulated GPU i" and runs GEMMs on the CPU with
 * a plain triple loop (correct results, host timings, no block records).
 * Nothing else about it is real; it exists so the device plumbing (which
 * ordinal runs, what the record names) is testable without a GPU. */
int tl_gpu_debug_gemm_count (int ordinal);

/* ---- the GEMM kernel registry ----------------------------------------- */

/* One row per kernel, in gpu/gemm/tl-gemm-ladder.h (the ladder's one list). */

typedef enum
{
  TL_GPU_KIND_RUNG = 0,      /* one of our kernels */
  TL_GPU_KIND_REFERENCE = 1, /* cuBLAS */
} TlGpuKernelKind;

typedef struct
{
  const char *id;          /* stable, e.g. "gemm-03-smem16", "cublas-fp32" */
  int number;              /* rung number on the ladder, 0 for references */
  const char *title;       /* short, e.g. "shared memory 16×16" */
  const char *lesson;      /* one line: what this rung teaches */
  const char *changed;     /* one short sentence: what it does differently from the rung
                              below it; NULL for the first rung and the references */
  const char *seed;        /* e.g. "000, 001", or "" */
  unsigned dtypes;         /* TL_GPU_DTYPE_BIT mask */
  int min_cc;              /* e.g. 80 for cp.async, 90 for wgmma (needs sm_90a) */
  int instrumentable;      /* has a per-block timed variant */
  int tile_m, tile_n;      /* C tile one thread block computes (for grid overlays) */
  const char *source_path; /* relative to the repo, e.g. "gpu/gemm/gemm-03-smem16.cu" */
  TlGpuKernelKind kind;
  const char *precision;   /* "exact", "fp32", "fp64", "tf32", "bf16" — what the math does */
  const char *counters;    /* the hardware counters this rung's lesson is about: views of
                              src/record/tl-counters.h by key, separated by spaces, e.g.
                              "gld_sectors_per_request dram_bytes"; NULL: none */
} TlGpuKernelInfo;

int tl_gpu_kernel_count (void);
/* 1 when the kernel's code is compiled into this build and can run (given
 * a device); the registry lists every rung regardless (the stub says 0). */
int tl_gpu_kernel_available (const char *id);
const TlGpuKernelInfo *tl_gpu_kernel_info (int index);
const TlGpuKernelInfo *tl_gpu_kernel_find (const char *id);
/* The one rule of the min_cc column: 1 when a GPU of compute capability
 * cc_major.cc_minor (0.0: none) runs a kernel whose row says min_cc (× 10;
 * 0: any GPU).  The harness refuses by it; src/'s registry skips by it. */
int tl_gpu_cc_runs (int min_cc, int cc_major, int cc_minor);

/* ---- hardware counters -------------------------------------------------- */

/* What a multiply did inside the GPU, counted by its performance monitors
 * through CUPTI's range profiler — the counters and metric names of Nsight
 * Compute (docs/counters.md says why CUPTI, and how each number is made).
 * They are collected in a separate, untimed launch after the timed ones,
 * replayed as often as the counters need (the timings stay clean).  CUPTI
 * is loaded with dlopen on the first counting, on the worker thread: a
 * machine without it runs everything else and says why there are no
 * counters.  The list of counters is gpu/tl-gpu-counter-list.h. */

typedef enum
{
#define TL_GPU_COUNTER(ID, key, metric, unit) TL_GPU_COUNTER_##ID,
#include "tl-gpu-counter-list.h"
#undef TL_GPU_COUNTER
  TL_GPU_N_COUNTERS
} TlGpuCounterId;

typedef struct
{
  const char *key;    /* stable name in run records, e.g. "dram_read_bytes" */
  const char *metric; /* the Nsight Compute metric, e.g. "dram__bytes_read.sum" */
  const char *unit;   /* what one count is: "byte", "sector", "warp-cycle", … */
} TlGpuCounterInfo;

/* Info for id (0 ≤ id < TL_GPU_N_COUNTERS), NULL otherwise; the id of a key, or -1. */
const TlGpuCounterInfo *tl_gpu_counter_info (int id);
int tl_gpu_counter_find (const char *key);

typedef enum
{
  TL_GPU_COUNTERS_NOT_ASKED = 0,
  TL_GPU_COUNTERS_MEASURED,
  TL_GPU_COUNTERS_UNAVAILABLE,   /* no CUPTI, one too old, no CUDA, or a GPU it cannot count */
  TL_GPU_COUNTERS_NOT_PERMITTED, /* the driver keeps the counters to administrators (ERR_NVGPUCTRPERM) */
  TL_GPU_COUNTERS_FAILED,        /* CUPTI failed while counting; message says where */
} TlGpuCountersState;

typedef struct
{
  TlGpuCountersState state;
  char message[512];   /* why not measured ("" when measured) */
  double value[TL_GPU_N_COUNTERS]; /* sums over the multiply; NaN: this GPU has no such counter */
  int passes;          /* times each kernel was replayed to collect them all */
  char chip[32];       /* CUPTI's chip name, e.g. "GH100" */
} TlGpuCounters;

/* Peak bandwidths measured by copy kernels on this device, for the
 * roofline's slanted roofs.  bytes per second, counting bytes read plus
 * bytes written; medians of timed launches after warm-ups. */
typedef struct
{
  double dram_bytes_per_s;  /* a copy of buffers far larger than L2 */
  double l2_bytes_per_s;    /* a copy of buffers that stay in L2 (a quarter of it) */
  double dram_buffer_bytes; /* size of each buffer of the DRAM copy */
  double l2_buffer_bytes;   /* size of each buffer of the L2 copy */
} TlGpuBandwidth;

TlGpuStatus tl_gpu_measure_bandwidth (TlGpuDevice *device, TlGpuBandwidth *out);

/* ---- running a GEMM --------------------------------------------------- */

/* One record per thread block of an instrumented launch.  start/end are
 * %globaltimer nanoseconds relative to the earliest block start, so one
 * clock serves all SMs. */
typedef struct
{
  uint32_t block_x, block_y; /* blockIdx; for rung 5's margin launch (a 1-D grid) the C tile */
  uint32_t sm;               /* %smid */
  uint32_t launch;           /* which launch of a multi-launch rung (0..) */
  uint64_t start_ns, end_ns;
} TlGpuBlockRecord;

/* Resource facts of the rung's (main) kernel, from the runtime. */
typedef struct
{
  int regs_per_thread;
  int static_smem_bytes;
  int dynamic_smem_bytes;
  int local_bytes_per_thread; /* spills and local arrays */
  int max_threads_per_block;
  int active_blocks_per_sm;   /* occupancy calculator */
  int grid_x, grid_y, grid_z;
  int block_x, block_y, block_z;
  int launches;               /* kernels launched per multiply */
  double waves;               /* blocks / (active_blocks_per_sm × SMs) */
  int const_bytes;            /* the kernel's own __constant__ data (constSizeBytes);
                                 -1 when not known (a library call, a simulation) */
} TlGpuLaunchFacts;

/* ---- plans: how a planned rung cuts a problem ---------------------------
 *
 * The fastest rung of each precision (17 FP32, 13 TF32, 14 BF16, 15 FP64)
 * is *planned*: before it runs, it chooses a C tile, a split of k, a
 * cluster and a launch order for this m, n, k on this GPU, through the
 * cost model of gpu/tl-gpu-plan.c (the one place it is written down).  The
 * other rungs have one shape and no plan (TlGpuGemmPlan.name empty).
 *
 * A split-k plan cuts k into `splits` slices; the slices of one C tile run
 * as one thread-block cluster and are summed through distributed shared
 * memory in slice order 0, 1, … — the same sum, bit for bit, every run. */

#define TL_GPU_PLAN_NAME_MAX 24

typedef struct
{
  char name[TL_GPU_PLAN_NAME_MAX]; /* "128x256/c2", "128x128/s4": pins the plan; "" unplanned */
  int tile_m, tile_n;      /* C tile of one CTA */
  int splits;              /* k cut into this many slices (1: none) */
  int k_per_split;         /* k of one slice, in elements (the last may be shorter) */
  int cluster;             /* CTAs per cluster: 1, a multicast pair (2), or the splits of a tile */
  int raster;              /* tile-rows per band of the launch order (0: row order) */
  int tiles;               /* C tiles */
  int work;                /* CTAs' worth of work: tiles × splits */
  int slots;               /* CTAs resident at once (SMs × CTAs per SM, whole clusters) */
  int waves;               /* ⌈work / slots⌉ */
  double last_wave_fill;   /* busy slots in the last wave / slots, 0..1 */
  int idle_sms;            /* SMs with nothing to do in the last wave */
  int idle_sms_default;    /* the same for the rung's largest tile without a split: what
                              the plan avoids (or costs) */
  int ctas_per_sm;         /* CTAs of the plan's kernel one SM holds at once, as counted
                              (TlGpuPlanResidency: the occupancy calculator's on a GPU) */
  double model_us;         /* the cost model's estimate for this plan, µs */
  int pinned;              /* 1: asked for by name (TlGpuGemmArgs.plan), not chosen */
  char why[200];           /* one sentence of why, English */
} TlGpuGemmPlan;

/* A rung offers at most this many plans. */
#define TL_GPU_PLANS_MAX 48

/* How many CTAs of each plan's kernel one SM of a device holds at once, by
 * plan index: the occupancy calculator's answer for the kernel the plan
 * launches on that device (registers, shared memory, threads).  The GPU
 * harness asks it once per kernel and device and costs the plans with it;
 * 0 (or no table) means not known, and the tile list's expectation for an
 * H100/H200 stands in (gemm/tl-gemm-plans.h), as on a machine without a
 * GPU. */
typedef struct
{
  int ctas_per_sm[TL_GPU_PLANS_MAX];
} TlGpuPlanResidency;

/* How many plans kernel_id offers (0: the rung is not planned). */
int tl_gpu_gemm_plan_count (const char *kernel_id);
/* Plan `index` (0 … count−1) of kernel_id for an m×k×n product on the GPU
 * described by facts (its SM count and clock; facts may be NULL: 132 SMs,
 * 1.98 GHz), costed by the model.  1 on success, 0 for a bad index or a
 * plan this GPU cannot run (split-k needs clusters: compute capability 9.0). */
int tl_gpu_gemm_plan_nth (const char *kernel_id, int index, int m, int n, int k,
                          const TlGpuFacts *facts, TlGpuGemmPlan *out);
/* The same with the device's residency of each plan (NULL: the tile list's). */
int tl_gpu_gemm_plan_nth_resident (const char *kernel_id, int index, int m, int n, int k,
                                   const TlGpuFacts *facts, const TlGpuPlanResidency *residency,
                                   TlGpuGemmPlan *out);
/* The plan kernel_id runs: the pinned one when `pinned` names one of its
 * plans ("" or NULL: the cost model's choice, the cheapest).  An unplanned
 * rung answers TL_GPU_OK with an empty plan.  A name that is not one of
 * the rung's plans (or any name for an unplanned rung) is
 * TL_GPU_BAD_SHAPE; the caller says so (tl_gpu_gemm_plan_nth lists them;
 * tl_gpu_gemm_run's message does). */
TlGpuStatus tl_gpu_gemm_plan_choose (const char *kernel_id, int m, int n, int k,
                                     const TlGpuFacts *facts, const char *pinned,
                                     TlGpuGemmPlan *out);
/* The same with the device's residency of each plan (NULL: the tile list's). */
TlGpuStatus tl_gpu_gemm_plan_choose_resident (const char *kernel_id, int m, int n, int k,
                                              const TlGpuFacts *facts,
                                              const TlGpuPlanResidency *residency,
                                              const char *pinned, TlGpuGemmPlan *out);

typedef enum
{
  TL_GPU_STAGE_UPLOAD,
  TL_GPU_STAGE_WARMUP,
  TL_GPU_STAGE_RUN,        /* step = repeat index, total = repeats */
  TL_GPU_STAGE_INSTRUMENTED,
  TL_GPU_STAGE_DOWNLOAD,
  TL_GPU_STAGE_COUNTERS,   /* the counted (replayed) launch */
} TlGpuStage;

typedef void (*TlGpuProgressFn) (TlGpuStage stage, int step, int total, void *user_data);
/* Polled between launches; returns nonzero to cancel. */
typedef int (*TlGpuCancelFn) (void *user_data);

typedef struct
{
  TlGpuDtype dtype;
  int m, n, k;            /* C is m×n, A m×k, B k×n */
  const void *a, *b;      /* host, row-major, contiguous */
  void *c;                /* host output m×n, written after the runs (may be NULL) */
  int warmups;            /* at least 2 are used */
  int repeats;            /* timed launches (>= 1) */
  int flush_l2;           /* overwrite an L2-sized buffer before each timed launch */
  int instrument;         /* also run the per-block timed variant */
  int instrument_repeats; /* timed instrumented launches (>= 1) */
  int interleave_instrumented; /* benchmarks: one instrumented launch after each
                                  timed one (`repeats` of them) instead of
                                  instrument_repeats at the end, so clock drift
                                  does not read as overhead */
  TlGpuProgressFn progress;
  TlGpuCancelFn cancelled;
  void *user_data;
  /* Hardware counters of one more, untimed launch after the timed ones
   * (and after the instrumented ones): TL_GPU_GEMM_COUNT counts it with
   * CUPTI; TL_GPU_GEMM_MARK counts nothing.  Either way the launch runs
   * inside the NVTX range "tilelab-counters KERNEL-ID", so an outside
   * profiler sees the same launch (ncu --nvtx --nvtx-include
   * "tilelab-counters gemm-03-smem16/"). */
  int counters;
  /* A planned rung's plan by name (tl_gpu_gemm_plan_nth lists them); NULL or "":
   * the cost model chooses.  Unplanned rungs refuse a name. */
  const char *plan;
} TlGpuGemmArgs;

#define TL_GPU_GEMM_COUNT 1
#define TL_GPU_GEMM_MARK 2

typedef struct
{
  double upload_ms;            /* A and B host→device (events) */
  double download_ms;          /* C device→host */
  int n_times;
  double *times_ms;            /* n_times uninstrumented launch times; free with tl_gpu_gemm_result_clear */
  double instrumented_median_ms; /* 0 if not instrumented */
  TlGpuLaunchFacts launch;
  size_t n_blocks;
  TlGpuBlockRecord *blocks;    /* from the last instrumented launch; may be NULL */
  TlGpuCounters counters;      /* state NOT_ASKED unless args.counters; a failure to
                                  count leaves the run OK and says why here */
  TlGpuGemmPlan plan;          /* what a planned rung ran (name "" otherwise) */
} TlGpuGemmResult;

TlGpuStatus tl_gpu_gemm_run (TlGpuDevice *device, const char *kernel_id,
                             const TlGpuGemmArgs *args, TlGpuGemmResult *out_result);
void tl_gpu_gemm_result_clear (TlGpuGemmResult *result);

/* ---- LU: the Gauss ladder's GPU rungs (gpu/lu/) ----------------------- */

/* Recording the steps (a mode, never the headline): when TlGpuLuArgs.observer
 * is set, the rungs whose row says records_steps (the ladder's own, lu-01 …
 * lu-05) run ONE more factorisation after the timed ones that stops after
 * every column and downloads what a step recorder needs, handing it to
 * these callbacks (the C side implements them with its TlLuRecorder, so
 * gpu/ stays free of GLib).  The fused rungs run their panels one column
 * per launch in that run (lu-03 each launch in its two halves, lu-04 its
 * persistent kernel and lu-05 its cluster kernel with one column), so the
 * factorisation is the same and only slower.  lu-cusolver refuses
 * (TL_GPU_BAD_SHAPE: a library call has no steps to show).
 *
 * Host data comes as a window into the working matrix, in args->dtype:
 * element (i, j) of the m×n matrix, row0 ≤ i < row0+rows, col0 ≤ j <
 * col0+cols, is at data[(i − row0)·ld + (j − col0)].  Windows live only
 * during the callback.  Indices are 0-based and global. */
typedef struct
{
  const void *data;
  int row0, col0, rows, cols, ld;
} TlGpuLuWindow;

typedef struct
{
  void *user_data;
  /* Step k begins: col is column k, rows k..m−1, before the pivot search. */
  void (*step_search) (void *user_data, int k, int block, const TlGpuLuWindow *col);
  /* The pivot: row pivot_row was chosen (== k: no swap), U(k,k) after the swap. */
  void (*step_pivot) (void *user_data, int k, int pivot_row, double pivot_value);
  /* Column k eliminated: mult is column k, rows k+1..m−1 (the multipliers);
   * the rank-1 update touched rows/cols [row0, row0+rows) × [col0, col0+cols). */
  void (*step_eliminated) (void *user_data, int k, const TlGpuLuWindow *mult, int upd_row0,
                           int upd_rows, int upd_col0, int upd_cols);
  /* U rows k0..k0+kb−1 are final: rows holds them, columns k0..n−1. */
  void (*u_rows) (void *user_data, int k0, int kb, const TlGpuLuWindow *rows);
  /* Block step `index` (blocked rungs): its columns and the time of its
   * panel, swap, trsm and gemm phases in ms (CUDA events, measured in the
   * phase-timing run, which does not stop to download), and the GEMM region. */
  void (*block) (void *user_data, int index, int k0, int kb, const double phase_ms[4],
                 int upd_row0, int upd_rows, int upd_col0, int upd_cols);
  /* Whether a snapshot after steps_done steps is wanted (may be NULL: never). */
  int (*snapshot_due) (void *user_data, int steps_done);
  /* The whole working matrix after steps_done steps. */
  void (*snapshot) (void *user_data, int steps_done, const TlGpuLuWindow *whole);
  /* Pooled snapshots (optional).  With pool_r or pool_c above 1 and
   * snapshot_pooled set, the harness pools on the device instead of
   * downloading the whole matrix (576 MB at 12000² float32, and seconds
   * of host work per snapshot): cell (I, J) of the ⌈m/pool_r⌉×⌈n/pool_c⌉
   * result holds the element of largest |a| in rows I·pool_r… and columns
   * J·pool_c… of its window, signed (a NaN wins, the last one in row-major
   * order; ties go to the first; an all-zero window gives +0), exactly as
   * TlLuRecorder pools on the host.  cells are float64, row-major, and
   * live only during the callback. */
  int pool_r, pool_c;
  void (*snapshot_pooled) (void *user_data, int steps_done, int pool_r, int pool_c, int rows,
                           int cols, const double *cells);
} TlGpuLuObserver;

/* The GPU rungs of the Gauss ladder, one row each in gpu/lu/tl-lu-ladder.h
 * (src/lu/tl-lu.c lists them beside the CPU kernels). */
typedef struct
{
  const char *id;          /* "lu-02-blocked", "lu-cusolver", … */
  int number;              /* rung number, 0 for the reference */
  const char *title;       /* English; src/ shows it through gettext */
  const char *lesson;      /* one line, English */
  const char *seed;        /* e.g. "004", or "" */
  unsigned dtypes;         /* TL_GPU_DTYPE_BIT mask */
  int reference;           /* the yardstick (cuSOLVER) */
  int default_block;       /* blocked rungs: block size when none is asked; 0: unblocked */
  int no_pivoting;         /* can run without row swaps (TlGpuLuArgs.pivoting = 0) */
  int records_steps;       /* can feed a TlGpuLuObserver */
  int phases;              /* splits its time into panel, swap, trsm, gemm (a phase-timing run) */
  const char *source_path; /* relative to the repo */
  int fastest_from;        /* the fastest GPU LU of the ladder for square n from this size up to
                              the next row's fastest_from (docs/perf/lu-*); 0: at no size */
} TlGpuLuKernelInfo;

int tl_gpu_lu_kernel_count (void);
const TlGpuLuKernelInfo *tl_gpu_lu_kernel_info (int index);
const TlGpuLuKernelInfo *tl_gpu_lu_kernel_find (const char *id);

/* Rungs run by id.  A is host, row-major, contiguous m×n and is overwritten
 * by the packed L\U of the LAST run (timed, or the recording run); ipiv
 * (min(m,n) ints) receives 0-based row swaps (LAPACK's minus one).  The
 * rungs whose row says phases run once more after the timed runs with
 * every phase timed on its own (the look-ahead rungs without overlap):
 * phase_ms and the observer's per-block split come from that run. */
typedef struct
{
  TlGpuDtype dtype;        /* float32 or float64 */
  int m, n;
  void *a;
  int *ipiv;
  int block_size;          /* blocked rungs; 0: the rung's default */
  int pivoting;            /* 1 partial, 0 none (lu-01-percolumn only) */
  int warmups;             /* untimed factorisations first (each from a fresh copy of A) */
  int repeats;             /* timed factorisations (>= 1) */
  TlGpuCancelFn cancelled;
  void *user_data;
  const TlGpuLuObserver *observer; /* NULL: no recording (the timed path is the same either way) */
} TlGpuLuArgs;

typedef struct
{
  int info;                /* 0, or 1-based first exactly zero pivot (LAPACK) */
  int n_times;
  double *times_ms;        /* per timed factorisation (CUDA events, device time only);
                              free with tl_gpu_lu_result_clear */
  double phase_ms[4];      /* panel, swap, trsm, gemm of the last run (rungs that split
                              their time; 0 otherwise) */
  double upload_ms, download_ms;
  double phase_run_ms;     /* device time of the whole phase-timing run (phase_ms sum to ≤ this) */
  double record_ms;        /* wall time of the recording run with its downloads (observer set) */
  int block_size;          /* the block size the rung factored with (blocked rungs: the one
                              asked for, the row's default, or a width the rung chose itself) */
} TlGpuLuResult;

TlGpuStatus tl_gpu_lu_run (TlGpuDevice *device, const char *kernel_id,
                           const TlGpuLuArgs *args, TlGpuLuResult *out_result);
void tl_gpu_lu_result_clear (TlGpuLuResult *result);

/* X = A⁻¹B on the GPU from a factorisation (packed L\U and 0-based ipiv,
 * as tl_gpu_lu_run returns them; square n×n, nonsingular): the swaps
 * composed into one permutation (on the host, O(n)) and applied by one
 * gather, then two triangular solves (cuBLAS) for all nrhs columns at once
 * — LAPACK's getrs.  b is host, row-major n×nrhs, overwritten by X.  An
 * ipiv entry outside k…n−1 is TL_GPU_BAD_SHAPE.  out_ms (may be NULL)
 * receives the device time of the solve alone. */
typedef struct
{
  TlGpuDtype dtype;
  int n, nrhs;
  const void *lu;
  const int *ipiv;
  void *b;
} TlGpuLuSolveArgs;

TlGpuStatus tl_gpu_lu_solve (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms);

/* Rank and null space by the singular values (gpu/lu/lu-rank.cu: cuSOLVER's
 * Jacobi SVD, gesvdj).  A is host, row-major m×n (m, n ≥ 1).  sigma
 * (min(m,n) doubles, the caller's) receives the singular values, largest
 * first; rank = #{σ_k > rel_cut·σ₁} (the caller passes max(m,n)·ε of A's
 * dtype, numpy's rule).  With want_null_space, null_space receives the
 * right singular vectors of the n − rank smallest singular values, an
 * orthonormal basis of {x : Ax = 0}, as nullity rows of n doubles (row t =
 * vector t; malloc'd, freed by tl_gpu_rank_result_clear).  svd_ms: device
 * time of the SVD alone (events).  A gesvdj that does not converge is
 * TL_GPU_LAUNCH_FAILED with a message. */
typedef struct
{
  TlGpuDtype dtype;
  int m, n;
  const void *a;
  double rel_cut;
  int want_null_space;
  double *sigma;
} TlGpuRankArgs;

typedef struct
{
  int rank, nullity;
  double *null_space;
  double svd_ms;
  int sweeps;              /* Jacobi sweeps gesvdj took */
} TlGpuRankResult;

TlGpuStatus tl_gpu_rank (TlGpuDevice *device, const TlGpuRankArgs *args, TlGpuRankResult *out);
void        tl_gpu_rank_result_clear (TlGpuRankResult *result);

/* The solve as a benchmark: solver "lu-solve" (the above) or
 * "cusolver-getrs" (the reference: cuSOLVER's getrs on column-major copies
 * of L\U and B and a 1-based ipiv, made before the clock starts).  warmups
 * untimed solves, then `repeats` (>= 1) timed ones, each from the same B;
 * times_ms[repeats] receives device times (CUDA events around the solve
 * alone); b is overwritten by X of the last one, row-major as above. */
TlGpuStatus tl_gpu_lu_solve_bench (TlGpuDevice *device, const char *solver,
                                   const TlGpuLuSolveArgs *args, int warmups, int repeats,
                                   double *times_ms);

/* Exact LU over GF(p), p a prime below 2³¹, on the GPU (gpu/lu/gfp-lu.cu):
 * a is host, row-major m×n residues 0..p−1, overwritten by the packed L\U
 * mod p; the pivot of column k is the first nonzero at or below the
 * diagonal (as tl_gfp_lu on the CPU, so both give identical results);
 * ipiv 0-based; info = 1-based first zero pivot.  out_ms: device time. */
TlGpuStatus tl_gpu_gfp_lu (TlGpuDevice *device, int m, int n, uint32_t p, uint32_t *a, int *ipiv,
                           int *out_info, double *out_ms);


/* ---- your own kernel: a GEMM compiled at run time ---------------------- */

/* A student's kernel file (gpu/tilelab.cuh says its form; src/gemm/
 * tl-user-kernel.h reads its declarations) compiled by NVRTC, the CUDA
 * toolkit's run-time compiler, which the module opens with dlopen on the
 * first compile (TL_NVRTC_LIBRARY names the file to use instead).  No GPU
 * is needed to compile: the architecture is named.  NVRTC gets tilelab.cuh
 * as an in-memory header. */
typedef struct
{
  const char *file_name;   /* as messages name it, e.g. "mine.cu" */
  const char *source;      /* the file's text */
  const char *tail;        /* compiled after it (the entries' signature checks, each
                              under a #line of its declaration); may be NULL */
  const char *entries[3];  /* per TlGpuDtype: the entry's name expression ("gemm_f32",
                              "gemm<float>"), NULL where the file has none */
  int arch;                /* compute capability × 10: 90 compiles for sm_90 */
  int timed;               /* 1: TILELAB_TIMED, the marks write block records */
} TlGpuUserSource;

typedef struct
{
  int compiled;            /* 1: image holds the cubin; 0: log says why not */
  char *log;               /* NVRTC's log with ptxas's report (-Xptxas -v); malloc'd */
  char *lowered[3];        /* the entries' names in the cubin; malloc'd, NULL if none */
  void *image;             /* the cubin, malloc'd */
  size_t image_size;
  double compile_ms;       /* wall time of the compilation */
  int nvrtc_major, nvrtc_minor;
} TlGpuUserBuild;

/* TL_GPU_OK whether or not the source compiled (out->compiled says);
 * TL_GPU_NO_DEVICE when NVRTC cannot be used (not built with CUDA, the
 * library missing), with the reason. */
TlGpuStatus tl_gpu_user_compile (const TlGpuUserSource *source, TlGpuUserBuild *out);
void tl_gpu_user_build_clear (TlGpuUserBuild *build);

/* One compiled entry and its launch, the geometry already evaluated at
 * the run's m, n, k. */
typedef struct
{
  const char *name;            /* for messages, e.g. "mine.cu" */
  const void *image;           /* the plain build's cubin */
  size_t image_size;
  const void *timed_image;     /* the TILELAB_TIMED build's; NULL: no block timing */
  size_t timed_image_size;
  const char *entry;           /* the lowered name of the dtype's entry, in both images */
  unsigned int grid[3], block[3];
  unsigned int dynamic_smem;   /* bytes */
} TlGpuUserLaunch;

/* tl_gpu_gemm_run for a user kernel: the same harness, timing, poisoning
 * and records.  C lies between two guard zones and A and B are compared
 * with what was uploaded after the runs: a kernel that wrote outside C is
 * TL_GPU_LAUNCH_FAILED saying where.  A launch the GPU refuses (too many
 * threads, registers or shared memory for a block) is TL_GPU_LAUNCH_FAILED
 * in words; an illegal address is TL_GPU_DEVICE_LOST — run user kernels in
 * a process of their own (src/run/tl-user-worker.h). */
TlGpuStatus tl_gpu_user_gemm_run (TlGpuDevice *device, const TlGpuUserLaunch *kernel,
                                  const TlGpuGemmArgs *args, TlGpuGemmResult *out_result);

#ifdef __cplusplus
}
#endif

#endif /* TL_GPU_H */
