/* tl-cli.h — shared pieces of tilelab-cli's commands.
 *
 * Every command is `int tl_cli_<name> (int argc, char **argv)` in its own
 * file cli-<name>.c, registered in the table in tilelab-cli.c.  Exit codes:
 * 0 success, 1 runtime failure, 2 usage error, 128 + the signal when
 * stopped by one: 130 for Ctrl+C (SIGINT), 143 for SIGTERM, 129 for SIGHUP, as a shell
 * reports a process that signal killed (ours stops cleanly instead: a
 * command returns TL_CLI_INTERRUPTED, and main makes it the signal's
 * status).  Messages go to stderr and
 * name the problem and, for files, the position.
 */
#pragma once

#include "core/tl-matrix.h"

#include <gio/gio.h>
#include <stdio.h>

G_BEGIN_DECLS

enum
{
  TL_CLI_OK = 0,
  TL_CLI_FAILURE = 1,
  TL_CLI_USAGE = 2,
  TL_CLI_INTERRUPTED = 130,
};

/* Parses the command's options; on error prints it with a hint and
 * returns FALSE (the command then returns TL_CLI_USAGE). */
gboolean tl_cli_parse (GOptionContext *context, int *argc, char ***argv);
/* Prints "tilelab-cli COMMAND: message" to stderr; returns TL_CLI_FAILURE,
 * or TL_CLI_INTERRUPTED when error is G_IO_ERROR_CANCELLED (Ctrl+C). */
int      tl_cli_fail (const char *command, const GError *error);
/* Prints a usage error to stderr; returns TL_CLI_USAGE. */
int      tl_cli_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* FALSE, and says why, when OpenBLAS's work buffer does not fit in the
 * address space this process may still use (ulimit -v) */
gboolean tl_cli_blas_fits (const char *command);

/* An option's value as a number in lo…hi, parsed from the option's text
 * (NULL when the option was not given: *out keeps its default), so a
 * value given out of range ("--block-size 0", "--tol nan", "--mod 0") is
 * a usage error naming the option, never silently the default.  Returns
 * FALSE after printing the usage error. */
gboolean tl_cli_option_int    (const char *command, const char *option, const char *text,
                               gint64 lo, gint64 hi, gint64 *out);
gboolean tl_cli_option_double (const char *command, const char *option, const char *text,
                               double lo, double hi, double *out);
/* "M×K×N", "MxKxN" or "N" (cube): returns FALSE on malformed text. */
gboolean tl_cli_parse_size3 (const char *text, gsize *m, gsize *k, gsize *n);
/* "R×C", "RxC" or "N" (square). */
gboolean tl_cli_parse_size2 (const char *text, gsize *rows, gsize *cols);
/* text padded to width columns (left- or right-aligned); printf pads by
 * bytes, but "–", "×" and "‖" are one column and several bytes */
void     tl_cli_put_col (FILE *out, const char *text, int width, gboolean left);

/* From now on Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed)
 * cancel `cancellable` (while a job runs, or the next one) instead of
 * killing the program. */
void         tl_cli_catch_interrupts (GCancellable *cancellable);
/* The exit status of a command that a signal stopped, as a shell reports
 * a process that signal killed: 128 + SIGTERM = 143, 128 + SIGINT = 130
 * (also when no signal was caught). */
int          tl_cli_stopped_status (void);
/* Runs func on a worker thread while the default main context runs, so
 * that Ctrl+C, SIGTERM and SIGHUP (tl_cli_catch_interrupts) cancel
 * it: loads poll the cancellable at every window of a file, saves at every
 * buffer, and a cancelled save removes its temporary file. */
typedef gboolean (*TlCliWorkFunc) (gpointer data, GCancellable *cancellable, GError **error);
gboolean tl_cli_run_work (TlCliWorkFunc func, gpointer data, GCancellable *cancellable,
                          GError **error);

/* devices and kernels */
int tl_cli_devices (int argc, char **argv);
int tl_cli_kernels (int argc, char **argv);
int tl_cli_kernel (int argc, char **argv);

/* matrices */
int tl_cli_generate (int argc, char **argv);
int tl_cli_convert (int argc, char **argv);
int tl_cli_info (int argc, char **argv);
/* What `info` makes of a file before reading it (cli-info-record.c): a
 * matrix format by its name or content, a record (a JSON object, or
 * named .json), or nothing it can tell (then read as text or CSV). */
typedef enum
{
  TL_CLI_INFO_MATRIX,
  TL_CLI_INFO_RECORD,
  TL_CLI_INFO_UNKNOWN,
} TlCliInfoKind;
TlCliInfoKind tl_cli_info_sniff (const char *path);
/* Prints what a run or Gauss record holds (after_another: a blank line
 * first); TL_CLI_FAILURE (said) when it cannot be read or is refused. */
int tl_cli_info_record (const char *path, gboolean after_another);

/* GEMM */
int tl_cli_gemm (int argc, char **argv);
int tl_cli_bench (int argc, char **argv);

/* Gauss */

/* pictures */
int tl_cli_render (int argc, char **argv);

/* another machine: the worker, and any job command on a host (cli-remote.c) */
int tl_cli_serve (int argc, char **argv);

/* The global options that send a command to a worker elsewhere. */
typedef struct
{
  char *host;         /* --host DEST: an ssh destination */
  char *launcher;     /* --launcher LINE: wrapped around the worker (srun …) */
  char *remote_cli;   /* --remote-cli PATH: the host's tilelab-cli */
  char *command_line; /* the whole command line, for records */
} TlCliRemoteOptions;

/* Takes --host, --launcher and --remote-cli (with a value, or =value) out
 * of argv wherever they stand before "--". */
gboolean tl_cli_take_remote_options (int *argc, char **argv, TlCliRemoteOptions *out,
                                     GError **error);
void     tl_cli_remote_options_clear (TlCliRemoteOptions *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TlCliRemoteOptions, tl_cli_remote_options_clear)
/* Whether a command can run elsewhere (devices, kernels, gemm, bench, lu,
 * det, solve, rank, nullspace, lu-bench). */
gboolean tl_cli_remote_supports (const char *command);
/* Runs command (argv[0]) with its arguments on the worker of host (or a
 * local worker under a launcher); returns the command's exit status. */
int      tl_cli_remote_run (const char *command, int argc, char **argv, const char *host,
                            const char *launcher, const char *remote_cli,
                            const char *command_line);

G_END_DECLS
