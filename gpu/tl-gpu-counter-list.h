/* tl-gpu-counter-list.h — the hardware counters Tilelab collects, one row each.
 *
 * The one list.  Read with TL_GPU_COUNTER defined by the reader:
 *   gpu/tl-gpu.h               the enum TlGpuCounterId (TL_GPU_COUNTER_<ID>);
 *   gpu/tl-gpu-counter-info.c  the table behind tl_gpu_counter_info (with
 *                              or without CUDA: records made on a GPU
 *                              server are read on laptops);
 *   gpu/tl-gpu-counters.cu     the metrics handed to CUPTI's range profiler.
 *
 *   TL_GPU_COUNTER (ID, "key", "metric", "unit")
 *
 * key     the stable name in run records (never renamed: old records keep it);
 * metric  the Nsight Compute metric, verbatim — `ncu --metrics METRIC`
 *         counts the same thing, so every number can be checked there;
 * unit    what one count is.
 *
 * Every row is a sum over the whole multiply (all its kernels), so rows add
 * across kernels; ratios (hit rate, sectors per request, occupancy, FLOPs)
 * are computed from them in src/record/tl-counters.c.  A GPU that lacks a
 * metric (the gmma stall exists on Hopper only) records NaN for it, never 0.
 * Adding a counter is adding a row; the order is not part of any file.
 */

/* Memory: what crossed each level. */
TL_GPU_COUNTER (DRAM_READ_BYTES,     "dram_read_bytes",     "dram__bytes_read.sum",  "byte")
TL_GPU_COUNTER (DRAM_WRITE_BYTES,    "dram_write_bytes",    "dram__bytes_write.sum", "byte")
TL_GPU_COUNTER (L2_BYTES,            "l2_bytes",            "lts__t_bytes.sum",      "byte")
TL_GPU_COUNTER (L2_HIT_SECTORS,      "l2_hit_sectors",      "lts__t_sectors_lookup_hit.sum",  "sector")
TL_GPU_COUNTER (L2_MISS_SECTORS,     "l2_miss_sectors",     "lts__t_sectors_lookup_miss.sum", "sector")

/* Global loads through the load/store unit (LDG): 32-byte sectors per
 * request say how well a warp's addresses coalesce (4 is perfect for 32
 * floats, 32 is one sector per thread).  cp.async (LDGSTS) and TMA copies
 * are not LDG requests and do not appear here. */
TL_GPU_COUNTER (GLD_SECTORS,         "gld_sectors",   "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",  "sector")
TL_GPU_COUNTER (GLD_REQUESTS,        "gld_requests",  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "request")

/* Shared memory through the load/store unit: wavefronts are the passes the
 * 32 banks need to serve an instruction (one per instruction when nothing
 * conflicts and the access is 4 bytes wide); wgmma reads its operands from
 * shared memory on another path, not counted here. */
