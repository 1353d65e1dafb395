/* tl-solve.h — what Gauss elimination answers: solutions, rank, null space.
 *
 * tl_lu_solve is LAPACK's getrs on a factorisation from tl_lu_factor: many
 * right-hand sides, square nonsingular A.  The rest is Gauss–Jordan
 * elimination to the reduced row echelon form (seed 004 §3.2) with a
 * tolerance: entries at or below it count as zero.  The default tolerance
 * (tol < 0) comes from the singular values: the numerical rank r counts
 * σ_k > max(m,n)·ε·σ₁ (ε of A's dtype, as numpy's matrix_rank), and the
 * elimination's threshold sits at √(σ_r·σ_{r+1}), in the middle of the gap,
 * because partial-pivoting elimination alone is not rank revealing.
 *
 * The solution space of AX = B (any m×n A, m×k B):
 *   unique    rank = n and every column consistent: X;
 *   infinite  rank < n, consistent: X = X_p + N·T for any T, where the
 *             columns of N (n×(n−rank)) span the null space of A;
 *   none      some column of B is not in the column space of A.
 */
#pragma once

#include "lu/tl-lu.h"

G_BEGIN_DECLS

typedef enum
{
  TL_SOLUTION_UNIQUE = 0,
  TL_SOLUTION_INFINITE,
  TL_SOLUTION_NONE,
} TlSolutionKind;


typedef struct
{
  TlSolutionKind kind;
  gsize rank;                /* rank of A */
  double tol;                /* tolerance the rank was decided with */
  gsize *pivot_cols;         /* rank entries: the pivot (basic) columns */
  TlMatrix *particular;      /* n×k float64 (free variables 0); NULL for none */
  TlMatrix *null_basis;      /* n×(n−rank) float64, one basis vector per column; NULL if rank = n */
  gsize inconsistent_column; /* kind none: first column of B without a solution */
  double inconsistency;      /* kind none: the size of the contradiction 0 = r (|r| > tol), or
                              * by_svd the least-squares residual ‖b − Ax‖∞/‖b‖∞ */
  gboolean by_svd;           /* decided by the SVD: elimination found another rank than the
                              * singular values (no clear gap), or a contradiction the
                              * least-squares residual did not confirm; tol is then the cut
                              * σ₁·max(m,n)·ε */
} TlSolution;

void tl_solution_free (TlSolution *solution);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSolution, tl_solution_free)

/* X = A⁻¹B from PA = LU.  B is n×k of any float dtype; X has the
 * factorisation's dtype.  Factorisations from GPU rungs are solved on the
 * GPU (TL_ERROR_NO_DEVICE if it is gone).  Errors: non-square A, B with the wrong number of
 * rows (TL_ERROR_SHAPE), a zero pivot (TL_ERROR_SINGULAR), NaN/Inf in B. */
TlMatrix *tl_lu_solve (const TlLuResult *lu, const TlMatrix *b, GError **error);

double    tl_rref_default_tol (const TlMatrix *a);

/* The reduced row echelon form of A (float64), its pivot columns and rank.
 * tol < 0: the default. */
TlMatrix *tl_rref (const TlMatrix *a, double tol, gsize **out_pivot_cols, gsize *out_rank,
                   GError **error);
gsize     tl_rank (const TlMatrix *a, double tol);
/* n×(n−rank) float64 basis of {x : Ax = 0}; a n×0 matrix when rank = n. */
TlMatrix *tl_null_space (const TlMatrix *a, double tol, GError **error);
/* The solution space of AX = B (see above).  tol < 0: the default. */
TlSolution *tl_solve_space (const TlMatrix *a, const TlMatrix *b, double tol, GError **error);

G_END_DECLS
