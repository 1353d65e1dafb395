/* lu-gpu-test-util.h — what the GPU Gauss tests (test-lu-gpu*.c, one
 * program) share, and the tests each file adds. */
#pragma once

#include "core/tl-matrix.h"
#include "lu/tl-lu.h"

/* the GPU rungs of the Gauss ladder, cuSOLVER last */
#define LU_GPU_N_KERNELS 7
extern const char *const gpu_kernels[LU_GPU_N_KERNELS];

gboolean    is_blocked      (const char *kernel);
/* LAPACK's ‖PA − LU‖₁ / (n ‖A‖₁ ε) */
double      factor_ratio    (const TlMatrix *a, const TlLuResult *r);
/* LAPACK's backward error of a solve through the factors, O(n²) */
double      solve_ratio     (const TlMatrix *a, const TlLuResult *r, guint32 seed);
/* TL_TEST_SEED, else the clock; printed so that a failure can be replayed */
guint32     fresh_seed      (void);
/* a factorisation that must succeed, with every ipiv entry written */
TlLuResult *factor_checked  (const char *kernel, const TlMatrix *a, gsize block);

/* test-lu-gpu-factor.c: factors against LAPACK's ratio, singular and NaN inputs */
void test_ratios (void);
void test_singular_and_no_pivoting (void);
void test_singular_steps (void);
void test_nan (void);
void test_fresh (void);
void test_near_singular (void);
void test_large (void);
/* test-lu-gpu-paths.c: lu-05's and lu-06's paths at odd shapes */
void test_cluster_paths (void);
void test_fused_paths (void);
void test_fused_workers (void);
/* test-lu-gpu-solve.c: solves, the exact mode, rank and null space */
void test_solve (void);
void test_solve_bench (void);
void test_gfp (void);
void test_rank (void);
/* test-lu-gpu-record.c: recording on the GPU, cancel */
void test_record (void);
void test_cancel (void);
