/* tl-gpu-backend-list.h — the functions of tl-gpu.h that need CUDA: the one
 * list the loader forwards (no include guard: read with the macros below
 * defined, as an X-macro list).
 *
 * In a CUDA build these live in the module libtilelab-gpu-cuda.so
 * (tl-gpu-module.c hands out their addresses in a TlGpuBackend table); the
 * executables link tl-gpu-loader.c, which opens the module on the first call
 * that needs it and forwards.  The stub (tl-gpu-stub.c) fills the same
 * table when there is no module.  What is NOT here answers without CUDA and
 * never loads anything: the registries (tl-gpu-registry.c,
 * tl-gpu-counter-info.c), tl_gpu_status_name, tl_gpu_built_with_cuda.
 *
 * ADDING A FUNCTION to tl-gpu.h that needs CUDA is one line here, in the
 * same form (parameters and arguments in their own parentheses):
 *
 *   TL_GPU_FN (LOAD, TlGpuStatus, rank, (TlGpuDevice *device, int m, int *out),
 *              (device, m, out))
 *
 * plus its stub_NAME in tl-gpu-stub.c (the link says so when it is missing).
 * The list's text is the door's signature: the loader refuses a module
 * built from another list, so nothing else needs bumping; a change of
 * meaning that keeps every signature bumps TL_GPU_BACKEND_ABI in
 * tl-gpu-backend.h.
 *
 * The mode says when a call may load the module:
 *   LOAD  the first such call opens the module (on the calling thread: the
 *         runner's worker, never the window's thread);
 *   PEEK  answers from what is open — the stub until a LOAD call ran — so
 *         asking "is the GPU lost?" or freeing an empty result loads nothing.
 * TL_GPU_VOID_FN is the same for functions that return nothing (all PEEK).
 */

/* messages and the lost latch */
TL_GPU_FN (PEEK, const char *, last_message, (void), ())
TL_GPU_FN (PEEK, int, is_lost, (void), ())

/* devices */
TL_GPU_FN (LOAD, TlGpuStatus, device_count, (int *out_count), (out_count))
TL_GPU_FN (LOAD, TlGpuStatus, device_facts, (int ordinal, TlGpuFacts *out_facts),
           (ordinal, out_facts))
TL_GPU_FN (LOAD, TlGpuStatus, device_open, (int ordinal, TlGpuDevice **out_device),
           (ordinal, out_device))
TL_GPU_VOID_FN (PEEK, device_close, (TlGpuDevice *device), (device))
TL_GPU_FN (LOAD, TlGpuStatus, device_health, (TlGpuDevice *device), (device))
TL_GPU_FN (LOAD, TlGpuStatus, debug_fault, (TlGpuDevice *device), (device))
TL_GPU_FN (PEEK, int, debug_gemm_count, (int ordinal), (ordinal))

/* GEMM */
TL_GPU_FN (LOAD, int, kernel_available, (const char *id), (id))
TL_GPU_FN (LOAD, TlGpuStatus, measure_bandwidth, (TlGpuDevice *device, TlGpuBandwidth *out),
           (device, out))
TL_GPU_FN (LOAD, TlGpuStatus, gemm_run,
           (TlGpuDevice *device, const char *kernel_id, const TlGpuGemmArgs *args,
            TlGpuGemmResult *out_result),
           (device, kernel_id, args, out_result))
TL_GPU_VOID_FN (PEEK, gemm_result_clear, (TlGpuGemmResult *result), (result))

/* LU, solve, GF(p) */
TL_GPU_FN (LOAD, TlGpuStatus, lu_run,
           (TlGpuDevice *device, const char *kernel_id, const TlGpuLuArgs *args,
            TlGpuLuResult *out_result),
           (device, kernel_id, args, out_result))
TL_GPU_VOID_FN (PEEK, lu_result_clear, (TlGpuLuResult *result), (result))
TL_GPU_FN (LOAD, TlGpuStatus, lu_solve,
           (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms),
           (device, args, out_ms))
TL_GPU_FN (LOAD, TlGpuStatus, lu_solve_bench,
           (TlGpuDevice *device, const char *solver, const TlGpuLuSolveArgs *args, int warmups,
            int repeats, double *times_ms),
           (device, solver, args, warmups, repeats, times_ms))
TL_GPU_FN (LOAD, TlGpuStatus, rank,
           (TlGpuDevice *device, const TlGpuRankArgs *args, TlGpuRankResult *out),
           (device, args, out))
TL_GPU_VOID_FN (PEEK, rank_result_clear, (TlGpuRankResult *result), (result))
TL_GPU_FN (LOAD, TlGpuStatus, gfp_lu,
           (TlGpuDevice *device, int m, int n, uint32_t p, uint32_t *a, int *ipiv,
            int *out_info, double *out_ms),
           (device, m, n, p, a, ipiv, out_info, out_ms))

/* user kernels: NVRTC and the harness */
TL_GPU_FN (LOAD, TlGpuStatus, user_compile, (const TlGpuUserSource *source, TlGpuUserBuild *out),
           (source, out))
TL_GPU_VOID_FN (PEEK, user_build_clear, (TlGpuUserBuild *build), (build))
TL_GPU_FN (LOAD, TlGpuStatus, user_gemm_run,
           (TlGpuDevice *device, const TlGpuUserLaunch *kernel, const TlGpuGemmArgs *args,
            TlGpuGemmResult *out_result),
           (device, kernel, args, out_result))
