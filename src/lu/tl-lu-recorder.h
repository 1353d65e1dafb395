/* tl-lu-recorder.h — Gauss elimination step by step, for playback.
 *
 * A recorder is handed to tl_lu_factor (or tl_gfp_lu) and collects, per
 * elimination step k: the pivot column searched (|a(i,k)|, i ≥ k), the
 * chosen pivot row and value, whether rows were swapped, the multipliers
 * l(i,k), the finished U row, the trailing-update region, the running
 * growth factor max|U|/max|A| and the running sign and ln|det|; per block
 * step the time split into panel, swaps, triangular solve and GEMM update
 * (seed 004, Figure 5); and snapshots of the working matrix.
 *
 * Sizes stay bounded: vectors longer than 512 are pooled to at most 256
 * entries, snapshots are whole for max(m,n) ≤ 512 and pooled to at most
 * 256×256 above.  A pooled cell holds the element of largest |a| in its
 * window (signed), so |cell| is the window's max |a|.  At most
 * max_snapshots snapshots are kept (input, evenly spaced, final).
 *
 * In GF(p) mode (modulus > 0) all values are exact integers 0..p−1.
 *
 * Its file form, {"kind": "lu", "schema": 1, …}, is read and written by
 * record/tl-gauss-record.h; docs/gauss-record.md describes it.
 */
#pragma once

#include <gio/gio.h>
#include "core/tl-matrix.h"
#include "lu/tl-lu-terms.h"

/* The recorder itself; tl-lu.h names it for tl_lu_factor. */
typedef struct _TlLuRecorder TlLuRecorder;

G_BEGIN_DECLS

#define TL_LU_RECORD_WHOLE_MAX 512 /* up to this, vectors and snapshots are whole */
#define TL_LU_RECORD_POOLED 256    /* above it, pooled to this many per axis */

typedef struct
{
  guint len;        /* stored entries */
  guint pool;       /* source entries per stored entry (1 = whole) */
  double *data;
} TlLuVector;

typedef struct
{
  guint k;                  /* step (0-based column) */
  guint block;              /* block step it belongs to */
  TlLuVector column;        /* |a(i,k)| for i = k..m-1 before the choice */
  gint64 pivot_row;         /* chosen row (global, 0-based); == k when not swapped */
  double pivot_value;       /* U(k,k) after the swap (0 for a zero column) */
  gboolean swapped;
  gboolean zero_pivot;      /* nothing nonzero to pivot on (info candidate) */
  TlLuVector multipliers;   /* l(i,k), i = k+1..m-1 */
  TlLuVector u_row;         /* U(k, k..n-1) */
  guint upd_row0, upd_rows, upd_col0, upd_cols; /* trailing region updated by this step */
  double growth;            /* running max|U| / max|A| */
  int det_sign;             /* running sign of ∏ pivots × (−1)^swaps */
  double log_abs_det;       /* running ln|∏ pivots| */
  guint64 det_mod;          /* GF(p): running (−1)^swaps ∏ pivots mod p */
} TlLuStep;

typedef struct
{
  guint index;
  guint k0, kb;             /* columns k0..k0+kb-1 form the panel */
  gint64 phase_ns[TL_LU_N_PHASES];
  guint upd_row0, upd_rows, upd_col0, upd_cols; /* region of the GEMM update */
} TlLuBlockStep;

typedef struct
{
  guint after_steps;        /* 0 = the input */
  guint rows, cols;         /* stored shape */
  guint pool_r, pool_c;     /* source cells per stored cell */
  double *data;             /* rows × cols, row-major */
} TlLuSnapshot;

struct _TlLuRecorder
{
  /* header */
  char *kernel_id;
  char *dtype;              /* "float32", "float64", "gfp" */
  guint64 modulus;          /* 0 for floating point */
  guint rows, cols;
  guint block_size;
  TlPivoting pivoting;
  double max_abs_a;
  guint max_snapshots;

  GArray *steps;            /* TlLuStep */
  GArray *blocks;           /* TlLuBlockStep */
  GArray *snapshots;        /* TlLuSnapshot */

