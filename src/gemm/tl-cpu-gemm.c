/* tl-cpu-gemm.c — three CPU GEMMs, from the lecture's loop to the library.
 *
 * C = A·B, A m×k, B k×n, C m×n, row-major, any strides (views work).
 *
 *  cpu-naive     seed 002's multiplySequential: for i, for j, sum over k.
 *                The inner loop walks B down a column, one cache line per
 *                multiply-add: memory, not arithmetic, sets the pace.
 *  cpu-blocked   C cut into 64×64 tiles that all cores take from a shared
 *                counter; k cut into blocks of 256 so a packed 256×64 panel
 *                of B stays in L2 while a tile's rows stream past it; the
 *                inner loop adds a row of the panel into four rows of the
 *                tile at once, contiguous and vectorised.
 *  cpu-openblas  cblas_sgemm / cblas_dgemm: the tuned reference.
 *
 * int32 runs through naive and blocked and wraps around modulo 2^32 like
 * the GPU's two's-complement arithmetic: products and sums are computed in
 * uint32 (where C defines wraparound) and the bits read back as int32.
 *
 * Float sums run over k in order 0, 1, …, k−1 in both naive and blocked
 * (the blocked kernel only changes which element is worked on when), so
 * without fused multiply-add the two agree bit for bit.
 */
#include "gemm/tl-cpu-gemm.h"
#include "core/tl-error.h"

#include "gemm/tl-blas.h"

#include <cblas.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <time.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* GCC: -std=c17 already means -ffp-contract=off */
#endif

#define TILE 64   /* C tile edge of cpu-blocked */
#define KC 256    /* k-block: rows of the packed B panel */
#define MAX_THREADS 256

typedef struct
{
  const TlMatrix *a, *b;
  TlMatrix *c;
  gsize m, n, k;
  guint n_threads;
  GArray *tile_records;
  GCancellable *cancellable;
} Problem;

typedef gboolean (*RunFn) (const Problem *p, GError **error);

static gboolean
cancelled (GCancellable *cancellable, GError **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}

static gint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* ---- cpu-naive --------------------------------------------------------- */

/* T is the element type in memory, U the type the arithmetic runs in. */
#define DEFINE_NAIVE(SUFFIX, T, U)                                               \
  static gboolean                                                                \
  naive_##SUFFIX (const Problem *p, GError **error)                              \
  {                                                                              \
    for (gsize i = 0; i < p->m; i++)                                             \
      {                                                                          \
        if (cancelled (p->cancellable, error))                                   \
          return FALSE;                                                          \
        const T *arow = tl_matrix_row (p->a, i);                                 \
        T *crow = tl_matrix_row (p->c, i);                                       \
        for (gsize j = 0; j < p->n; j++)                                         \
          {                                                                      \
            U sum = 0;                                                           \
            for (gsize kk = 0; kk < p->k; kk++)                                  \
              sum += (U) arow[kk] * (U) ((const T *) tl_matrix_row (p->b, kk))[j]; \
            crow[j] = (T) sum;                                                   \
          }                                                                      \
      }                                                                          \
    return TRUE;                                                                 \
  }

DEFINE_NAIVE (i32, gint32, guint32)
DEFINE_NAIVE (f32, float, float)
DEFINE_NAIVE (f64, double, double)

static gboolean
run_naive (const Problem *p, GError **error)
{
  switch (p->c->dtype)
    {
    case TL_DTYPE_INT32:   return naive_i32 (p, error);
    case TL_DTYPE_FLOAT32: return naive_f32 (p, error);
    case TL_DTYPE_FLOAT64: return naive_f64 (p, error);
    }
  g_return_val_if_reached (FALSE);
}

/* ---- cpu-blocked ------------------------------------------------------- */

