#include "tl-cli.h"

#include "core/tl-error.h"
#include "core/tl-stop-signals.h"
#include "gemm/tl-blas.h"

#include <gio/gio.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

gboolean
tl_cli_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  /* the context's own strings (what it does, the summary, the examples)
   * in the user's language; the options' descriptions are translated
   * through their group's domain (add_main_entries with GETTEXT_PACKAGE) */
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;
  /* prgname is "tilelab-cli COMMAND" (set by main) */
  g_printerr (_("%s: %s\nTry “%s --help”.\n"), g_get_prgname (), error->message, g_get_prgname ());
  return FALSE;
}

int
tl_cli_fail (const char *command, const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_printerr (_("tilelab-cli %s: stopped before anything finished; nothing was written\n"),
                  command);
      return TL_CLI_INTERRUPTED;
    }
  g_printerr ("tilelab-cli %s: %s\n", command, error ? error->message : "failed");
  return TL_CLI_FAILURE;
}

int
tl_cli_usage_error (const char *command, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr (_("tilelab-cli %s: %s\nTry “tilelab-cli %s --help”.\n"), command, message, command);
  return TL_CLI_USAGE;
}

gboolean
tl_cli_option_int (const char *command, const char *option, const char *text, gint64 lo,
                   gint64 hi, gint64 *out)
{
  if (text == NULL)
    return TRUE;
  gint64 v;
  const char *digits = text[0] == '+' ? text + 1 : text;
  if (!g_ascii_string_to_signed (digits, 10, G_MININT64, G_MAXINT64, &v, NULL) || v < lo || v > hi)
    {
      tl_cli_usage_error (command, _("%s must be a whole number from %" PRId64 " to %"
                                     PRId64 ", not “%s”"), option, lo, hi, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
tl_cli_option_double (const char *command, const char *option, const char *text, double lo,
                      double hi, double *out)
{
  if (text == NULL)
    return TRUE;
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v) || v < lo || v > hi)
    {
      char lo_text[G_ASCII_DTOSTR_BUF_SIZE], hi_text[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (lo_text, sizeof lo_text, "%g", lo);
      g_ascii_formatd (hi_text, sizeof hi_text, "%g", hi);
      if (hi >= G_MAXDOUBLE)
        tl_cli_usage_error (command, _("%s must be a finite number, at least %s, not “%s”"),
                            option, lo_text, text);
      else
        tl_cli_usage_error (command, _("%s must be a number from %s to %s, not “%s”"), option,
                            lo_text, hi_text, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static gboolean
parse_dims (const char *text, gsize *out, int want)
{
  g_autofree char *norm = NULL;
  if (text == NULL || *text == '\0')
    return FALSE;
  /* accept x, X, × and * as separators */
  GString *s = g_string_new (text);
  g_string_replace (s, "×", "x", 0);
  g_string_replace (s, "X", "x", 0);
  g_string_replace (s, "*", "x", 0);
  norm = g_string_free (s, FALSE);

  g_auto (GStrv) parts = g_strsplit (norm, "x", -1);
  int n = (int) g_strv_length (parts);
  if (n != 1 && n != want)
    return FALSE;
  for (int i = 0; i < n; i++)
    {
      guint64 v;
      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, G_MAXINT32, &v, NULL))
        return FALSE;
      out[i] = (gsize) v;
    }
  for (int i = n; i < want; i++)
    out[i] = out[0];
  return TRUE;
}

gboolean
tl_cli_parse_size3 (const char *text, gsize *m, gsize *k, gsize *n)
{
  gsize d[3];
  if (!parse_dims (text, d, 3))
    return FALSE;
  *m = d[0];
  *k = d[1];
  *n = d[2];
  return TRUE;
}

gboolean
tl_cli_parse_size2 (const char *text, gsize *rows, gsize *cols)
{
  gsize d[2];
  if (!parse_dims (text, d, 2))
    return FALSE;
  *rows = d[0];
  *cols = d[1];
  return TRUE;
}

/* ---- work off the main thread ------------------------------------------ */

typedef struct
{
  TlCliWorkFunc func;
  gpointer data;
  GCancellable *cancellable;
  GError *error;
  gboolean ok;
  gint done;
} Work;

static gpointer
work_thread (gpointer user_data)
{
  Work *w = user_data;
  w->ok = w->func (w->data, w->cancellable, &w->error);
  g_atomic_int_set (&w->done, 1);
  g_main_context_wakeup (NULL);
  return NULL;
}

gboolean
tl_cli_run_work (TlCliWorkFunc func, gpointer data, GCancellable *cancellable, GError **error)
{
  Work w = { func, data, cancellable, NULL, FALSE, 0 };
  GThread *thread = g_thread_new ("tilelab-cli-io", work_thread, &w);
  /* the default context runs meanwhile: tl_cli_catch_interrupts' sources
   * cancel the work on Ctrl+C or SIGTERM */
  while (!g_atomic_int_get (&w.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  if (!w.ok)
    g_propagate_error (error, w.error);
  return w.ok;
}

void
tl_cli_put_col (FILE *out, const char *text, int width, gboolean left)
{
  int pad = width - (int) g_utf8_strlen (text, -1);
  if (!left)
    for (int i = 0; i < pad; i++)
      fputc (' ', out);
  fputs (text, out);
  if (left)
    for (int i = 0; i < pad; i++)
      fputc (' ', out);
}

gboolean
tl_cli_blas_fits (const char *command)
{
  g_autoptr (GError) error = NULL;
  if (tl_blas_check (&error))
    return TRUE;
  g_printerr ("tilelab-cli %s: %s\n", command, error->message);
  return FALSE;
}

/* ---- stop signals ------------------------------------------------------------ */

/* What the first stop signal cancels: every command's cancellable. */
static GMutex stop_lock;
static GPtrArray *stop_cancellables;

/* On tl-stop-signals' thread: the work stops at its next check (a second
 * signal does not wait for it). */
static void
stop (int signum, gpointer data)
{
  if (isatty (STDERR_FILENO))
    g_printerr ("\r\033[K"); /* over a progress line */
  g_printerr ("%s\n", _("tilelab-cli: stopping… (Ctrl+C again to stop at once)"));
  g_mutex_lock (&stop_lock);
  for (guint i = 0; stop_cancellables && i < stop_cancellables->len; i++)
    g_cancellable_cancel (g_ptr_array_index (stop_cancellables, i));
  g_mutex_unlock (&stop_lock);
}

void
tl_cli_catch_interrupts (GCancellable *cancellable)
{
  g_mutex_lock (&stop_lock);
  if (stop_cancellables == NULL)
    stop_cancellables = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (stop_cancellables, g_object_ref (cancellable));
  g_mutex_unlock (&stop_lock);
  tl_stop_signals_watch (stop, NULL);
  /* a signal caught before this command's work began */
  if (tl_stop_signals_caught () != 0)
    g_cancellable_cancel (cancellable);
}

int
tl_cli_stopped_status (void)
{
  int signum = tl_stop_signals_caught ();
  return 128 + (signum != 0 ? signum : SIGINT);
}