  /* result (filled by tl_lu_recorder_finish) */
  gboolean finished;
  gint32 *ipiv;
  guint n_ipiv;
  gsize info;
  gboolean breakdown;
  gsize rank;
  int det_sign;
  double log_abs_det;
  double growth;

  /*< private >*/
  guint snapshot_interval;
  guint last_snapshot;
  double max_abs_u;
  guint64 det_mod;
};

TlLuRecorder *tl_lu_recorder_new  (guint max_snapshots); /* 0: 65 */
void          tl_lu_recorder_free (TlLuRecorder *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlLuRecorder, tl_lu_recorder_free)

/* ---- called by the kernels ------------------------------------------------ */

/* Starts a recording of A (resets what was there); takes the input snapshot.
 * a is either a TlMatrix (float) or, for GF(p), NULL with values given by
 * tl_lu_recorder_snapshot_values. */
void tl_lu_recorder_begin (TlLuRecorder *self, const char *kernel_id, const char *dtype,
                           guint64 modulus, guint rows, guint cols, guint block_size,
                           TlPivoting pivoting, double max_abs_a);
/* Appends step k; get(i, j) reads the working matrix through user data. */
typedef double (*TlLuGetFn) (gconstpointer data, gsize i, gsize j);
void tl_lu_recorder_step_search (TlLuRecorder *self, guint k, guint block,
                                 TlLuGetFn get, gconstpointer data);
void tl_lu_recorder_step_pivot  (TlLuRecorder *self, guint k, gint64 pivot_row,
                                 double pivot_value, gboolean zero_pivot);
void tl_lu_recorder_step_eliminated (TlLuRecorder *self, guint k, TlLuGetFn get,
                                     gconstpointer data, guint upd_row0, guint upd_rows,
                                     guint upd_col0, guint upd_cols);
/* U row k is final (blocked kernels call this after the triangular solve). */
void tl_lu_recorder_step_u_row  (TlLuRecorder *self, guint k, TlLuGetFn get, gconstpointer data);
void tl_lu_recorder_block       (TlLuRecorder *self, guint index, guint k0, guint kb,
                                 const gint64 phase_ns[TL_LU_N_PHASES],
                                 guint upd_row0, guint upd_rows, guint upd_col0, guint upd_cols);
/* Whether a snapshot after steps_done steps would be kept (the GPU rungs
 * ask before downloading the whole matrix). */
gboolean tl_lu_recorder_snapshot_due (const TlLuRecorder *self, guint steps_done);
/* Offers a snapshot after steps_done steps; kept when due or final. */
void tl_lu_recorder_snapshot    (TlLuRecorder *self, guint steps_done, TlLuGetFn get,
                                 gconstpointer data);
/* The same for a float32/float64 matrix of the recording's shape, read row
 * by row (the getter's call per element took 0.8 s at 12000²); FALSE, with
 * nothing kept, when cancellable is cancelled on the way (checked every 64
 * rows). */
gboolean tl_lu_recorder_snapshot_matrix (TlLuRecorder *self, guint steps_done, const TlMatrix *m,
                                         GCancellable *cancellable);
/* The pooling of this recording's snapshots: source rows and columns per
 * stored cell (1 and 1: whole). */
void tl_lu_recorder_snapshot_pool (const TlLuRecorder *self, guint *pool_r, guint *pool_c);
/* Offers a snapshot pooled elsewhere (the GPU pools on the device, by the
 * same rule as tl_lu_recorder_snapshot): rows×cols cells, row-major.
 * FALSE (nothing kept) when the pooling or the shape is not this
 * recording's. */
gboolean tl_lu_recorder_snapshot_cells (TlLuRecorder *self, guint steps_done, guint pool_r,
                                        guint pool_c, guint rows, guint cols,
                                        const double *cells);
void tl_lu_recorder_finish      (TlLuRecorder *self, const gint32 *ipiv, guint n_ipiv,
                                 gsize info, gboolean breakdown, gsize rank, int det_sign,
                                 double log_abs_det, double growth);

/* A TlLuGetFn for TlMatrix data (float32/float64). */
double tl_lu_recorder_get_matrix (gconstpointer matrix, gsize i, gsize j);

G_END_DECLS
