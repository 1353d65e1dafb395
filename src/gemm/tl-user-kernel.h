/* tl-user-kernel.h — a student's own GEMM kernel: the file, its
 * declarations, its compiled builds, and its row in the registry.
 *
 * A kernel file is a .cu with "// tilelab: KEY = VALUE" lines beside the
 * code (gpu/tilelab.cuh and docs/your-kernel.md show the form):
 *
 *   float32 | float64 | int32 = NAME     the entry for that element type
 *   block = X[, Y[, Z]]                  threads per block (expressions)
 *   grid  = X[, Y[, Z]]                  blocks (expressions of m, n, k, elem)
 *   shared = BYTES                       dynamic shared memory (default 0)
 *   tile = ROWS, COLUMNS                 the C tile one block computes
 *   title = free text                    the name the views show
 *
 * Reading a file checks every declaration (a bad one is TL_ERROR_PARSE
 * "mine.cu:4:17: …", file:line:column, 1-based); compiling it
 * (tl_user_kernel_compile) runs NVRTC through the GPU door for one
 * architecture and keeps the diagnostics (each with its line and column)
 * and ptxas's resource report per entry.  A kernel is immutable once
 * read; an edited text is a new kernel, registered as a new version
 * ("mine.cu@2"), so two versions compare side by side.
 */
#pragma once

#include <glib.h>

#include "core/tl-matrix.h"
#include "gemm/tl-kernels.h"

G_BEGIN_DECLS

#define TL_USER_KERNEL_MAX_BYTES (1 << 20) /* a kernel file is source, not data */

/* A declared value and where it is written. */
typedef struct
{
  char *text;      /* NULL when not declared */
  int line, column; /* of the value's first character, 1-based */
} TlUserValue;

typedef struct
{
  char *severity;  /* "error", "warning", "remark" */
  char *file;      /* NULL: the kernel file; else the header NVRTC named ("tilelab.cuh") */
  int line, column; /* 1-based; 0 when NVRTC gave none */
  char *message;   /* NVRTC's sentence (a wrong entry's says what the signature must be) */
  char *context;   /* the source line and the caret under the column, or NULL */
} TlUserDiagnostic;

/* ptxas's report for one entry (-Xptxas -v), as seed 003 reads it. */
typedef struct
{
  gboolean found;
  int registers;
  int barriers;
  int smem_bytes;      /* static shared memory */
  int cmem_bytes;      /* constant memory, all banks */
  int stack_bytes;     /* the stack frame: local memory per thread */
  int spill_stores, spill_loads;
} TlUserResources;

typedef struct
{
  int arch;                  /* compute capability × 10 it was compiled for */
  gboolean compiled;         /* FALSE: diagnostics hold the errors */
  GPtrArray *diagnostics;    /* TlUserDiagnostic*, errors and warnings, in the log's order */
  char *log;                 /* NVRTC's whole log (the plain build's, or the failing one's) */
  TlUserResources resources[TL_DTYPE_COUNT];
  char *lowered[TL_DTYPE_COUNT]; /* the entries' names in the cubins */
  GBytes *image;             /* plain build (the marks compiled out) */
  GBytes *timed_image;       /* TILELAB_TIMED build: the marks write block records */
  double compile_ms;         /* both builds, wall time */
  int nvrtc_major, nvrtc_minor;
  /*< private >*/
  gint ref_count;
} TlUserBuild;

typedef struct TlUserKernel TlUserKernel;

/* Reads and checks a kernel file (at most TL_USER_KERNEL_MAX_BYTES of
 * UTF-8).  id_hint: NULL gives the file's base name. */
TlUserKernel *tl_user_kernel_load  (const char *path, GError **error);
/* The same from text in memory; path names it in messages and records
 * (may be a bare name like "mine.cu"). */
TlUserKernel *tl_user_kernel_parse (const char *path, const char *source, GError **error);
TlUserKernel *tl_user_kernel_ref   (TlUserKernel *kernel);
void          tl_user_kernel_unref (TlUserKernel *kernel);

