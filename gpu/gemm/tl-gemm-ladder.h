/* tl-gemm-ladder.h — the GEMM ladder, one row per kernel.
 *
 * The one list of GPU GEMM kernels.  Read with TL_GEMM_ROW defined by the
 * reader:
 *   gpu/tl-gpu-registry.c  the registry rows (TlGpuKernelInfo, tl-gpu.h)
 *                          that the GUI, `tilelab-cli kernels`, the
 *                          benchmark and the tests iterate, with or without
 *                          CUDA;
 *   gpu/tl-gpu-gemm.cu     the dispatch: row i runs `SYMBOL_rung`, defined
 *                          in the rung's file (gpu/gemm/tl-gemm-rung.h);
 *   the link               a row whose file is missing from gpu/meson.build
 *                          leaves SYMBOL_rung undefined and the CUDA build
 *                          fails, so rows and build cannot drift apart.
 *
 *   TL_GEMM_ROW (SYMBOL, .field = value, …)
 *
 * The fields are TlGpuKernelInfo's, by name; a field left out is 0 (kind 0
 * is TL_GPU_KIND_RUNG, min_cc 0 runs anywhere).  Adding a rung: its file
 * gpu/gemm/gemm-NN-name.cu (defining gemm_NN_name_rung), one row here, and
 * the file in gpu/meson.build (meson does not glob).  Rows are never
 * renumbered; the order is the order users see.
 *
 * Titles, lessons and what changed (one short sentence: what the rung does
 * differently from the rung below it, for the "Why faster?" page) are N_()
 * marked: src/ shows them through gettext.
 */

TL_GEMM_ROW (gemm_01_naive,
  .id = "gemm-01-naive", .number = 1, .title = N_("naive (uncoalesced)"),
  .lesson = N_("One thread per C element, threadIdx.x walks rows: neighbouring threads read memory far apart."),
  .seed = "000, 002", .dtypes = I32 | F32 | F64, .precision = "fp32",
  .instrumentable = 1, .tile_m = 32, .tile_n = 32,
  .source_path = "gpu/gemm/gemm-01-naive.cu",
  .counters = "gld_sectors_per_request dram_bytes l2_bytes")

TL_GEMM_ROW (gemm_02_coalesced,
  .id = "gemm-02-coalesced", .number = 2, .title = N_("coalesced"),
  .lesson = N_("Same work, threadIdx.x walks columns: a warp reads 32 neighbouring floats of B in one transaction."),
  .changed = N_("threadIdx.x now walks the columns of C: a warp's loads of B are coalesced."),
  .seed = "002", .dtypes = I32 | F32 | F64, .precision = "fp32",
  .instrumentable = 1, .tile_m = 32, .tile_n = 32,
  .source_path = "gpu/gemm/gemm-02-coalesced.cu",
  .counters = "gld_sectors_per_request dram_bytes")

TL_GEMM_ROW (gemm_03_smem16,
  .id = "gemm-03-smem16", .number = 3, .title = N_("shared memory 16×16"),
  .lesson = N_("Each 16×16 block stages tiles of A and B in shared memory: every global load is reused 16 times."),
  .changed = N_("Blocks stage 16×16 tiles of A and B in shared memory: each load is used 16 times."),
  .seed = "000, 001", .dtypes = I32 | F32 | F64, .precision = "fp32",
  .instrumentable = 1, .tile_m = 16, .tile_n = 16,
  .source_path = "gpu/gemm/gemm-03-smem16.cu",
  .counters = "l2_bytes dram_bytes")

TL_GEMM_ROW (gemm_04_smem32,
  .id = "gemm-04-smem32", .number = 4, .title = N_("shared memory 32×32"),
  .lesson = N_("Bigger tiles (32×32) with zero-padded edges: twice the reuse, any matrix size."),
  .changed = N_("The same kernel with 32×32 tiles: twice the reuse of every load."),
  .seed = "002", .dtypes = I32 | F32 | F64, .precision = "fp32",
  .instrumentable = 1, .tile_m = 32, .tile_n = 32,
  .source_path = "gpu/gemm/gemm-04-smem32.cu",
  .counters = "l2_bytes dram_bytes")

TL_GEMM_ROW (gemm_05_seed3k,
  .id = "gemm-05-seed3k", .number = 5, .title = N_("seed 004: three kernels"),
  .lesson = N_("32×4 threads compute 8 outputs each; unguarded interior, guarded last k-step and margins."),
  .changed = N_("128 threads per block, 8 outputs each; the edges go to two guarded kernels."),
  .seed = "004", .dtypes = F32, .precision = "fp32",
  .instrumentable = 1, .tile_m = 32, .tile_n = 32,
  .source_path = "gpu/gemm/gemm-05-seed3k.cu",
  .counters = "smem_wavefronts issue_active")

