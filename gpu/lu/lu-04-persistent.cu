// lu-04-persistent.cu — the panel in ONE launch: rows in shared memory, one
// grid-wide handshake per column, look-ahead beside the GEMM.
//
// Rung 4.  What lu-03's phase split shows (docs/perf/, the LU tables): the
// trailing GEMMs are fast; the panel is not, because every column is a
// kernel launch (a few µs each on a busy GPU) and every launch re-reads the
// whole panel from L2 — at n = 16384, n launches cost more than all the
// GEMMs.  The launch boundary was the only grid-wide barrier, so this rung
// replaces it:
//
// 1. One persistent launch per panel (cooperative launch: all its blocks
//    are resident at once).  Block b keeps rows k0 + b·R … of the panel's
//    kb columns in its SHARED MEMORY for the whole panel (≤ 227 KB per SM:
//    R ≈ 440 float32 or 220 float64 rows at kb = 128), so the kb rank-1
//    updates never touch global memory; the rows go back once at the end.
//
// 2. A handshake per column instead of a launch.  After updating its rows a
//    block publishes its pivot candidate (|value|, row) and that row's
//    whole panel segment in a "mailbox" in global memory; the owner of the
//    next diagonal row publishes that row too.  Every mailbox word is 64
//    bits: 32 bits of payload and a 32-bit tag (the column + 1).  The GPU
//    writes and reads an aligned 64-bit word whole, so a reader that sees
//    the right tag sees the right payload — no fence and no counter is
//    needed.  The readers' poll of the P candidates IS the grid barrier:
//    one round trip to L2 to learn the pivot, one more to fetch its row.
//    Mailboxes are double-buffered by the column's parity: a block can be
//    at most one column ahead of the slowest reader (it needs everybody's
//    candidate to move on).
//
// 3. Work off the critical path.  Only column j+1 is needed for the next
//    pivot search, so every row updates that one column first; the block
//    picks its candidate, two warps bring the candidate row and the next
//    diagonal row fully up to date and publish them, and the remaining
//    columns of the rank-1 update run while the other blocks are still
//    handshaking.
//
// 4. Look-ahead (as lu-03): after step k's swaps, the triangular solve and
//    GEMM for the NEXT panel's columns run first; the next panel is then
//    factored on a high-priority second stream while the bulk TRSM and GEMM
//    of step k run.  The panel's blocks only need P SMs (P = rows / R: 37
//    float32 SMs at n = 16384, 3 at n = 1024), the GEMM keeps the rest.
//
// Pivoting is LAPACK's: the first row of largest |a| (the reductions break
// ties by the lower row), the whole panel row swapped, the multipliers
// scaled by the reciprocal of the pivot when it is above the underflow
// threshold (as dgetf2/dgetrf2), no swap and no scaling for a zero column
// (info is read off U's diagonal by the harness).  The row swaps left and
// right of the panel use the index table (lu_laswp_kernel).
//
// Recording (--record) runs the same launches one column at a time
// (j0 = j, j1 = j + 1) so the hooks can download each step; the phase split
// comes from a run that serialises the phases (no look-ahead).  The panel
// width shrinks only if R rows of kb columns cannot fit one SM for the
// height at hand (float64 above n ≈ 29000 at kb = 128).
//
// Rung 5 (lu-05-cluster.cu) keeps all of this but the panel kernel: it
// calls tl_lu_persistent_factor with its own panel (TlLuPanelHook), and the
// panels its cluster cannot hold still come here.
#include "tl-lu-gpu.cuh"

#include <float.h>
#include <limits.h>

#define LU04_THREADS 512
#define LU04_WARPS (LU04_THREADS / 32)
#define LU04_MAX_NB 256
#define LU04_SLOT_WORDS 3            // |value| hi, |value| lo, row
#define LU04_MAX_BLOCKS 160          // panel blocks at most (the mailboxes' room)
#define LU04_ROW_WORDS (2 * LU04_MAX_NB) // a panel row, two words per element at most
#define LU04_SPIN_LIMIT_NS 20000000000ull // a handshake that takes 20 s is a bug: trap
// The panel's shape (panel_shape): rows per block and blocks at most, the
// best of the sweeps in docs/perf/.  For benchmark sweeps the environment
// variables TL_LU04_ROWS and TL_LU04_BLOCKS override them, and
// TL_LU04_WALK_SWAPS=1 swaps with rung 3's walk instead of
// lu04_swap_kernel.
#define LU04_ROWS 128
#define LU04_BLOCKS 48

