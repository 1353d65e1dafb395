/* tl-user-kernel-private.h — inside a user kernel (src/gemm only). */
#pragma once

#include "gemm/tl-user-kernel.h"

G_BEGIN_DECLS

struct TlUserKernel
{
  gint ref_count;
  char *path, *file_name, *source;
  TlUserValue entry[TL_DTYPE_COUNT];
  TlUserValue block[3], grid[3]; /* y and z may be undeclared (1) */
  TlUserValue tile[2];           /* rows, columns */
  TlUserValue shared, title;
  GMutex lock;                   /* guards builds */
  GPtrArray *builds;             /* TlUserBuild*, one per architecture compiled for */
};

/* "float32", "float64", "int32": a dtype's declaration key. */
const char *tl_user_kernel_dtype_key (TlDtype dtype);

/* NVRTC's log read (tl-user-log.c): the diagnostics of the kernel's file
 * (file_name) into diagnostics (TlUserDiagnostic*), the lines of the
 * compiler's own tail mapped onto the declarations they check; and the
 * resources ptxas reported for the entry whose cubin name is lowered. */
void     tl_user_log_diagnostics (const char *log, const TlUserKernel *kernel,
                                  GPtrArray *diagnostics);
gboolean tl_user_log_resources   (const char *log, const char *lowered, TlUserResources *out);
void     tl_user_diagnostic_free (TlUserDiagnostic *d);
/* The tail compiled after the file: each entry assigned to a pointer of
 * the ladder's signature, under a #line of its declaration. */
char    *tl_user_kernel_entry_checks (const TlUserKernel *kernel);


G_END_DECLS
