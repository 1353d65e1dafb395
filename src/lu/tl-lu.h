/* tl-lu.h — Gauss elimination as an LU factorisation: the Gauss ladder.
 *
 * PA = LU for an m×n matrix A (row-major TlMatrix, float32 or float64).
 * The result is LAPACK's getrf model, written for row-major storage:
 *
 *   lu     m×n, packed: below the diagonal the multipliers of L (whose unit
 *          diagonal is not stored), on and above it U.  This is seed 004's
 *          "keep the coefficients in the entries known to be zero".
 *   ipiv   min(m,n) entries, 0-BASED: at step k row k was swapped with row
 *          ipiv[k] (≥ k).  LAPACK's ipiv is this plus one.  Applying the
 *          swaps k = 0, 1, … in order to A gives PA.
 *   info   0 when every pivot U(k,k) is nonzero; otherwise k+1 for the
 *          first k with U(k,k) == 0 exactly (LAPACK's 1-based convention).
 *          As in LAPACK the factorisation still completes (info > 0 is not
 *          an error): a zero column is skipped and elimination continues,
 *          which is how seed 004 lets rank deficiency through.
 *
 * Without pivoting a zero pivot with nonzeros below it cannot be
 * eliminated: the factorisation stops there, sets info and `breakdown`,
 * and the lower-right part is left unfactored — the lesson of why we pivot.
 *
 * The determinant (square A) is kept as sign and ln|det| so large n never
 * overflows; the value is given as well when it is representable.
 */
#pragma once

#include <gio/gio.h>
#include "gemm/tl-kernels.h"
#include "core/tl-matrix.h"
#include "device/tl-gpu-session.h"
#include "lu/tl-lu-terms.h"

G_BEGIN_DECLS

/* ---- the ladder --------------------------------------------------------- */

typedef struct
{
  const char *id;          /* "lu-cpu-unblocked", "lu-02-blocked", "lu-cusolver", … */
  int number;              /* GPU rung number, 0 otherwise */
  const char *title;       /* marked for translation: show it through gettext */
  const char *lesson;      /* one line, marked for translation */
  const char *seed;        /* "004" */
  guint dtypes;            /* TL_DTYPE_BIT mask */
  TlBackend backend;
  gboolean reference;      /* LAPACK, cuSOLVER */
  gboolean blocked;        /* uses block_size */
  gsize default_block;     /* blocked kernels: the block size when none is asked */
  gboolean no_pivoting;    /* can run with TL_PIVOTING_NONE */
  gboolean records_steps;  /* can fill a TlLuRecorder (the Gauss page offers these) */
  gboolean phases;         /* splits its time into TlLuPhase (TlLuResult.phase_ns) */
  const char *source_path; /* relative to the source tree */
  gsize fastest_from;      /* GPU rungs: the fastest GPU LU for square n from this size up to the
                              next rung's fastest_from (docs/perf/lu-*); 0: at no size */
} TlLuKernelInfo;

/* The ladder: the CPU kernels (src/lu/), then the GPU rungs (the door's
 * rows, gpu/lu/tl-lu-ladder.h).  Callers decide by these columns, never by
 * ids. */
guint                 tl_lu_kernel_count (void);
const TlLuKernelInfo *tl_lu_kernel_get   (guint index);
const TlLuKernelInfo *tl_lu_kernel_find  (const char *id);

#define TL_LU_DEFAULT_KERNEL "lu-cpu-blocked"
/* The kernel id "gpu" means the fastest GPU rung for A's size (det, solve
 * and lu take it, --kernel gpu): the rung with the largest fastest_from at
 * or below max(m, n), from the ladder's rows.  NULL when no GPU rung
 * claims the size. */
const char *tl_lu_fastest_gpu_kernel (gsize m, gsize n);
#define TL_LU_DEFAULT_BLOCK  64

/* ---- the result --------------------------------------------------------- */