typedef unsigned long long u64;

// ---- the mailboxes -------------------------------------------------------

__device__ __forceinline__ u64
mail_load (const u64 *p)
{
  u64 v;
  asm volatile ("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void
mail_store (u64 *p, unsigned tag, unsigned payload)
{
  asm volatile ("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(((u64) tag << 32) | payload)
                : "memory");
}

__device__ __forceinline__ u64
now_ns (void)
{
  u64 t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The payload of the word once it carries `tag` (spins until it does).
__device__ __forceinline__ unsigned
mail_wait (const u64 *p, unsigned tag)
{
  u64 w = mail_load (p);
  if ((unsigned) (w >> 32) != tag)
    {
      const u64 t0 = now_ns ();
      do
        {
          w = mail_load (p);
          if (now_ns () - t0 > LU04_SPIN_LIMIT_NS)
            __trap ();
        }
      while ((unsigned) (w >> 32) != tag);
    }
  return (unsigned) w;
}

// A value travels as 32-bit payloads: one word for float, two for double.
template <typename T> struct Mail;

template <> struct Mail<float>
{
  static constexpr int words = 1;
  static __device__ __forceinline__ void put (u64 *p, unsigned tag, float v)
  {
    mail_store (p, tag, __float_as_uint (v));
  }
  static __device__ __forceinline__ float get (const u64 *p, unsigned tag)
  {
    return __uint_as_float (mail_wait (p, tag));
  }
};

template <> struct Mail<double>
{
  static constexpr int words = 2;
  static __device__ __forceinline__ void put (u64 *p, unsigned tag, double v)
  {
    const u64 bits = (u64) __double_as_longlong (v);
    mail_store (p, tag, (unsigned) (bits >> 32));
    mail_store (p + 1, tag, (unsigned) bits);
  }
  static __device__ __forceinline__ double get (const u64 *p, unsigned tag)
  {
    // both loads leave before either is waited for: one round trip
    u64 hi = mail_load (p), lo = mail_load (p + 1);
    if ((unsigned) (hi >> 32) != tag)
      hi = ((u64) tag << 32) | mail_wait (p, tag);
    if ((unsigned) (lo >> 32) != tag)
      lo = ((u64) tag << 32) | mail_wait (p + 1, tag);
    return __longlong_as_double ((long long) ((hi << 32) | (lo & 0xffffffffull)));
  }
};

// ---- the persistent panel kernel --------------------------------------------

template <typename T>
struct Lu04Panel
{
  T *a;             // row-major, leading dimension lda
  int m, lda;
  int k0, kb;       // the panel: columns [k0, k0+kb), rows [k0, m)
  int j0, j1;       // the columns k0+j0 … k0+j1−1 this launch eliminates
  int rows;         // R: rows per block (block b owns k0 + b·R …)
  int ld;           // row stride in shared memory: kb + 1 (no bank conflicts by column)
  int *ipiv;
  u64 *slots;       // [2][slot_stride][LU04_SLOT_WORDS]: each block's candidate
  u64 *cand;        // [2][slot_stride][LU04_ROW_WORDS]: each block's candidate row
  u64 *top;         // [2][LU04_ROW_WORDS]: the next diagonal row
  int slot_stride;  // blocks the mailboxes have room for
};

// Larger |a| wins; equal |a|: the lower row (LAPACK's i?amax).
__device__ __forceinline__ void
better (double &bv, int &bi, double v, int i)
{
  if (v > bv || (v == bv && i < bi))
    {
      bv = v;
      bi = i;
    }
}

// Every thread's (v, i) → the block's best, in every thread.
__device__ __forceinline__ void
block_best (double &v, int &i, double *red_v, int *red_i)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 16; off > 0; off >>= 1)
    better (v, i, __shfl_xor_sync (0xffffffffu, v, off), __shfl_xor_sync (0xffffffffu, i, off));
  if (lane == 0)
    {
      red_v[warp] = v;
      red_i[warp] = i;
    }
  __syncthreads ();
  v = red_v[0];
  i = red_i[0];
  for (int w = 1; w < LU04_WARPS; w++)
    better (v, i, red_v[w], red_i[w]);
  __syncthreads (); // red_v/red_i are reused by the next call
}

// Columns j+2 … kb−1 of one row: x −= l·prow with l = x[j] (the multiplier).
template <typename T>
__device__ __forceinline__ void
finish_row (T *x, const T *prow, int j, int kb, int lane)
{
  const T l = x[j];
  for (int col = j + 2 + lane; col < kb; col += 32)
    x[col] = x[col] - l * prow[col];
}

// One warp copies a panel row into a mailbox.
template <typename T>
__device__ __forceinline__ void
post_row (u64 *box, unsigned tag, const T *x, int kb, int lane)
{
  for (int col = lane; col < kb; col += 32)
    Mail<T>::put (box + col * Mail<T>::words, tag, x[col]);
}

template <typename T>
__device__ __forceinline__ void
post_slot (const Lu04Panel<T> &p, int par, unsigned tag, double v, int i)
{
  u64 *slot = p.slots + ((size_t) par * p.slot_stride + blockIdx.x) * LU04_SLOT_WORDS;
  const u64 bits = (u64) __double_as_longlong (v);
  mail_store (slot, tag, (unsigned) (bits >> 32));
  mail_store (slot + 1, tag, (unsigned) bits);
  mail_store (slot + 2, tag, (unsigned) i);
}

template <typename T>
__global__ void __launch_bounds__ (LU04_THREADS, 1)
lu04_panel_kernel (const Lu04Panel<T> p)
{
  extern __shared__ __align__ (16) unsigned char lu04_smem[];
  T *rows = (T *) lu04_smem;                    // R × ld: this block's rows
  T *prow = rows + (size_t) p.rows * p.ld;      // the pivot row, kb entries
  __shared__ double red_v[LU04_WARPS];
  __shared__ int red_i[LU04_WARPS];

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int P = gridDim.x, kb = p.kb, ld = p.ld;
  const int row0 = p.k0 + blockIdx.x * p.rows;
  const int nrows = max (0, min (p.m, row0 + p.rows) - row0);
  const int W = Mail<T>::words;
  const double sfmin = sizeof (T) == 4 ? (double) FLT_MIN : DBL_MIN;

  // rows in: one warp per row, 32 neighbouring columns per access
  for (int r = warp; r < nrows; r += LU04_WARPS)
    for (int col = lane; col < kb; col += 32)
      rows[r * ld + col] = p.a[(size_t) (row0 + r) * p.lda + p.k0 + col];
  __syncthreads ();

  // the first column's candidate, and the first diagonal row
  {
    const int c = p.k0 + p.j0, par = c & 1;
    const unsigned tag = c + 1;
    double bv = -1.0;
    int bi = INT_MAX;
    for (int r = tid; r < nrows; r += LU04_THREADS)
      if (row0 + r >= c)
        {
          const double v = fabs ((double) rows[r * ld + p.j0]);
          if (v > bv)
            {
              bv = v;
              bi = row0 + r;
            }
        }
    block_best (bv, bi, red_v, red_i);
    if (warp == 0 && bi != INT_MAX)
      post_row (p.cand + ((size_t) par * p.slot_stride + blockIdx.x) * LU04_ROW_WORDS, tag,
                rows + (bi - row0) * ld, kb, lane);
    if (warp == 1 && c >= row0 && c < row0 + nrows)
      post_row (p.top + (size_t) par * LU04_ROW_WORDS, tag, rows + (c - row0) * ld, kb, lane);
    if (tid == 0)
      post_slot (p, par, tag, bv, bi);
  }

  for (int j = p.j0; j < p.j1; j++)
    {
      const int c = p.k0 + j, par = c & 1;
      const unsigned tag = c + 1;

      // 1. Everybody's candidate: waiting for the P slots is the barrier.
      double bv = -1.0;
      int bi = INT_MAX;
      if (tid < P)
        {
          const u64 *slot = p.slots + ((size_t) par * p.slot_stride + tid) * LU04_SLOT_WORDS;
          u64 hi = mail_load (slot), lo = mail_load (slot + 1), ix = mail_load (slot + 2);
          if ((unsigned) (hi >> 32) != tag)
            hi = mail_wait (slot, tag);
          if ((unsigned) (lo >> 32) != tag)
            lo = mail_wait (slot + 1, tag);
          if ((unsigned) (ix >> 32) != tag)
            ix = mail_wait (slot + 2, tag);
          bv = __longlong_as_double ((long long) (((hi & 0xffffffffull) << 32) | (lo & 0xffffffffull)));
          bi = (int) (unsigned) ix;
        }
      block_best (bv, bi, red_v, red_i);
      // a zero (or all-NaN) column: no swap, no scaling (LAPACK)
      const int piv = bv > 0.0 ? bi : c;
      if (blockIdx.x == 0 && tid == 0)
        p.ipiv[c] = piv;

      // 2. The pivot row, from its owner's mailbox (the diagonal row's own
      //    mailbox when there is no swap); the owner of row piv gets the
      //    old diagonal row in its place, the owner of row c the pivot row.
      const u64 *src = piv == c ? p.top + (size_t) par * LU04_ROW_WORDS
                                : p.cand + ((size_t) par * p.slot_stride + (piv - p.k0) / p.rows) * LU04_ROW_WORDS;
      for (int col = tid; col < kb; col += LU04_THREADS)
        prow[col] = Mail<T>::get (src + col * W, tag);
      if (piv != c && piv >= row0 && piv < row0 + nrows)
        for (int col = tid; col < kb; col += LU04_THREADS)
          rows[(piv - row0) * ld + col] = Mail<T>::get (p.top + (size_t) par * LU04_ROW_WORDS + col * W, tag);
      __syncthreads ();
      if (c >= row0 && c < row0 + nrows)
        for (int col = tid; col < kb; col += LU04_THREADS)
          rows[(c - row0) * ld + col] = prow[col];

      // 3. The multipliers of column j and column j+1 of every row below:
      //    all the next pivot search needs.  One thread per row; the odd
      //    stride ld keeps a warp's 32 rows in 32 different banks.
      const T pv = prow[j];
      const bool by_inverse = fabs ((double) pv) >= sfmin;
      const T inv = pv != T (0) ? T (1) / pv : T (0);
      double nv = -1.0;
      int ni = INT_MAX;
      for (int r = tid; r < nrows; r += LU04_THREADS)
        {
          if (row0 + r <= c)
            continue;
          T *x = rows + r * ld;
          T l = x[j];
          if (pv != T (0))
            l = by_inverse ? l * inv : l / pv;
          x[j] = l;
          if (j + 1 < kb)
            {
              const T y = x[j + 1] - l * prow[j + 1];
              x[j + 1] = y;
              const double v = fabs ((double) y);
              if (v > nv)
                {
                  nv = v;
                  ni = row0 + r;
                }
            }
        }
      block_best (nv, ni, red_v, red_i); // (its barriers publish the multipliers)

      // 4. Publish the next column's candidate as early as possible: its
      //    row and the next diagonal row are finished first, by warps 0/1.
      int early0 = -1, early1 = -1;
      if (j + 1 < p.j1)
        {
          const int cn = c + 1, parn = cn & 1;
          const unsigned tagn = cn + 1;
          early0 = ni != INT_MAX ? ni - row0 : -1;
          early1 = cn >= row0 && cn < row0 + nrows ? cn - row0 : -1;
          u64 *cand_box = p.cand + ((size_t) parn * p.slot_stride + blockIdx.x) * LU04_ROW_WORDS;
          u64 *top_box = p.top + (size_t) parn * LU04_ROW_WORDS;
          if (warp == 0 && early0 >= 0)
            {
              finish_row (rows + early0 * ld, prow, j, kb, lane);
              __syncwarp ();
              post_row (cand_box, tagn, rows + early0 * ld, kb, lane);
              if (early1 == early0)
                post_row (top_box, tagn, rows + early0 * ld, kb, lane);
            }
          if (warp == 1 && early1 >= 0 && early1 != early0)
            {
              finish_row (rows + early1 * ld, prow, j, kb, lane);
              __syncwarp ();
              post_row (top_box, tagn, rows + early1 * ld, kb, lane);
            }
          if (tid == 0)
            post_slot (p, parn, tagn, nv, ni);
        }

      // 5. The rest of the rank-1 update, while the other blocks handshake.
      for (int r = warp; r < nrows; r += LU04_WARPS)
        if (row0 + r > c && r != early0 && r != early1)
          finish_row (rows + r * ld, prow, j, kb, lane);
      __syncthreads ();
    }

  // rows out
  for (int r = warp; r < nrows; r += LU04_WARPS)
    for (int col = lane; col < kb; col += 32)
      p.a[(size_t) (row0 + r) * p.lda + p.k0 + col] = rows[r * ld + col];
}

// ---- the row swaps outside the panel -----------------------------------------
//
// The panel's kb swaps, applied in order to the columns [c0, c1) in one
// pass.  Rung 3 walks the list per column (lu_laswp_kernel): kb dependent
// round trips to memory per column, and the swaps right of the panel are
// on the look-ahead's critical path.  Here a
// block takes 32 columns, gives every row the swaps touch a slot in shared
// memory — the kb panel rows, then each row below the panel at the first
// swap that names it —, loads them all at once, replays the swaps on the
// slots (one thread per column) and writes the rows back: two round trips.
#define LU04_SWAP_TILE 32
#define LU04_SWAP_THREADS 256

template <typename T>
__global__ void __launch_bounds__ (LU04_SWAP_THREADS)
lu04_swap_kernel (T *__restrict__ a, int lda, const int *__restrict__ ipiv, int k0, int kb, int c0, int c1)
{
  extern __shared__ __align__ (16) unsigned char lu04_swap_smem[];
  T *vals = (T *) lu04_swap_smem;                                // 2kb slots × 32 columns
  int *piv = (int *) (vals + 2 * (size_t) kb * LU04_SWAP_TILE); // the kb swaps
  int *slot_of = piv + kb;                                       // swap t exchanges slots t, slot_of[t]
  int *row_of = slot_of + kb;                                    // the row of each slot, or −1
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nwarps = LU04_SWAP_THREADS / 32;
  const int k1 = k0 + kb, col0 = c0 + blockIdx.x * LU04_SWAP_TILE;
  const int width = min (LU04_SWAP_TILE, c1 - col0);

  for (int t = tid; t < kb; t += LU04_SWAP_THREADS)
    {
      piv[t] = ipiv[k0 + t];
      row_of[t] = k0 + t;
      row_of[kb + t] = -1;
    }
  __syncthreads ();
  // one warp per swap: a row below the panel takes the slot of the first
  // swap that names it (32 earlier swaps compared per ballot)
  for (int t = warp; t < kb; t += nwarps)
    {
      const int p = piv[t];
      int slot = p - k0;
      if (p >= k1)
        {
          int first = t;
          for (int u0 = 0; u0 < t; u0 += 32)
            {
              const unsigned hit = __ballot_sync (0xffffffffu, u0 + lane < t && piv[u0 + lane] == p);
              if (hit)
                {
                  first = u0 + __ffs (hit) - 1;
                  break;
                }
            }
          slot = kb + first;
          if (first == t && lane == 0)
            row_of[kb + t] = p;
        }
      if (lane == 0)
        slot_of[t] = slot;
    }
  __syncthreads ();
  for (int s = warp; s < 2 * kb; s += nwarps)
    if (row_of[s] >= 0 && lane < width)
      vals[s * LU04_SWAP_TILE + lane] = a[(size_t) row_of[s] * lda + col0 + lane];
  __syncthreads ();
  if (tid < width)
    for (int t = 0; t < kb; t++)
      {
        T *x = vals + t * LU04_SWAP_TILE + tid, *y = vals + slot_of[t] * LU04_SWAP_TILE + tid;
        const T v = *x;
        *x = *y;
        *y = v;
      }
  __syncthreads ();
  for (int s = warp; s < 2 * kb; s += nwarps)
    if (row_of[s] >= 0 && lane < width)
      a[(size_t) row_of[s] * lda + col0 + lane] = vals[s * LU04_SWAP_TILE + lane];
}

static size_t
swap_smem (int kb, size_t es)
{
  return 2 * (size_t) kb * LU04_SWAP_TILE * es + 4 * sizeof (int) * (size_t) kb;
}

// ---- the host side -------------------------------------------------------------

namespace
{
// What a factorisation knows about the device and its mailboxes.
struct Lu04Env
{
  int sm_count;
  int rows_target;   // rows per panel block, about (LU04_ROWS)
  int max_blocks;    // panel blocks at most (LU04_BLOCKS)
  int walk_swaps;    // 1: rung 3's swap walk instead of lu04_swap_kernel (TL_LU04_WALK_SWAPS)
  const TlLuPanelHook *hook; // a later rung's own panel (lu-05), or null
  size_t smem_dyn;   // dynamic shared memory a block may have
  u64 *mail;
  size_t mail_words;
  int slot_stride;
};

struct Lu04Shape
{
  int kb, rows, blocks, ld;
  size_t smem;
};

size_t
mail_words (int slot_stride)
{
  return 2 * (size_t) slot_stride * (LU04_SLOT_WORDS + LU04_ROW_WORDS) + 2 * (size_t) LU04_ROW_WORDS;
}
} // namespace

// The panel width asked for at k0: the block size (≤ LU04_MAX_NB), or what
// is left of min(m, n).
static int
wanted_width (const TlLuCtx *ctx, int k0)
{
  const int mn = ctx->m < ctx->n ? ctx->m : ctx->n;
  int nb = ctx->block_size > 0 ? ctx->block_size : 128;
  nb = nb < LU04_MAX_NB ? nb : LU04_MAX_NB;
  return mn - k0 < nb ? mn - k0 : nb;
}

// The panel at k0: how many blocks, how many rows each.  Two pulls:
// fewer rows per block make the per-column work of a block (the rank-1
// update of its rows, ≈ 4 shared-memory cycles per row at kb = 128) shorter,
// and more blocks keep more SMs away from the GEMM that runs beside the
// panel.  So: about env.rows_target rows per block, but never more than
// env.max_blocks blocks (a tall panel then gets taller blocks), and never
// more rows than fit in shared memory.  The width shrinks only if even one
// block per SM cannot hold its rows.
template <typename T>
static Lu04Shape
panel_shape (const TlLuCtx *ctx, const Lu04Env &env, int k0)
{
  const int h = ctx->m - k0, kb_want = wanted_width (ctx, k0);
  const int min_rows = (h + env.sm_count - 1) / env.sm_count; // all SMs
  Lu04Shape s;
  s.kb = kb_want;
  while (s.kb > 8 && (size_t) (min_rows + 1) * (s.kb + 1) * sizeof (T) > env.smem_dyn)
    s.kb = s.kb > 16 ? (s.kb - 8) & ~7 : 8;
  s.ld = s.kb + 1;
  const int fit = (int) (env.smem_dyn / ((size_t) s.ld * sizeof (T))) - 1;
  int rows = (h + env.max_blocks - 1) / env.max_blocks;
  rows = rows > env.rows_target ? rows : env.rows_target;
  rows = rows < fit ? rows : fit;
  rows = rows > min_rows ? rows : min_rows;
  s.blocks = (h + rows - 1) / rows;
  s.rows = (h + s.blocks - 1) / s.blocks;
  s.smem = (size_t) (s.rows + 1) * s.ld * sizeof (T);
  return s;
}

template <typename T>
static TlGpuStatus
launch_panel (TlLuCtx *ctx, const Lu04Env &env, cudaStream_t stream, int k0, const Lu04Shape &s,
              int j0, int j1)
{
  Lu04Panel<T> p;
  p.a = (T *) ctx->a;
  p.m = ctx->m;
  p.lda = ctx->lda;
  p.k0 = k0;
  p.kb = s.kb;
  p.j0 = j0;
  p.j1 = j1;
  p.rows = s.rows;
  p.ld = s.ld;
  p.ipiv = ctx->ipiv;
  p.slot_stride = env.slot_stride;
  p.slots = env.mail;
  p.cand = p.slots + 2 * (size_t) env.slot_stride * LU04_SLOT_WORDS;
  p.top = p.cand + 2 * (size_t) env.slot_stride * LU04_ROW_WORDS;
  void *args[] = { &p };
  TL_GPU_TRY (cudaLaunchCooperativeKernel ((const void *) lu04_panel_kernel<T>, dim3 (s.blocks),
                                           dim3 (LU04_THREADS), args, s.smem, stream),
              "lu-04 panel launch");
  return TL_GPU_OK;
}

// The panel at k0: one launch, or (recording) one launch per column with
// the hooks between them.
template <typename T>
static TlGpuStatus
panel (TlLuCtx *ctx, const Lu04Env &env, cudaStream_t stream, int k0, const Lu04Shape &s, int bstep)
{
  if (env.hook != nullptr && env.hook->fits (ctx, env.hook->state, k0, s.kb))
    return env.hook->factor (ctx, env.hook->state, stream, k0, s.kb, bstep);
  if (ctx->observer == nullptr)
    return launch_panel<T> (ctx, env, stream, k0, s, 0, s.kb);
  const int r1 = k0 + s.kb;
  TlGpuStatus st = TL_GPU_OK;
  for (int j = 0; j < s.kb && st == TL_GPU_OK; j++)
    {
      const int c = k0 + j;
      st = tl_lu_rec_search (ctx, c, bstep);
      if (st == TL_GPU_OK)
        st = launch_panel<T> (ctx, env, stream, k0, s, j, j + 1);
      if (st == TL_GPU_OK)
        st = tl_lu_rec_pivot (ctx, c);
      if (st == TL_GPU_OK)
        st = tl_lu_rec_panel_column (ctx, c, r1);
    }
  return st;
}

template <typename T>
static TlGpuStatus
staged_swaps (TlLuCtx *ctx, cudaStream_t stream, int k0, int kb, int c0, int c1)
{
  lu04_swap_kernel<T><<<(c1 - c0 + LU04_SWAP_TILE - 1) / LU04_SWAP_TILE, LU04_SWAP_THREADS,
                        swap_smem (kb, sizeof (T)), stream>>> ((T *) ctx->a, ctx->lda, ctx->ipiv, k0, kb, c0, c1);
  return tl_gpu_from_cuda (cudaGetLastError (), "row swaps");
}

TlGpuStatus
tl_lu_swap_rows (TlLuCtx *ctx, cudaStream_t stream, int k0, int kb, int c0, int c1)
{
  if (c1 <= c0 || kb <= 0)
    return TL_GPU_OK;
  return ctx->dtype == TL_GPU_FLOAT32 ? staged_swaps<float> (ctx, stream, k0, kb, c0, c1)
                                      : staged_swaps<double> (ctx, stream, k0, kb, c0, c1);
}

template <typename T>
static TlGpuStatus
laswp (TlLuCtx *ctx, const Lu04Env &env, int k0, int k1, int c0, int c1)
{
  if (c1 <= c0)
    return TL_GPU_OK;
  if (!env.walk_swaps)
    return tl_lu_swap_rows (ctx, ctx->stream, k0, k1 - k0, c0, c1);
  lu_laswp_kernel<T><<<(c1 - c0 + 127) / 128, 128, 0, ctx->stream>>> ((T *) ctx->a, ctx->lda, ctx->ipiv, k0,
                                                                      k1, c0, c1);
  return tl_gpu_from_cuda (cudaGetLastError (), "lu-04 row swaps");
}

// One block step after its panel is factored: swaps, TRSM and GEMM, the next
// panel's columns first.  With look-ahead the next panel is factored on the
// side stream between the two halves; otherwise (phase split, recording)
// every phase runs on ctx->stream in turn and the caller factors it next.
// Returns the next panel's shape (kb 0 at the end) in *next.
template <typename T>
static TlGpuStatus
block_step (TlLuCtx *ctx, const Lu04Env &env, TlLuSideStream *ss, int k0, int kb, int bstep,
            bool lookahead, Lu04Shape *next)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n, r1 = k0 + kb;
  next->kb = 0;
  if (r1 < mn)
    *next = panel_shape<T> (ctx, env, r1);
  const int c_next = r1 + next->kb; // the next panel is [r1, c_next)

  tl_lu_phase_begin (ctx, TL_LU_GPU_SWAP);
  TL_LU_TRY (laswp<T> (ctx, env, k0, r1, r1, n));
  if (!lookahead)
    TL_LU_TRY (laswp<T> (ctx, env, k0, r1, 0, k0));
  tl_lu_phase_end (ctx, TL_LU_GPU_SWAP);

  tl_lu_phase_begin (ctx, TL_LU_GPU_TRSM);
  TL_LU_TRY (tl_lu_blas (tl_lu_trsm_cols (ctx, k0, kb, r1, c_next), "lu-04 trsm"));
  if (!lookahead)
    TL_LU_TRY (tl_lu_blas (tl_lu_trsm_cols (ctx, k0, kb, c_next, n), "lu-04 trsm"));
  tl_lu_phase_end (ctx, TL_LU_GPU_TRSM);

  tl_lu_phase_begin (ctx, TL_LU_GPU_GEMM);
  TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, k0, kb, r1, c_next), "lu-04 gemm"));
  if (lookahead && next->kb > 0)
    {
      TL_GPU_TRY (cudaEventRecord (ss->cols_ready, ctx->stream), "lu-04 look-ahead");
      TL_GPU_TRY (cudaStreamWaitEvent (ss->side, ss->cols_ready, 0), "lu-04 look-ahead");
      TL_LU_TRY (panel<T> (ctx, env, ss->side, r1, *next, bstep + 1));
      TL_GPU_TRY (cudaEventRecord (ss->panel_done, ss->side), "lu-04 look-ahead");
    }
  if (lookahead)
    TL_LU_TRY (tl_lu_blas (tl_lu_trsm_cols (ctx, k0, kb, c_next, n), "lu-04 trsm"));
  TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, k0, kb, c_next, n), "lu-04 gemm"));
  tl_lu_phase_end (ctx, TL_LU_GPU_GEMM);
  TL_LU_TRY (tl_lu_phase_step (ctx, bstep));

  if (lookahead)
    {
      TL_LU_TRY (laswp<T> (ctx, env, k0, r1, 0, k0)); // the finished L columns, beside the panel
      if (next->kb > 0)
        TL_GPU_TRY (cudaStreamWaitEvent (ctx->stream, ss->panel_done, 0), "lu-04 look-ahead");
    }
  return TL_GPU_OK;
}