/* One binary, several instruction sets: the loader picks the widest
 * vectors the CPU has (AVX-512, AVX2, else SSE2). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TL_CLONES __attribute__ ((target_clones ("avx512f", "avx2", "default")))
#else
#define TL_CLONES
#endif

/* Computes the mt×nt tile of C at (i0, j0).  bp is the thread's KC×TILE
 * panel buffer, acc its TILE×TILE accumulator. */
#define DEFINE_TILE(SUFFIX, T, U)                                                \
  static void TL_CLONES                                                          \
  tile_##SUFFIX (const Problem *p, gsize i0, gsize mt, gsize j0, gsize nt,       \
                 U *restrict bp, U *restrict acc)                                \
  {                                                                              \
    memset (acc, 0, mt * TILE * sizeof (U));                                     \
    for (gsize kb = 0; kb < p->k; kb += KC)                                      \
      {                                                                          \
        gsize kc = MIN (KC, p->k - kb);                                          \
        /* Pack B[kb .. kb+kc, j0 .. j0+nt] into a dense kc×TILE panel,        \
         * zero-padded on the right so every inner loop is TILE long. */         \
        for (gsize kk = 0; kk < kc; kk++)                                        \
          {                                                                      \
            const T *brow = (const T *) tl_matrix_row (p->b, kb + kk) + j0;      \
            U *dst = bp + kk * TILE;                                             \
            gsize jj = 0;                                                        \
            for (; jj < nt; jj++)                                                \
              dst[jj] = (U) brow[jj];                                            \
            for (; jj < TILE; jj++)                                              \
              dst[jj] = 0;                                                       \
          }                                                                      \
        /* Four rows of the tile share each loaded panel row: four           \
         * multiply-adds per load, all on contiguous vectors. */                 \
        gsize ii = 0;                                                            \
        for (; ii + 4 <= mt; ii += 4)                                            \
          {                                                                      \
            const T *a0 = (const T *) tl_matrix_row (p->a, i0 + ii) + kb;        \
            const T *a1 = (const T *) tl_matrix_row (p->a, i0 + ii + 1) + kb;    \
            const T *a2 = (const T *) tl_matrix_row (p->a, i0 + ii + 2) + kb;    \
            const T *a3 = (const T *) tl_matrix_row (p->a, i0 + ii + 3) + kb;    \
            U *restrict c0 = acc + ii * TILE;                                    \
            U *restrict c1 = c0 + TILE;                                          \
            U *restrict c2 = c1 + TILE;                                          \
            U *restrict c3 = c2 + TILE;                                          \
            for (gsize kk = 0; kk < kc; kk++)                                    \
              {                                                                  \
                const U x0 = (U) a0[kk], x1 = (U) a1[kk];                        \
                const U x2 = (U) a2[kk], x3 = (U) a3[kk];                        \
                const U *restrict brow = bp + kk * TILE;                         \
                for (gsize jj = 0; jj < TILE; jj++)                              \
                  {                                                              \
                    c0[jj] += x0 * brow[jj];                                     \
                    c1[jj] += x1 * brow[jj];                                     \
                    c2[jj] += x2 * brow[jj];                                     \
                    c3[jj] += x3 * brow[jj];                                     \
                  }                                                              \
              }                                                                  \
          }                                                                      \
        for (; ii < mt; ii++)                                                    \
          {                                                                      \
            const T *a0 = (const T *) tl_matrix_row (p->a, i0 + ii) + kb;        \
            U *restrict c0 = acc + ii * TILE;                                    \
            for (gsize kk = 0; kk < kc; kk++)                                    \
              {                                                                  \
                const U x0 = (U) a0[kk];                                         \
                const U *restrict brow = bp + kk * TILE;                         \
                for (gsize jj = 0; jj < TILE; jj++)                              \
                  c0[jj] += x0 * brow[jj];                                       \
              }                                                                  \
          }                                                                      \
      }                                                                          \
    for (gsize ii = 0; ii < mt; ii++)                                            \
      {                                                                          \
        T *crow = (T *) tl_matrix_row (p->c, i0 + ii) + j0;                      \
        for (gsize jj = 0; jj < nt; jj++)                                        \
          crow[jj] = (T) acc[ii * TILE + jj];                                    \
      }                                                                          \
  }