const char *tl_user_kernel_path      (const TlUserKernel *kernel);
const char *tl_user_kernel_file_name (const TlUserKernel *kernel); /* base name */
const char *tl_user_kernel_source    (const TlUserKernel *kernel);
const char *tl_user_kernel_title     (const TlUserKernel *kernel); /* title, or the file name */
/* TL_DTYPE_BIT of each entry declared */
guint       tl_user_kernel_dtypes    (const TlUserKernel *kernel);
const TlUserValue *tl_user_kernel_entry (const TlUserKernel *kernel, TlDtype dtype);
/* Declared tile (rows, columns), or 0, 0 */
void        tl_user_kernel_tile      (const TlUserKernel *kernel, int *rows, int *cols);
/* Whether the text uses the timing marks of tilelab.cuh. */
gboolean    tl_user_kernel_has_marks (const TlUserKernel *kernel);

/* The launch at one problem size. */
typedef struct
{
  guint grid[3], block[3];
  guint dynamic_smem;
  guint tile_m, tile_n; /* the declared tile, or C's size over the grid's */
} TlUserGeometry;

/* Evaluates the declarations at m×k×n: a bad value (zero blocks, a
 * division by zero, a negative size) is TL_ERROR_SHAPE naming the file,
 * line and column of the declaration. */
gboolean tl_user_kernel_geometry (const TlUserKernel *kernel, gsize m, gsize k, gsize n,
                                  TlDtype dtype, TlUserGeometry *out, GError **error);

/* Compiles both builds for arch (× 10) with NVRTC, once per architecture
 * (the result is kept; thread-safe).  Returns the build whether or not it
 * compiled; NULL with the error when NVRTC cannot be used at all
 * (TL_ERROR_UNSUPPORTED: no CUDA, library missing; TL_ERROR_INVALID: an
 * architecture NVRTC does not know). */
TlUserBuild *tl_user_kernel_compile (TlUserKernel *kernel, int arch, GError **error);
/* The build for arch if one was made already, else NULL: never compiles
 * (for the window's thread). */
TlUserBuild *tl_user_kernel_peek_build (TlUserKernel *kernel, int arch);
/* A build compiled elsewhere (a worker is sent the one its client
 * compiled): one entry's image and, when the kernel has timing marks,
 * its timed image; no diagnostics, no resources. */
TlUserBuild *tl_user_build_new_compiled (int arch, TlDtype dtype, const char *lowered,
                                         GBytes *image, GBytes *timed_image);
TlUserBuild *tl_user_build_ref      (TlUserBuild *build);
void         tl_user_build_unref    (TlUserBuild *build);
/* "mine.cu:12:5: error: identifier "j" is undefined" and its context
 * lines, one diagnostic after the other, errors only unless all. */
char        *tl_user_build_describe_errors (const TlUserBuild *build, const TlUserKernel *kernel,
                                            gboolean all);

/* ---- the registry: user kernels beside the ladder ------------------- */

/* Registers kernel as a GPU row of the registry (tl_kernel_find finds it)
 * and returns the row.  Its id is the file's base name; a second kernel
 * of the same name (another file, or an edited version) gets "NAME@2",
 * "NAME@3", …  Registering a kernel twice returns its row. */
const TlKernelInfo *tl_user_kernel_register (TlUserKernel *kernel);
/* Registers kernel under id (a record's): its row, the row already there
 * when id names a kernel of the same text, NULL when id is taken by
 * another. */
const TlKernelInfo *tl_user_kernel_register_as (TlUserKernel *kernel, const char *id);
/* The kernel of a registry row (borrowed), or NULL for the ladder's rows. */
TlUserKernel       *tl_user_kernel_of (const TlKernelInfo *info);
/* The registered user kernels, oldest first (a new array of rows). */
GPtrArray          *tl_user_kernel_list (void);
/* A kernel list's word that names a kernel file: ends in ".cu". */
gboolean            tl_user_kernel_is_path (const char *word);
/* The row of the file at path: the version registered last for it when
 * its text is unchanged, else the file read and registered (a new
 * version).  Errors: unreadable file, bad declarations. */
const TlKernelInfo *tl_user_kernel_open (const char *path, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlUserKernel, tl_user_kernel_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlUserBuild, tl_user_build_unref)

G_END_DECLS
