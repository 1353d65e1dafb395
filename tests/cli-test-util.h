/* cli-test-util.h — shared by the tests that run tilelab-cli as a user
 * does: finding the program and running it with its output captured.
 *
 * The program is $TL_CLI, or src/cli/tilelab-cli beside this test's build
 * folder (G_TEST_BUILDDIR). */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

static char *cli_path;

/* Sets cli_path (the program may not be there). */
static inline void
cli_test_locate (void)
{
  const char *env = g_getenv ("TL_CLI");
  if (env)
    cli_path = g_strdup (env);
  else
    cli_path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                 "..", "src", "cli", "tilelab-cli", NULL);
}

/* TRUE once process pid has a handler for SIGINT (Linux: SigCgt in
 * /proc/PID/status, a hex mask with bit SIGINT − 1): tilelab-cli watches
 * SIGINT last of its stop signals, so then it stops cleanly on any.
 * Before, a signal ends it by the default action. */
static inline gboolean
cli_test_wait_catches_sigint (const char *pid, double seconds)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/status", pid);
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_autofree char *status = NULL;
      if (!g_file_get_contents (path, &status, NULL, NULL))
        return FALSE;
      const char *line = strstr (status, "SigCgt:");
      if (line != NULL && (g_ascii_strtoull (line + 7, NULL, 16) & (1ull << (SIGINT - 1))))
        return TRUE;
      g_usleep (10 * 1000);
    }
  return FALSE;
}

/* Sets cli_path; FALSE (with a message) when there is no program there. */
static inline gboolean
cli_test_find (void)
{
  cli_test_locate ();
  if (!g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("tilelab-cli not found at %s (set TL_CLI)\n", cli_path);
      return FALSE;
    }
  return TRUE;
}

/* Runs tilelab-cli with args (NULL-terminated) in the environment envp
 * (NULL: ours); returns its exit code. Output is always captured, so the
 * child's stdout never lands in our TAP stream; out and err may be NULL. */
static inline int
cli_test_spawn (const char *const *args, char **envp, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, cli_path);
  for (int k = 0; args[k]; k++)
    g_ptr_array_add (argv, (char *) args[k]);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *out_text = NULL, *err_text = NULL;
  int wait_status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out_text, &err_text, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  if (out)
    *out = g_steal_pointer (&out_text);
  if (err)
    *err = g_steal_pointer (&err_text);
  return WEXITSTATUS (wait_status);
}

/* Appends first and the arguments after it up to NULL, and the NULL. */
static inline void
cli_test_args_add_va (GPtrArray *args, const char *first, va_list ap)
{
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  g_ptr_array_add (args, NULL);
}

/* "timeout -k10 60 tilelab-cli first …" up to NULL, and the NULL: a run
 * that must end (124: it hung). */
static inline GPtrArray *
cli_test_timeout_argv_va (const char *first, va_list ap)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) "-k10");
  g_ptr_array_add (argv, (char *) "60");
  g_ptr_array_add (argv, cli_path);
  cli_test_args_add_va (argv, first, ap);
  return argv;
}

/* One run: exit code and both outputs. */
typedef struct
{
  int status;
  char *out, *err;
} Result;

static inline void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

/* cli_test_run (&r, "gemm", "--size", "8", NULL) */
static inline void
cli_test_run (Result *r, const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;
  va_start (ap, first);
  cli_test_args_add_va (args, first, ap);
  va_end (ap);
  memset (r, 0, sizeof *r);
  r->status = cli_test_spawn ((const char *const *) args->pdata, NULL, &r->out, &r->err);
}