DEFINE_TILE (i32, gint32, guint32)
DEFINE_TILE (f32, float, float)
DEFINE_TILE (f64, double, double)

typedef struct
{
  const Problem *p;
  guint tiles_m, tiles_n, n_tiles;
  gint next_tile;           /* the shared counter every thread takes from */
  gint64 t0;
  TlCpuTileRecord *records; /* one slot per tile, written by its thread */
  gboolean *done;
} Shared;

typedef struct
{
  Shared *shared;
  guint index;
} Worker;

static gpointer
blocked_worker (gpointer data)
{
  Worker *w = data;
  Shared *s = w->shared;
  const Problem *p = s->p;
  gsize elem = sizeof (double); /* the widest U */
  gpointer bp = g_aligned_alloc (KC * TILE, elem, 64);
  gpointer acc = g_aligned_alloc (TILE * TILE, elem, 64);

  for (;;)
    {
      if (p->cancellable && g_cancellable_is_cancelled (p->cancellable))
        break;
      guint t = (guint) g_atomic_int_add (&s->next_tile, 1);
      if (t >= s->n_tiles)
        break;

      guint ti = t / s->tiles_n, tj = t % s->tiles_n;
      gsize i0 = (gsize) ti * TILE, j0 = (gsize) tj * TILE;
      gsize mt = MIN (TILE, p->m - i0), nt = MIN (TILE, p->n - j0);

      gint64 start = now_ns () - s->t0;
      switch (p->c->dtype)
        {
        case TL_DTYPE_INT32:   tile_i32 (p, i0, mt, j0, nt, bp, acc); break;
        case TL_DTYPE_FLOAT32: tile_f32 (p, i0, mt, j0, nt, bp, acc); break;
        case TL_DTYPE_FLOAT64: tile_f64 (p, i0, mt, j0, nt, bp, acc); break;
        }
      gint64 end = now_ns () - s->t0;

      s->records[t] = (TlCpuTileRecord) { ti, tj, w->index, start, end };
      s->done[t] = TRUE;
    }
  g_aligned_free (bp);
  g_aligned_free (acc);
  return NULL;
}

static gboolean
run_blocked (const Problem *p, GError **error)
{
  Shared s = { p };
  s.tiles_m = (guint) ((p->m + TILE - 1) / TILE);
  s.tiles_n = (guint) ((p->n + TILE - 1) / TILE);
  s.n_tiles = s.tiles_m * s.tiles_n;
  if (s.n_tiles == 0)
    return !cancelled (p->cancellable, error);

  guint n_threads = p->n_threads ? p->n_threads : g_get_num_processors ();
  /* no more threads than tiles, and a sane ceiling for oversubscription */
  n_threads = MIN (MIN (n_threads, s.n_tiles), MAX_THREADS);
  s.records = g_new0 (TlCpuTileRecord, s.n_tiles);
  s.done = g_new0 (gboolean, s.n_tiles);
  Worker *workers = g_new0 (Worker, n_threads);
  GThread **threads = g_new0 (GThread *, n_threads);

  s.t0 = now_ns ();
  /* Worker 0 is the calling thread; the others are started here. */
  for (guint i = 0; i < n_threads; i++)
    {
      workers[i] = (Worker) { &s, i };
      if (i > 0)
        threads[i] = g_thread_try_new ("tl-cpu-gemm", blocked_worker, &workers[i], NULL);
    }
  blocked_worker (&workers[0]);
  for (guint i = 1; i < n_threads; i++)
    if (threads[i])
      g_thread_join (threads[i]);

  if (p->tile_records)
    for (guint t = 0; t < s.n_tiles; t++)
      if (s.done[t])
        g_array_append_val (p->tile_records, s.records[t]);

  g_free (threads);
  g_free (workers);
  g_free (s.done);
  g_free (s.records);
  return !cancelled (p->cancellable, error);
}