TL_GPU_COUNTER (SMEM_WAVEFRONTS,     "smem_wavefronts",     "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",     "wavefront")
TL_GPU_COUNTER (SMEM_BANK_CONFLICTS, "smem_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "conflict")
TL_GPU_COUNTER (SMEM_LOADS,          "smem_load_instructions",  "smsp__inst_executed_op_shared_ld.sum", "warp instruction")
TL_GPU_COUNTER (SMEM_STORES,         "smem_store_instructions", "smsp__inst_executed_op_shared_st.sum", "warp instruction")

/* Occupancy and issue. */
TL_GPU_COUNTER (WARPS_ACTIVE,        "warps_active",        "sm__warps_active.sum",    "warp-cycle")
TL_GPU_COUNTER (SM_CYCLES_ACTIVE,    "sm_cycles_active",    "sm__cycles_active.sum",   "cycle")
TL_GPU_COUNTER (ISSUE_ACTIVE,        "issue_active",        "smsp__issue_active.sum",  "cycle")
TL_GPU_COUNTER (SMSP_CYCLES_ACTIVE,  "smsp_cycles_active",  "smsp__cycles_active.sum", "cycle")

/* Arithmetic, counted from what executed: thread instructions of the CUDA
 * cores (an FMA is two floating-point operations) and the math operations
 * of the tensor cores (mma.sync / wgmma), by input precision. */
TL_GPU_COUNTER (FFMA,                "ffma",  "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (FADD,                "fadd",  "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (FMUL,                "fmul",  "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (DFMA,                "dfma",  "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (DADD,                "dadd",  "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (DMUL,                "dmul",  "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "thread instruction")
TL_GPU_COUNTER (TENSOR_TF32_OPS,     "tensor_tf32_ops", "sm__ops_path_tensor_src_tf32_dst_fp32.sum", "op")
TL_GPU_COUNTER (TENSOR_BF16_OPS,     "tensor_bf16_ops", "sm__ops_path_tensor_src_bf16_dst_fp32.sum", "op")
TL_GPU_COUNTER (TENSOR_FP64_OPS,     "tensor_fp64_ops", "sm__ops_path_tensor_src_fp64.sum",          "op")

/* Why warps did not issue: warp-cycles spent in each state (Nsight
 * Compute's "Warp State Statistics" divide them by issue_active). */
TL_GPU_COUNTER (STALL_BARRIER,            "stall_barrier",            "smsp__warps_issue_stalled_barrier.sum",            "warp-cycle")
TL_GPU_COUNTER (STALL_BRANCH_RESOLVING,   "stall_branch_resolving",   "smsp__warps_issue_stalled_branch_resolving.sum",   "warp-cycle")
TL_GPU_COUNTER (STALL_DISPATCH,           "stall_dispatch",           "smsp__warps_issue_stalled_dispatch_stall.sum",     "warp-cycle")
TL_GPU_COUNTER (STALL_DRAIN,              "stall_drain",              "smsp__warps_issue_stalled_drain.sum",              "warp-cycle")
TL_GPU_COUNTER (STALL_GMMA,               "stall_gmma",               "smsp__warps_issue_stalled_gmma.sum",               "warp-cycle")
TL_GPU_COUNTER (STALL_IMC_MISS,           "stall_imc_miss",           "smsp__warps_issue_stalled_imc_miss.sum",           "warp-cycle")
TL_GPU_COUNTER (STALL_LG_THROTTLE,        "stall_lg_throttle",        "smsp__warps_issue_stalled_lg_throttle.sum",        "warp-cycle")
TL_GPU_COUNTER (STALL_LONG_SCOREBOARD,    "stall_long_scoreboard",    "smsp__warps_issue_stalled_long_scoreboard.sum",    "warp-cycle")
TL_GPU_COUNTER (STALL_MATH_PIPE_THROTTLE, "stall_math_pipe_throttle", "smsp__warps_issue_stalled_math_pipe_throttle.sum", "warp-cycle")
TL_GPU_COUNTER (STALL_MEMBAR,             "stall_membar",             "smsp__warps_issue_stalled_membar.sum",             "warp-cycle")
TL_GPU_COUNTER (STALL_MIO_THROTTLE,       "stall_mio_throttle",       "smsp__warps_issue_stalled_mio_throttle.sum",       "warp-cycle")
TL_GPU_COUNTER (STALL_MISC,               "stall_misc",               "smsp__warps_issue_stalled_misc.sum",               "warp-cycle")
TL_GPU_COUNTER (STALL_NO_INSTRUCTION,     "stall_no_instruction",     "smsp__warps_issue_stalled_no_instruction.sum",     "warp-cycle")
TL_GPU_COUNTER (STALL_NOT_SELECTED,       "stall_not_selected",       "smsp__warps_issue_stalled_not_selected.sum",       "warp-cycle")
TL_GPU_COUNTER (STALL_SELECTED,           "stall_selected",           "smsp__warps_issue_stalled_selected.sum",           "warp-cycle")
TL_GPU_COUNTER (STALL_SHORT_SCOREBOARD,   "stall_short_scoreboard",   "smsp__warps_issue_stalled_short_scoreboard.sum",   "warp-cycle")
TL_GPU_COUNTER (STALL_SLEEPING,           "stall_sleeping",           "smsp__warps_issue_stalled_sleeping.sum",           "warp-cycle")
TL_GPU_COUNTER (STALL_TEX_THROTTLE,       "stall_tex_throttle",       "smsp__warps_issue_stalled_tex_throttle.sum",       "warp-cycle")
TL_GPU_COUNTER (STALL_WAIT,               "stall_wait",               "smsp__warps_issue_stalled_wait.sum",               "warp-cycle")