typedef struct
{
  char *kernel_id;
  TlPivoting pivoting;
  gsize block_size;        /* 0 for unblocked kernels */
  TlMatrix *lu;            /* packed L\U, m×n, A's dtype */
  gint32 *ipiv;            /* n_ipiv = min(m,n) entries, 0-based */
  gsize n_ipiv;
  gsize n_swaps;           /* ipiv[k] != k */
  gsize info;              /* 0, or 1-based index of the first exactly zero pivot */
  gboolean breakdown;      /* pivoting none stopped at step info-1 */
  gsize rank;              /* pivot rank: #|U(k,k)| > tol; a lower bound of rank(A) */
  double rank_tol;         /* the tolerance used: max(m,n)·ε·max|U(k,k)| */
  /* determinant, square A only (otherwise det_sign 0, log_abs_det NaN) */
  int det_sign;            /* −1, 0, +1 */
  double log_abs_det;      /* ln|det|, −inf when singular */
  double det;              /* sign·exp(log_abs_det) when finite and nonzero in double, else NaN;
                              exactly 0 for singular */
  gboolean det_finite;     /* det holds the value */
  double growth;           /* max|U| / max|A| (1 for A = 0) */
  double max_abs_a;
  double elapsed_s;        /* the factorisation alone: CPU wall time; GPU device time
                              (the median of TlLuOptions.repeats runs) */
  gint64 phase_ns[TL_LU_N_PHASES]; /* blocked kernels: time per phase (0 otherwise) */
  gint64 phase_run_ns;     /* the factorisation phase_ns was measured in (GPU: a separate
                              phase-timing run; CPU: elapsed_s): the phases sum to ≤ this */
  double record_s;         /* GPU rungs with a recorder: wall time of the recording run
                              (stops per column to download; elapsed_s stays the timed run) */
  int gpu_ordinal;         /* GPU rungs: the device (tl_lu_solve solves there too) */
} TlLuResult;

void tl_lu_result_free (TlLuResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlLuResult, tl_lu_result_free)

/* Fills det_sign, log_abs_det, det, det_finite, rank, growth, n_swaps from
 * lu, ipiv, info and max_abs_a (used by every kernel and the GPU door). */
void tl_lu_result_finish (TlLuResult *result);

/* ---- running ------------------------------------------------------------ */

typedef struct _TlLuRecorder TlLuRecorder; /* tl-lu-recorder.h */

typedef struct
{
  const char *kernel_id;   /* NULL: TL_LU_DEFAULT_KERNEL */
  gsize block_size;        /* 0: TL_LU_DEFAULT_BLOCK on the CPU, 128 on the GPU */
  TlPivoting pivoting;
  const char *gemm;        /* trailing update of lu-cpu-blocked: "openblas" (cblas_?gemm,
                              default) or "cpu-blocked" (Tilelab's tl_cpu_gemm) */
  int gpu_ordinal;         /* GPU rungs: which device (default 0) */
  TlGpuSession *gpu;       /* GPU rungs: whose device; NULL: the thread's default session
                              (the runner worker's), else one opened for the call */
  guint warmups;           /* GPU rungs: untimed factorisations first (default 0) */
  guint repeats;           /* GPU rungs: timed factorisations, elapsed_s is their median
                              (0 means 1) */
} TlLuOptions;

/* Factors A (not modified) with one kernel of the ladder.  The recorder,
 * when given, receives every step (a mode: headline timings run without).
 * Errors: unknown kernel or pivoting a kernel lacks (TL_ERROR_INVALID),
 * int32 or a dtype the kernel lacks (TL_ERROR_UNSUPPORTED), NaN/Inf in A
 * with its position (TL_ERROR_INVALID), no GPU (TL_ERROR_NO_DEVICE),
 * cancellation (G_IO_ERROR_CANCELLED).  A singular A is not an error. */
gboolean tl_lu_factor (const char     *kernel_id,
                       const TlMatrix *a,
                       gsize           block_size,
                       TlPivoting      pivoting,
                       TlLuRecorder   *recorder,
                       GCancellable   *cancellable,
                       TlLuResult    **out_result,
                       GError        **error);

gboolean tl_lu_factor_full (const TlLuOptions *options,
                            const TlMatrix    *a,
                            TlLuRecorder      *recorder,
                            GCancellable      *cancellable,
                            TlLuResult       **out_result,
                            GError           **error);

/* Checks A for NaN/Inf: TL_ERROR_INVALID naming the first position (1-based
 * row and column, as a user counts). */
gboolean tl_lu_check_finite (const TlMatrix *a, GError **error);

/* LAPACK's estimate (?gecon) of 1/κ₁(A), the reciprocal condition number in
 * the 1-norm, from the packed factors of a square A and ‖A‖₁, in O(n²): 0
 * when a pivot is exactly zero (info > 0).  Within a small factor of the
 * truth in practice (it bounds ‖A⁻¹‖₁ from below). */
double   tl_lu_rcond (const TlLuResult *result, double anorm_one);

/* P·A applied in place to a (rows swapped as ipiv says), and its inverse. */
void tl_lu_apply_pivots (TlMatrix *a, const gint32 *ipiv, gsize n_ipiv, gboolean inverse);

/* Reconstructs L·U (m×n, float64) from a packed result: used by tests and
 * the CLI's --check. */
TlMatrix *tl_lu_reconstruct (const TlLuResult *result, GError **error);

G_END_DECLS