/* ---- cpu-openblas ------------------------------------------------------ */

static gboolean
run_openblas (const Problem *p, GError **error)
{
  if (p->m > G_MAXINT || p->n > G_MAXINT || p->k > G_MAXINT
      || p->a->stride > G_MAXINT || p->b->stride > G_MAXINT || p->c->stride > G_MAXINT)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("cpu-openblas takes sizes and strides up to %d"), G_MAXINT);
      return FALSE;
    }
  if (cancelled (p->cancellable, error))
    return FALSE;
  if (p->m == 0 || p->n == 0)
    return TRUE;
  if (p->k == 0)
    {
      tl_matrix_fill (p->c, 0.0);
      return TRUE;
    }

  /* OpenBLAS keeps one global thread count; set it for this call (a new
   * pool thread maps its buffer: only as many as the address space takes) */
  if (!tl_blas_check (error))
    return FALSE;
  openblas_set_num_threads ((int) tl_blas_threads_that_fit (
    p->n_threads ? (guint) p->n_threads : (guint) openblas_get_num_procs ()));

  /* Row-major views: the leading dimension is the stride, which BLAS
   * wants at least as large as the row length (and at least 1). */
  int m = (int) p->m, n = (int) p->n, k = (int) p->k;
  int lda = (int) MAX (p->a->stride, MAX (p->k, 1));
  int ldb = (int) MAX (p->b->stride, MAX (p->n, 1));
  int ldc = (int) MAX (p->c->stride, MAX (p->n, 1));
  if (p->c->dtype == TL_DTYPE_FLOAT32)
    cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                 p->a->data, lda, p->b->data, ldb, 0.0f, p->c->data, ldc);
  else
    cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
                 p->a->data, lda, p->b->data, ldb, 0.0, p->c->data, ldc);
  return TRUE;
}

static gpointer
openblas_info_once (gpointer data)
{
  const char *config = openblas_get_config ();
  const char *core = openblas_get_corename ();
  if (config == NULL)
    config = "OpenBLAS";
  return g_strdup_printf ("%s%s (core %s)", g_str_has_prefix (config, "OpenBLAS") ? "" : "OpenBLAS ",
                          config, core ? core : "?");
}

const char *
tl_cpu_openblas_info (void)
{
  static GOnce once = G_ONCE_INIT;
  return g_once (&once, openblas_info_once, NULL);
}

/* ---- the table --------------------------------------------------------- */

#define I32 TL_DTYPE_BIT (TL_DTYPE_INT32)
#define F32 TL_DTYPE_BIT (TL_DTYPE_FLOAT32)
#define F64 TL_DTYPE_BIT (TL_DTYPE_FLOAT64)

typedef struct
{
  TlCpuKernel info;
  RunFn run;
} CpuKernel;

static const CpuKernel cpu_kernels[] = {
  { { .id = "cpu-naive", .title = N_("naive triple loop"),
      .lesson = N_("Seed 002's multiplySequential: for each C element a sum down a column of B, "
                   "one cache miss per multiply-add."),
      .seed = "002", .dtypes = I32 | F32 | F64, .single_threaded = TRUE, .baseline = TRUE },
    run_naive },
  { { .id = "cpu-blocked", .title = N_("cache-blocked, multi-threaded"),
      .lesson = N_("64×64 tiles of C shared out to every core (on one core: seed 004's blocked CPU baseline); a packed 256×64 panel of B stays in "
                   "cache while vectorised rows stream through it."),
      .changed = N_("64×64 tiles of C on every core, a panel of B kept in cache: few misses."),
      .seed = "004", .dtypes = I32 | F32 | F64, .records_tiles = TRUE, .tile = TILE },
    run_blocked },
  { { .id = "cpu-openblas", .title = N_("OpenBLAS ?gemm"),
      .lesson = N_("The tuned library (cblas_sgemm, cblas_dgemm): the CPU yardstick the others "
                   "are checked against."),
      .seed = "", .dtypes = F32 | F64, .reference = TRUE },
    run_openblas },
};

