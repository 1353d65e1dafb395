/* tl-gemm-check.h — is a computed C = A·B right?  The one rule.
 *
 * The runner, `tilelab-cli gemm` and `bench`, the GEMM tests and the GPU
 * benchmark all judge a product with this file, so "correct" means the same
 * everywhere.
 *
 * The rule, per element:
 *
 *     |ĉᵢⱼ − cᵢⱼ| ≤ tol(k) · (|A|·|B|)ᵢⱼ        (NaN or ±Inf in ĉ fails)
 *
 *     tol(k) = 2·ε_in + ε_in² + γ_k(ε_acc) + γ_k(ε₆₄),   γ_k(ε) = k·ε / (1 − k·ε)
 *
 * where c is A·B in float64 (from the exact float64 values of the inputs)
 * and |A|·|B| the product of the element-wise absolute values.
 *
 * Why.  A dot product of length k summed in floating point with unit
 * roundoff u, in any order and with or without fused multiply-adds, obeys
 * |fl(xᵀy) − xᵀy| ≤ γ_k(u)·|x|ᵀ|y| (Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., §3.1, eq. 3.5).  The bound is per element
 * and scales with |A|·|B|, not with |C|, so products that cancel (|C| much
 * smaller than |A|·|B|) are judged fairly and large and small entries alike.
 * The terms:
 *   ε_in   rounding of the inputs before they are multiplied: tensor-core
 *          rungs read A and B as TF32 or BF16.  A product of two inputs
 *          each off by a relative ε_in is off by at most 2·ε_in + ε_in².
 *   ε_acc  the arithmetic the products are summed in (FP32 or FP64).
 *   ε₆₄    the float64 reference's own rounding (a float64 GEMM).
 * Every ε is the format's machine epsilon 2^(1−t) (t significand bits), the
 * unit roundoff of a truncating unit and twice that of a rounding one: the
 * rule holds whether the hardware rounds or chops.
 *
 *   precision  ε_in          ε_acc          tol at k = 1024   k = 4096
 *   exact      —             —              0: every element equal (int32
 *                                           wraps modulo 2³², as C's
 *                                           unsigned arithmetic does)
 *   fp64       0             2⁻⁵² (DBL)     4.5e-13           1.8e-12
 *   fp32       0             2⁻²³ (FLT)     1.2e-4            4.9e-4
 *   tf32       2⁻¹⁰          2⁻²³           2.1e-3            2.4e-3
 *   bf16       2⁻⁷           2⁻²³           1.6e-2            1.6e-2
 *
 * It is a worst-case bound, so a correct kernel never fails it; what it
 * catches is what goes wrong in kernels: a wrong index, a missed tile or
 * k-step, an unwritten element (C is poisoned with NaN before the run), a
 * race — errors of the size of the terms themselves, far above tol.
 *
 * The check also keeps the classic summaries (max |ĉ − c|, ‖ĉ − c‖_F /
 * ‖c‖_F, ‖ĉ − c‖_F / (‖A‖_F·‖B‖_F)) for tables, and the first few elements
 * over the bound for the record and the app to show.
 */
#pragma once

#include <gio/gio.h>

#include "core/tl-matrix.h"

G_BEGIN_DECLS

/* How many mismatches a check keeps (the first, in row-major order). */
#define TL_GEMM_CHECK_KEEP 8

/* The reference of one product, computed once per A and B. */
typedef struct
{
  TlMatrix *c;        /* m×n float64: A·B (int32 inputs: modulo 2³², exact) */
  TlMatrix *abs_c;    /* m×n float64: |A|·|B|; NULL for int32 (compared exactly) */
  gsize k;
  double norm_a, norm_b, norm_c; /* Frobenius norms */
} TlGemmReference;

/* A and B of one dtype, A m×k, B k×n.  Multi-threaded (OpenBLAS, or the
 * int32 loop on every core).  NULL with the error when memory is short. */
TlGemmReference *tl_gemm_reference_new  (const TlMatrix *a, const TlMatrix *b, GError **error);
/* The same, computed in panels of `panel_rows` rows of C (0: about
 * TL_GEMM_REFERENCE_PANEL_FLOPS each) with `cancellable` polled between
 * them (once a row for int32): NULL with G_IO_ERROR_CANCELLED once it is
 * cancelled, within one panel's time. */
TlGemmReference *tl_gemm_reference_new_cancellable (const TlMatrix *a, const TlMatrix *b,
                                                    gsize panel_rows, GCancellable *cancellable,
                                                    GError **error);
/* The default panel of an m×k by k×n product: at least 64 rows (OpenBLAS
 * keeps its speed), at most m. */
#define TL_GEMM_REFERENCE_PANEL_FLOPS 1e9
gsize            tl_gemm_reference_panel_rows (gsize m, gsize k, gsize n);
void             tl_gemm_reference_free (TlGemmReference *ref);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGemmReference, tl_gemm_reference_free)

typedef struct
{
  gsize row, col;
  double got, expected;
  double bound;       /* tol(k)·(|A|·|B|)ᵢⱼ: what |got − expected| had to stay within */
} TlGemmMismatch;

typedef struct
{
  double tolerance;   /* tol(k) of the rule above (0: exact) */
  gboolean passed;    /* every element within its bound */
  gsize n_wrong;      /* elements over their bound, NaN and ±Inf included */
  double worst;       /* max over the elements of |ĉ − c| / (|A|·|B|)ᵢⱼ, to compare
                         with tolerance (+Inf when an element is NaN or over a zero bound) */
  /* the classic summaries */
  double max_abs;     /* max |ĉ − c| */
  double max_rel;     /* max |ĉ − c| / |c| */
  double rel_norm;    /* ‖ĉ − c‖_F / ‖c‖_F */
  double normwise;    /* ‖ĉ − c‖_F / (‖A‖_F·‖B‖_F) */
  guint n_mismatches; /* kept in mismatches[], ≤ TL_GEMM_CHECK_KEEP */
  TlGemmMismatch mismatches[TL_GEMM_CHECK_KEEP];
} TlGemmCheck;

/* tol(k) for a precision: "exact", "fp64", "fp32", "tf32" or "bf16" (an
 * unknown name is treated as fp32). */
double   tl_gemm_check_tolerance (const char *precision, gsize k);

/* Judges c (m×n, any dtype) against ref for a kernel computing in
 * `precision`.  Returns out->passed. */
gboolean tl_gemm_check (const TlGemmReference *ref, const TlMatrix *c, const char *precision,
                        TlGemmCheck *out);

/* "1 of 16 elements wrong; first at (3, 7): got 1.5, want 2.25 (bound 1e-6)":
 * a one-line description of a failed check (NULL when it passed). */
char    *tl_gemm_check_describe (const TlGemmCheck *check);

G_END_DECLS
