/* tl-lu-gpu.h — the Gauss ladder's GPU side, through the thread's GPU session.
 *
 * tl-lu-gpu.c runs the GPU rungs of tl_lu_factor and the GPU solve (their
 * entry points are tl-lu-private.h's, for tl-lu.c and tl-solve.c); what it
 * offers the rest of Tilelab is here: the solve as a benchmark.
 */
#pragma once

#include "lu/tl-lu.h"

G_BEGIN_DECLS

/* The GPU solve as a benchmark (tl_gpu_lu_solve_bench in tl-gpu.h) on the
 * device of lu (a GPU rung's factorisation), through the thread's GPU
 * session (the runner worker's): solver "lu-solve" (Tilelab's getrs) or
 * "cusolver-getrs" (the reference).  x (n×nrhs, contiguous, lu's dtype)
 * holds B and becomes X of the last solve; times_ms[repeats] receives the
 * device times of the timed solves. */
gboolean tl_lu_solve_gpu_bench (const TlLuResult *lu, TlMatrix *x, const char *solver,
                                guint warmups, guint repeats, double *times_ms, GError **error);

G_END_DECLS