template <typename T>
static TlGpuStatus
factor (TlLuCtx *ctx, const TlLuPanelHook *hook)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n;
  if (mn == 0)
    return TL_GPU_OK;
  int coop = 0, optin = 0;
  cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch, ctx->device->ordinal);
  TL_GPU_TRY (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                      ctx->device->ordinal),
              "lu-04: shared memory limit");
  if (!coop)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "lu-04-persistent needs cooperative launches, which this GPU lacks");
  cudaFuncAttributes fa;
  TL_GPU_TRY (cudaFuncGetAttributes (&fa, (const void *) lu04_panel_kernel<T>), "lu-04 attributes");
  Lu04Env env;
  env.sm_count = ctx->device->sm_count < LU04_MAX_BLOCKS ? ctx->device->sm_count : LU04_MAX_BLOCKS;
  env.rows_target = tl_lu_env_int ("TL_LU04_ROWS", LU04_ROWS, 1, 1 << 20);
  env.max_blocks = tl_lu_env_int ("TL_LU04_BLOCKS", LU04_BLOCKS, 1, env.sm_count);
  env.smem_dyn = (size_t) optin - fa.sharedSizeBytes;
  TL_GPU_TRY (cudaFuncSetAttribute ((const void *) lu04_panel_kernel<T>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int) env.smem_dyn),
              "lu-04 shared memory");
  TL_GPU_TRY (cudaFuncSetAttribute ((const void *) lu04_swap_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int) swap_smem (LU04_MAX_NB, sizeof (T))),
              "lu-04 shared memory");
  env.walk_swaps = tl_lu_env_int ("TL_LU04_WALK_SWAPS", 0, 0, 1);
  env.hook = hook;
  env.slot_stride = env.sm_count;
  env.mail = (u64 *) ctx->workspace;
  env.mail_words = mail_words (env.slot_stride);
  // stale tags from the last factorisation must not look current
  TL_GPU_TRY (cudaMemsetAsync (env.mail, 0, env.mail_words * sizeof (u64), ctx->stream), "lu-04 mailboxes");

  const bool lookahead = !ctx->profile && ctx->observer == nullptr;
  TlLuSideStream ss;
  if (lookahead)
    TL_LU_TRY (ss.create ());

  Lu04Shape s = panel_shape<T> (ctx, env, 0);
  bool factored = false; // panel s at k0 already factored (look-ahead)
  for (int k0 = 0, bstep = 0; k0 < mn; bstep++)
    {
      TL_LU_TRY (tl_lu_cancel_point (ctx));
      if (!factored)
        {
          tl_lu_phase_begin (ctx, TL_LU_GPU_PANEL);
          TL_LU_TRY (panel<T> (ctx, env, ctx->stream, k0, s, bstep));
          tl_lu_phase_end (ctx, TL_LU_GPU_PANEL);
        }
      Lu04Shape next;
      TL_LU_TRY (block_step<T> (ctx, env, &ss, k0, s.kb, bstep, lookahead, &next));
      // U rows k0…r1−1 are final after the TRSM; then the block step and
      // (when due) the whole matrix
      if (ctx->observer)
        {
          TL_LU_TRY (tl_lu_rec_u_rows (ctx, k0, s.kb));
          TL_LU_TRY (tl_lu_rec_block (ctx, bstep, k0, s.kb));
          TL_LU_TRY (tl_lu_rec_snapshot (ctx, k0 + s.kb));
        }
      k0 += s.kb;
      s = next;
      factored = lookahead && s.kb > 0;
    }
  return tl_gpu_from_cuda (cudaGetLastError (), "lu-04-persistent");
}

TlGpuStatus
tl_lu_persistent_factor (TlLuCtx *ctx, const TlLuPanelHook *hook)
{
  return ctx->dtype == TL_GPU_FLOAT32 ? factor<float> (ctx, hook) : factor<double> (ctx, hook);
}

static TlGpuStatus
lu_04_factor (TlLuCtx *ctx)
{
  return tl_lu_persistent_factor (ctx, nullptr);
}

size_t
tl_lu_persistent_workspace (const TlLuCtx *ctx)
{
  const int blocks = ctx->device->sm_count < LU04_MAX_BLOCKS ? ctx->device->sm_count : LU04_MAX_BLOCKS;
  return mail_words (blocks) * sizeof (u64);
}

const TlLuRung lu_04_persistent_rung = { "lu-04-persistent", lu_04_factor, tl_lu_persistent_workspace };
