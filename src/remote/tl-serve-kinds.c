/* tl-serve-kinds.c — the worker's job kinds: one row each. */
#include "remote/tl-serve-kinds.h"

const TlServeJobKind tl_serve_job_kinds[] = {
  { "devices", tl_serve_start_devices },
  { "gemm", tl_serve_start_gemm },
  { "gauss", tl_serve_start_gauss },
  { "command", tl_serve_start_command },
  { "user-gemm", tl_serve_start_user_gemm },
};

const guint tl_serve_n_job_kinds = G_N_ELEMENTS (tl_serve_job_kinds);
