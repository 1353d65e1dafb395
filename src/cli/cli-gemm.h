/* cli-gemm.h — pieces shared by `tilelab-cli gemm` and `bench`. */
#pragma once

#include <stdio.h>

#include "record/tl-record.h"
#include "run/tl-gauss-run.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

/* Checks every id in a kernel list (ids, "all", "gpu", "cpu"); on a bad
 * one returns FALSE and sets *bad to it (free it). */
gboolean tl_cli_check_kernel_list (const char *list, char **bad);

/* The result table: kernel, median, min–max, GFLOP/s, % of reference,
 * speed-up vs cpu-naive, error, PASS/FAIL. */
void     tl_cli_print_gemm_table (const TlRunRecord *record, FILE *out);
/* TRUE when every kernel that ran passed (skipped ones don't count). */
gboolean tl_cli_record_all_passed (const TlRunRecord *record);

/* Shows progress on stderr when it is a terminal; returns the handler id. */
gulong   tl_cli_show_progress (TlRunner *runner);
/* Ends a progress line. */
void     tl_cli_end_progress (void);

/* Runs a job on the runner and waits; a cancelled job returns its partial
 * record (record->cancelled) or, when no kernel had finished, fails with
 * G_IO_ERROR_CANCELLED. */
TlRunRecord *tl_cli_run_job (TlRunner *runner, const TlJob *job, GCancellable *cancellable,
                             GError **error);
/* Runs a Gauss job on the runner and waits the same way (on the default
 * main context, where the interrupt sources are: a wait on a context of
 * its own would not see Ctrl+C until the job ended). */
TlGaussResult *tl_cli_run_gauss (TlRunner *runner, const TlGaussJob *job,
                                 GCancellable *cancellable, GError **error);
/* Runs any job function on the runner and waits the same way (the job's
 * result, NULL with G_IO_ERROR_CANCELLED when Ctrl+C stopped it). */
gpointer     tl_cli_run_func (TlRunner *runner, TlRunnerJobFunc func, gpointer job_data,
                              GDestroyNotify job_data_free, GDestroyNotify result_free,
                              GCancellable *cancellable, GError **error);
/* Between steps done on the CLI's own thread (making the input, a CPU
 * phase, the first device probe): dispatches a Ctrl+C that came meanwhile
 * and says whether the command should stop.  Call it after any step that
 * may take seconds, so Ctrl+C exits 130 as soon as that step returns. */
gboolean     tl_cli_interrupted (GCancellable *cancellable);
/* "stopped before anything finished; nothing was written"; returns
 * TL_CLI_INTERRUPTED. */
int          tl_cli_fail_interrupted (const char *command);
/* Says on stderr that a cancelled record's job was stopped and how many
 * kernels it keeps; returns TL_CLI_INTERRUPTED. */
int          tl_cli_report_cancelled (const char *command, const TlRunRecord *record);

/* argv joined, for the record */
char    *tl_cli_command_line (int argc, char **argv);

G_END_DECLS
