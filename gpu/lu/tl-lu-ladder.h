/* tl-lu-ladder.h — the Gauss ladder's GPU rungs, one row each.
 *
 * The one list of these rungs.  Read three times, with TL_LU_ROW defined
 * by the reader:
 *   gpu/tl-gpu-registry.c  the registry rows (TlGpuLuKernelInfo, tl-gpu.h),
 *                          which src/lu/tl-lu.c lists beside the CPU kernels;
 *   gpu/lu/tl-gpu-lu.cu    the dispatch: row i runs `SYMBOL_rung`, defined
 *                          in the rung's file (gpu/lu/tl-lu-gpu.cuh);
 *   the link               a row whose file is missing from gpu/meson.build
 *                          leaves SYMBOL_rung undefined: the build fails.
 *
 *   TL_LU_ROW (SYMBOL, .field = value, …)
 *
 * The fields are TlGpuLuKernelInfo's, by name; a field left out is 0.
 * Adding a rung: its file gpu/lu/lu-NN-name.cu (defining lu_NN_name_rung),
 * one row here, the file in gpu/meson.build.  Rows are never renumbered.
 * Titles and lessons are N_() marked: src/ shows them through gettext.
 * fastest_from says where a rung is the fastest GPU LU, from the H200
 * table in docs/perf/: `gpu` (det, solve, lu --kernel gpu) takes the row
 * with the largest fastest_from ≤ the size.
 */

TL_LU_ROW (lu_01_percolumn,
  .id = "lu-01-percolumn", .number = 1,
  .title = N_("GPU one launch per column"),
  .lesson = N_("Each column is a pivot search, a swap, a scale and a rank-1 update: 4n launches bound by memory bandwidth"),
  .seed = "004", .dtypes = F32 | F64,
  .no_pivoting = 1, .records_steps = 1,
  .source_path = "gpu/lu/lu-01-percolumn.cu")

TL_LU_ROW (lu_02_blocked,
  .id = "lu-02-blocked", .number = 2,
  .title = N_("GPU blocked, cuBLAS trailing update"),
  .lesson = N_("The panel on the GPU, then TRSM and GEMM from cuBLAS: the update becomes a matrix multiplication"),
  .seed = "004", .dtypes = F32 | F64,
  .default_block = 128, .records_steps = 1, .phases = 1,
  .source_path = "gpu/lu/lu-02-blocked.cu")

TL_LU_ROW (lu_03_tuned,
  .id = "lu-03-tuned", .number = 3,
  .title = N_("GPU blocked, fused panel and look-ahead"),
  .lesson = N_("One kernel factors the panel; the next panel is factored on a second stream while the big GEMM runs"),
  .seed = "004", .dtypes = F32 | F64,
  .default_block = 128, .records_steps = 1, .phases = 1,
  .source_path = "gpu/lu/lu-03-tuned.cu")

TL_LU_ROW (lu_04_persistent,
  .id = "lu-04-persistent", .number = 4,
  .title = N_("GPU blocked, persistent panel"),
  .lesson = N_("One launch factors the whole panel from shared memory, its blocks handshaking once per column; look-ahead hides it behind the GEMM"),
  .seed = "004", .dtypes = F32 | F64,
  .default_block = 128, .records_steps = 1, .phases = 1,
  .source_path = "gpu/lu/lu-04-persistent.cu")

TL_LU_ROW (lu_05_cluster,
  .id = "lu-05-cluster", .number = 5,
  .title = N_("GPU blocked, cluster panel"),
  .lesson = N_("Narrow sub-panels held in the registers of one thread-block cluster, one hardware barrier per column; lu-04's look-ahead around them"),
  .seed = "004", .dtypes = F32 | F64,
  .default_block = 128, .records_steps = 1, .phases = 1,
  .source_path = "gpu/lu/lu-05-cluster.cu", .fastest_from = 2049)

TL_LU_ROW (lu_06_fused,
  .id = "lu-06-fused", .number = 6,
  .title = N_("GPU one launch, panel in registers"),
  .lesson = N_("One persistent kernel: one SM keeps the panel in its registers (a barrier per column), the other SMs update column blocks, flags in L2 between them"),
  .seed = "004", .dtypes = F32 | F64,
  .default_block = 16, .records_steps = 1,
  .source_path = "gpu/lu/lu-06-fused.cu", .fastest_from = 1)

TL_LU_ROW (lu_cusolver,
  .id = "lu-cusolver",
  .title = N_("cuSOLVER getrf"),
  .lesson = N_("The GPU reference"),
  .seed = "", .dtypes = F32 | F64,
  .reference = 1,
  .source_path = "gpu/lu/lu-cusolver.cu")
