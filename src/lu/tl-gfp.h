/* tl-gfp.h — exact Gauss elimination over the prime field GF(p).
 *
 * Seed 004 first built its elimination over residue-class fields, "because
 * there results are always exact", and only then for floating point.  Here
 * the same: an integer matrix is reduced modulo a prime p < 2³¹ and
 * eliminated exactly; determinant, rank, RREF, null space and solutions
 * come out as residues 0..p−1 and verify the floating-point paths (an
 * integer determinant d satisfies d ≡ det_p (mod p); the rank over GF(p)
 * equals the rational rank unless p divides some minor — rare for large p).
 *
 * Arithmetic: residues are stored as uint32.  A product of two residues is
 * below p² < 2⁶² and is formed in uint64 and reduced with the hardware
 * 64-bit remainder — no __int128 and no Barrett constant needed.  Inverses
 * come from Fermat, a^(p−2).
 */
#pragma once

#include "lu/tl-lu.h"
#include "lu/tl-solve.h"

G_BEGIN_DECLS

#define TL_GFP_MAX_PRIME 2147483647u /* 2³¹ − 1, itself prime */

typedef struct
{
  gsize rows, cols;
  guint32 p;
  guint32 *data; /* row-major, rows × cols residues */
} TlGfpMatrix;

static inline guint32
tl_gfp_add (guint32 a, guint32 b, guint32 p)
{
  guint64 s = (guint64) a + b;
  return (guint32) (s >= p ? s - p : s);
}

static inline guint32
tl_gfp_sub (guint32 a, guint32 b, guint32 p)
{
  return a >= b ? a - b : (guint32) ((guint64) a + p - b);
}

static inline guint32
tl_gfp_mul (guint32 a, guint32 b, guint32 p)
{
  return (guint32) (((guint64) a * b) % p);
}

guint32       tl_gfp_pow       (guint32 a, guint64 e, guint32 p);
guint32       tl_gfp_inv       (guint32 a, guint32 p); /* a ≠ 0 */
gboolean      tl_gfp_is_prime  (guint64 n);
/* TL_ERROR_INVALID unless 2 ≤ p < 2³¹ and p prime. */
gboolean      tl_gfp_check_modulus (guint64 p, GError **error);
/* An integer v (any sign) as a residue. */
guint32       tl_gfp_from_int  (gint64 v, guint32 p);
/* The symmetric representative: r or r − p, whichever is smaller in size. */
gint64        tl_gfp_centered  (guint32 r, guint32 p);

TlGfpMatrix  *tl_gfp_matrix_new  (gsize rows, gsize cols, guint32 p, GError **error);
void          tl_gfp_matrix_free (TlGfpMatrix *self);
TlGfpMatrix  *tl_gfp_matrix_copy (const TlGfpMatrix *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGfpMatrix, tl_gfp_matrix_free)

static inline guint32
tl_gfp_get (const TlGfpMatrix *a, gsize i, gsize j)
{
  return a->data[i * a->cols + j];
}

/* From a TlMatrix of integers (int32, or floats holding integers below
 * 2⁵³): TL_ERROR_INVALID naming the first non-integer entry. */
TlGfpMatrix  *tl_gfp_from_matrix (const TlMatrix *a, guint32 p, GError **error);

/* LU over GF(p): the pivot is the first nonzero entry at or below the
 * diagonal (any nonzero is exact; there is no "largest").  Same packed
 * model as TlLuResult: ipiv 0-based, info = first zero pivot (1-based). */
typedef struct
{
  TlGfpMatrix *lu;
  gint32 *ipiv;
  gsize n_ipiv;
  gsize info;
  gsize n_swaps;
  guint32 det;   /* square only: det A mod p */
} TlGfpLu;

void     tl_gfp_lu_free (TlGfpLu *lu);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGfpLu, tl_gfp_lu_free)

/* recorder may be NULL; it then receives exact integer steps (modulus p). */
TlGfpLu *tl_gfp_lu (const TlGfpMatrix *a, TlLuRecorder *recorder, GCancellable *cancellable,
                    GError **error);
guint32  tl_gfp_det (const TlGfpMatrix *a); /* square */
/* The same elimination on a GPU: tl_gfp_lu_gpu, lu/tl-gfp-gpu.h. */
/* RREF, pivot columns and rank (exact). */
TlGfpMatrix *tl_gfp_rref (const TlGfpMatrix *a, gsize **out_pivot_cols, gsize *out_rank);
gsize    tl_gfp_rank (const TlGfpMatrix *a);
/* cols × (cols − rank) basis of the null space. */
TlGfpMatrix *tl_gfp_null_space (const TlGfpMatrix *a);

typedef struct
{
  TlSolutionKind kind;
  gsize rank;
  gsize *pivot_cols;
  TlGfpMatrix *particular;   /* n×k; NULL for none */
  TlGfpMatrix *null_basis;   /* n×(n−rank); NULL if rank = n */
  gsize inconsistent_column;
} TlGfpSolution;

void           tl_gfp_solution_free (TlGfpSolution *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGfpSolution, tl_gfp_solution_free)
/* AX = B over GF(p); TL_ERROR_SHAPE when B's rows differ from A's. */
TlGfpSolution *tl_gfp_solve_space (const TlGfpMatrix *a, const TlGfpMatrix *b, GError **error);

G_END_DECLS