TL_GEMM_ROW (gemm_06_regtile1d,
  .id = "gemm-06-regtile1d", .number = 6, .title = N_("1-D register tiling"),
  .lesson = N_("Each thread computes a column of 8 results from registers: fewer shared-memory loads per FMA."),
  .changed = N_("Each thread computes a column of 8 results, each B value kept in a register."),
  .seed = "", .dtypes = F32, .precision = "fp32",
  .instrumentable = 1, .tile_m = 64, .tile_n = 64,
  .source_path = "gpu/gemm/gemm-06-regtile1d.cu",
  .counters = "smem_wavefronts issue_active")

TL_GEMM_ROW (gemm_07_regtile2d,
  .id = "gemm-07-regtile2d", .number = 7, .title = N_("2-D register tiling"),
  .lesson = N_("Each thread computes an 8×8 outer product: arithmetic intensity grows with the tile."),
  .changed = N_("Each thread computes an 8×8 block of C as outer products in registers."),
  .seed = "", .dtypes = F32, .precision = "fp32",
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-07-regtile2d.cu",
  .counters = "intensity l2_bytes smem_wavefronts")

TL_GEMM_ROW (gemm_08_vectorized,
  .id = "gemm-08-vectorized", .number = 8, .title = N_("vectorised, conflict-free"),
  .lesson = N_("128-bit loads, A stored transposed in shared memory, padded rows: no bank conflicts."),
  .changed = N_("float4 loads, A transposed in shared memory, padded rows: no bank conflicts."),
  .seed = "", .dtypes = F32, .precision = "fp32",
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-08-vectorized.cu",
  .counters = "bank_conflicts_per_request smem_wavefronts")

TL_GEMM_ROW (gemm_09_warptile,
  .id = "gemm-09-warptile", .number = 9, .title = N_("warp tiling + async copy"),
  .lesson = N_("Warps own sub-tiles; cp.async keeps the next tiles in flight (a 4-stage pipeline) while the current one is multiplied."),
  .changed = N_("Warps own 64×64 sub-tiles; cp.async keeps 3 tiles in flight behind the math."),
  .seed = "", .dtypes = F32, .precision = "fp32", .min_cc = 80,
  .instrumentable = 1, .tile_m = 128, .tile_n = 256,
  .source_path = "gpu/gemm/gemm-09-warptile.cu",
  .counters = "issue_active occupancy")

TL_GEMM_ROW (gemm_10_wmma_tf32,
  .id = "gemm-10-wmma-tf32", .number = 10, .title = N_("tensor cores (WMMA, TF32)"),
  .lesson = N_("WMMA fragments on tensor cores with TF32 inputs and float accumulation."),
  .changed = N_("The multiply moves from FFMA to the tensor cores: WMMA, inputs in TF32."),
  .seed = "", .dtypes = F32, .precision = "tf32", .min_cc = 80,
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-10-wmma.cu",
  .counters = "flops issue_active")

TL_GEMM_ROW (gemm_10_wmma_bf16,
  .id = "gemm-10-wmma-bf16", .number = 10, .title = N_("tensor cores (WMMA, BF16)"),
  .lesson = N_("WMMA fragments on tensor cores with BF16 inputs and float accumulation."),
  .changed = N_("The multiply moves from FFMA to the tensor cores: WMMA, inputs in BF16."),
  .seed = "", .dtypes = F32, .precision = "bf16", .min_cc = 80,
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-10-wmma.cu",
  .counters = "flops issue_active")

TL_GEMM_ROW (gemm_11_wgmma,
  .id = "gemm-11-wgmma", .number = 11, .title = N_("Hopper wgmma + TMA"),
  .lesson = N_("A warpgroup issues wgmma from shared memory that the TMA engine fills, several stages deep."),
  .changed = N_("wgmma reads shared memory directly, TMA copies the tiles, warps specialise."),
  .seed = "", .dtypes = F32, .precision = "bf16", .min_cc = 90,
  .instrumentable = 1, .tile_m = 128, .tile_n = 256,
  .source_path = "gpu/gemm/gemm-11-wgmma.cu",
  .counters = "dram_bytes intensity")

TL_GEMM_ROW (gemm_12_regtile_f64,
  .id = "gemm-12-regtile-f64", .number = 12, .title = N_("register tiling, float64"),
  .lesson = N_("Rung 16's register-tiled kernel in double precision, on the FP64 CUDA cores (half the FP32 rate on H100, 1/64 on consumer GPUs)."),
  .changed = N_("Rung 16's register-tiled, double-buffered kernel, in float64."),
  .seed = "003", .dtypes = F64, .precision = "fp64",
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-12-regtile-f64.cu",
  .counters = "flops issue_active")

TL_GEMM_ROW (gemm_13_wgmma_tf32,
  .id = "gemm-13-wgmma-tf32", .number = 13, .title = N_("Hopper wgmma, TF32"),
  .lesson = N_("wgmma takes TF32 only K-major from shared memory, so compute Cᵀ = Bᵀ·Aᵀ: A's tile from shared memory, B's from registers."),
  .changed = N_("Rung 11's wgmma + TMA pipeline in TF32, computing Cᵀ = Bᵀ·Aᵀ."),
  .seed = "", .dtypes = F32, .precision = "tf32", .min_cc = 90,
  .instrumentable = 1, .tile_m = 256, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-13-wgmma-tf32.cu",
  .counters = "dram_bytes intensity")