guint
tl_cpu_kernel_count (void)
{
  return G_N_ELEMENTS (cpu_kernels);
}

const TlCpuKernel *
tl_cpu_kernel_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (cpu_kernels), NULL);
  return &cpu_kernels[index].info;
}

static gboolean
overlaps (const TlMatrix *x, const TlMatrix *y)
{
  if (tl_matrix_n_elements (x) == 0 || tl_matrix_n_elements (y) == 0)
    return FALSE;
  gsize xs = tl_dtype_size (x->dtype), ys = tl_dtype_size (y->dtype);
  const char *x0 = x->data, *x1 = x0 + ((x->rows - 1) * x->stride + x->cols) * xs;
  const char *y0 = y->data, *y1 = y0 + ((y->rows - 1) * y->stride + y->cols) * ys;
  return x0 < y1 && y0 < x1;
}

gboolean
tl_cpu_gemm (const char     *kernel_id,
             const TlMatrix *a,
             const TlMatrix *b,
             TlMatrix       *c,
             guint           n_threads,
             GArray         *tile_records,
             GCancellable   *cancellable,
             GError        **error)
{
  g_return_val_if_fail (kernel_id != NULL, FALSE);
  g_return_val_if_fail (a != NULL && b != NULL && c != NULL, FALSE);
  g_return_val_if_fail (tile_records == NULL
                        || g_array_get_element_size (tile_records) == sizeof (TlCpuTileRecord),
                        FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const CpuKernel *kernel = NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (cpu_kernels); i++)
    if (g_strcmp0 (cpu_kernels[i].info.id, kernel_id) == 0)
      kernel = &cpu_kernels[i];
  if (kernel == NULL)
    {
      GString *known = g_string_new (NULL);
      for (gsize i = 0; i < G_N_ELEMENTS (cpu_kernels); i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", cpu_kernels[i].info.id);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("unknown CPU kernel “%s”; known: %s"), kernel_id, known->str);
      g_string_free (known, TRUE);
      return FALSE;
    }

  if (a->dtype != b->dtype || a->dtype != c->dtype)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("A, B and C must share one dtype (A is %zu×%zu %s, B is %zu×%zu %s, "
                     "C is %zu×%zu %s)"),
                   a->rows, a->cols, tl_dtype_name (a->dtype),
                   b->rows, b->cols, tl_dtype_name (b->dtype),
                   c->rows, c->cols, tl_dtype_name (c->dtype));
      return FALSE;
    }
  if (a->cols != b->rows)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("A is %zu×%zu and B is %zu×%zu: A's columns must equal B's rows"),
                   a->rows, a->cols, b->rows, b->cols);
      return FALSE;
    }
  if (c->rows != a->rows || c->cols != b->cols)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("C is %zu×%zu but A·B (A %zu×%zu, B %zu×%zu) is %zu×%zu"),
                   c->rows, c->cols, a->rows, a->cols, b->rows, b->cols, a->rows, b->cols);
      return FALSE;
    }
  if (!(kernel->info.dtypes & TL_DTYPE_BIT (c->dtype)))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s does not multiply %s matrices"), kernel_id, tl_dtype_name (c->dtype));
      return FALSE;
    }
  if (overlaps (c, a) || overlaps (c, b))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("C must not share memory with A or B"));
      return FALSE;
    }
  /* the tile counter is a gint */
  if ((a->rows + TILE - 1) / TILE * ((b->cols + TILE - 1) / TILE) > G_MAXINT / 2)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   _("C (%zu×%zu) has too many tiles"), c->rows, c->cols);
      return FALSE;
    }

  Problem p = { a, b, c, a->rows, b->cols, a->cols, n_threads, tile_records, cancellable };
  return kernel->run (&p, error);
}
