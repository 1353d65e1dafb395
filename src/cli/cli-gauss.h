/* cli-gauss.h — what the Gauss commands (lu, det, solve, rank, nullspace)
 * share: the input matrix from a file or a generator, the kernel options,
 * and printing. */
#pragma once

#include "tl-cli.h"
#include "lu/tl-gfp.h"
#include "lu/tl-lu.h"
#include "lu/tl-solve.h"

G_BEGIN_DECLS

typedef struct
{
  const char *command;
  /* input */
  char *gen;
  char *size;
  gint64 seed;
  char *dtype;
  /* option texts, parsed and range-checked by tl_cli_gauss_check */
  char *tol_text, *block_size_text, *mod_text;
  /* elimination */
  char *kernel;
  gint block_size;
  char *pivoting;
  char *gemm;
  gint64 mod;
  gint device;
  double tol;
  gint max_print;
  /* per-command options */
  char *record;
  char *output;
  gboolean check;
  gboolean print;
  gboolean augmented;
  gboolean rref;
  /* parsed */
  TlDtype dtype_value;
  TlPivoting pivoting_value;
} TlCliGauss;

/* Adds the shared options (input, --dtype, --mod, --tol, --max-print; with
 * kernel TRUE also --kernel, --block-size, --pivoting, --gemm). */
void      tl_cli_gauss_add_options (GOptionContext *context, TlCliGauss *o, gboolean kernel);
/* The kernel options as TlLuOptions (strings borrowed from o). */
TlLuOptions tl_cli_gauss_options (const TlCliGauss *o);
/* Validates options; returns FALSE after printing a usage error. */
gboolean  tl_cli_gauss_check (TlCliGauss *o);
/* FALSE (and said) when floating-point work cannot have OpenBLAS within
 * ulimit -v; exact arithmetic (--mod P) needs none */
gboolean  tl_cli_gauss_blas_fits (const TlCliGauss *o);
/* The matrix: FILE argument (argv[*next]) or --gen/--size/--seed. */
TlMatrix *tl_cli_gauss_input (TlCliGauss *o, int argc, char **argv, int *next, GError **error);
TlMatrix *tl_cli_gauss_load  (TlCliGauss *o, const char *path, GError **error);
void      tl_cli_gauss_clear (TlCliGauss *o);
/* Parses the command line with context, checks o and runs body on the
 * arguments left; clears o.  TL_CLI_USAGE for a bad command line, else
 * what body returns. */
typedef int (*TlCliGaussBody) (TlCliGauss *o, int argc, char **argv);
int       tl_cli_gauss_run   (GOptionContext *context, TlCliGauss *o, int argc, char **argv,
                              TlCliGaussBody body);
/* Prints a matrix (at most max_print rows and columns, then …). */
void      tl_cli_print_matrix (const char *indent, const TlMatrix *m, gint max_print);
void      tl_cli_print_gfp    (const char *indent, const TlGfpMatrix *m, gint max_print);
const char *tl_cli_describe_source (TlCliGauss *o, const char *path);

/* the commands */
int tl_cli_lu        (int argc, char **argv);
int tl_cli_det       (int argc, char **argv);
int tl_cli_solve     (int argc, char **argv);
int tl_cli_rank      (int argc, char **argv);
int tl_cli_nullspace (int argc, char **argv);
int tl_cli_lu_bench  (int argc, char **argv);

G_END_DECLS