TL_GEMM_ROW (gemm_14_wgmma_persistent,
  .id = "gemm-14-wgmma-persistent", .number = 14, .title = N_("Hopper wgmma, persistent"),
  .lesson = N_("One CTA per SM loops over C's tiles in L2-friendly order; CTA pairs multicast the shared B tile."),
  .changed = N_("Persistent CTAs walk C's tiles in L2-friendly order; CTA pairs share B."),
  .seed = "", .dtypes = F32, .precision = "bf16", .min_cc = 90,
  .instrumentable = 1, .tile_m = 128, .tile_n = 256,
  .source_path = "gpu/gemm/gemm-14-wgmma-persistent.cu",
  .counters = "dram_bytes occupancy")

TL_GEMM_ROW (gemm_15_dmma_f64,
  .id = "gemm-15-dmma-f64", .number = 15, .title = N_("FP64 tensor cores (DMMA)"),
  .lesson = N_("mma.sync on doubles: the tensor cores multiply 16×8×4 tiles in full float64, twice the FP64 CUDA-core rate."),
  .changed = N_("The float64 multiply-adds move to the tensor cores (DMMA)."),
  .seed = "003", .dtypes = F64, .precision = "fp64", .min_cc = 80,
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-15-dmma-f64.cu",
  .counters = "flops issue_active")

TL_GEMM_ROW (gemm_16_doublebuf,
  .id = "gemm-16-doublebuf", .number = 16, .title = N_("double-buffered, 4×8 warps, planned"),
  .lesson = N_("Two shared buffers, operands loaded a step ahead, 4×8-lane warps, 64×64 tiles when 128×128 would leave SMs idle: issue slots, not waiting, are what is left."),
  .changed = N_("Two shared buffers, operands loaded a step ahead, 4×8-lane warps, planned tiles."),
  .seed = "", .dtypes = F32, .precision = "fp32",
  .instrumentable = 1, .tile_m = 128, .tile_n = 128,
  .source_path = "gpu/gemm/gemm-16-doublebuf.cu",
  .counters = "issue_active occupancy")

TL_GEMM_ROW (gemm_17_simt_tma,
  .id = "gemm-17-simt-tma", .number = 17, .title = N_("warp-specialised SIMT + TMA"),
  .lesson = N_("One producer warp lets the copy engine (TMA) fill a ring of shared stages; eight warps with 232 registers each do nothing but shared loads and FFMAs on 8×16 outputs."),
  .changed = N_("A TMA producer fills shared stages; the other warps only load and multiply."),
  .seed = "", .dtypes = F32, .precision = "fp32", .min_cc = 90,
  .instrumentable = 1, .tile_m = 128, .tile_n = 256,
  .source_path = "gpu/gemm/gemm-17-simt-tma.cu",
  .counters = "issue_active smem_wavefronts occupancy")

TL_GEMM_ROW (cublas_fp32,
  .id = "cublas-fp32", .number = 0, .title = N_("cuBLAS SGEMM (pedantic)"),
  .lesson = N_("The vendor library with pedantic FP32 math: the reference the CUDA-core rungs chase."),
  .seed = "", .dtypes = F32, .precision = "fp32",
  .kind = TL_GPU_KIND_REFERENCE,
  .source_path = "gpu/tl-gpu-cublas.cu",
  .counters = "dram_bytes intensity")

TL_GEMM_ROW (cublas_tf32,
  .id = "cublas-tf32", .number = 0, .title = N_("cuBLAS TF32"),
  .lesson = N_("cuBLAS on tensor cores with TF32 inputs: the reference for the TF32 rung."),
  .seed = "", .dtypes = F32, .precision = "tf32", .min_cc = 80,
  .kind = TL_GPU_KIND_REFERENCE,
  .source_path = "gpu/tl-gpu-cublas.cu",
  .counters = "dram_bytes intensity")

TL_GEMM_ROW (cublas_bf16,
  .id = "cublas-bf16", .number = 0, .title = N_("cuBLAS BF16"),
  .lesson = N_("cuBLAS with BF16 inputs and FP32 accumulation: the reference for the BF16 rungs."),
  .seed = "", .dtypes = F32, .precision = "bf16", .min_cc = 80,
  .kind = TL_GPU_KIND_REFERENCE,
  .source_path = "gpu/tl-gpu-cublas.cu",
  .counters = "dram_bytes intensity")

TL_GEMM_ROW (cublas_fp64,
  .id = "cublas-fp64", .number = 0, .title = N_("cuBLAS DGEMM"),
  .lesson = N_("The vendor library in double precision."),
  .seed = "", .dtypes = F64, .precision = "fp64",
  .kind = TL_GPU_KIND_REFERENCE,
  .source_path = "gpu/tl-gpu-cublas.cu",
  .counters = "dram_bytes intensity")
