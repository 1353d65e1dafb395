/* tl-remote-target.c — where a worker runs, and the command line that starts it. */
#include "remote/tl-remote-target.h"

#include "core/tl-error.h"
#include "tl-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

TlRemoteTarget *
tl_remote_target_new (const char *destination, const char *launcher, const char *remote_cli)
{
  TlRemoteTarget *t = g_new0 (TlRemoteTarget, 1);
  t->destination = destination && *destination ? g_strdup (destination) : NULL;
  t->launcher = launcher && *launcher ? g_strdup (launcher) : NULL;
  t->remote_cli = remote_cli && *remote_cli ? g_strdup (remote_cli) : NULL;
  return t;
}

TlRemoteTarget *
tl_remote_target_copy (const TlRemoteTarget *target)
{
  TlRemoteTarget *t = tl_remote_target_new (target->destination, target->launcher,
                                            target->remote_cli);
  t->interactive = target->interactive;
  return t;
}

void
tl_remote_target_free (TlRemoteTarget *target)
{
  if (target == NULL)
    return;
  g_free (target->destination);
  g_free (target->launcher);
  g_free (target->remote_cli);
  g_free (target);
}

gboolean
tl_remote_target_equal (const TlRemoteTarget *a, const TlRemoteTarget *b)
{
  return g_strcmp0 (a->destination, b->destination) == 0
         && g_strcmp0 (a->launcher, b->launcher) == 0
         && g_strcmp0 (a->remote_cli, b->remote_cli) == 0 && a->interactive == b->interactive;
}

static gboolean
has_control_char (const char *s)
{
  for (; s && *s; s++)
    if ((guchar) *s < 0x20 || *s == 0x7f)
      return TRUE;
  return FALSE;
}

gboolean
tl_remote_target_check (const TlRemoteTarget *t, GError **error)
{
  if (t->destination && (has_control_char (t->destination) || g_str_has_prefix (t->destination, "-")))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("“%s” is not an ssh destination: use user@host or a Host of ~/.ssh/config"),
                   t->destination);
      return FALSE;
    }
  if (has_control_char (t->remote_cli))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID,
                           _("The tilelab-cli path contains a control character"));
      return FALSE;
    }
  if (t->launcher)
    {
      g_auto (GStrv) words = NULL;
      g_autoptr (GError) local = NULL;
      if (has_control_char (t->launcher) || !g_shell_parse_argv (t->launcher, NULL, &words, &local))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("The launcher line “%s” does not split into words: %s"), t->launcher,
                       local ? local->message : _("it contains a control character"));
          return FALSE;
        }
    }
  return TRUE;
}

const char *
tl_remote_target_host (const TlRemoteTarget *t)
{
  return t->destination ? t->destination : _("this computer");
}

char *
tl_remote_shell_quote (const char *word)
{
  /* a quoted tilde is a file named "~": keep "~/" outside the quotes */
  if (g_str_has_prefix (word, "~/"))
    {
      g_autofree char *rest = g_shell_quote (word + 2);
      return g_strconcat ("~/", rest, NULL);
    }
  return g_shell_quote (word);
}

/* The ssh program and the options every call uses: never a terminal of its
 * own (-T), a bounded wait for the connection, a dead link noticed within
 * ~15 s, and without a terminal to ask on, no question at all. */
static gboolean
append_ssh (GPtrArray *argv, const TlRemoteTarget *t, GError **error)
{
  const char *custom = g_getenv ("TILELAB_SSH_COMMAND");
  if (custom && *custom)
    {
      g_auto (GStrv) words = NULL;
      if (!g_shell_parse_argv (custom, NULL, &words, error))
        {
          g_prefix_error (error, "TILELAB_SSH_COMMAND: ");
          return FALSE;
        }
      for (guint i = 0; words[i]; i++)
        g_ptr_array_add (argv, g_strdup (words[i]));
    }
  else
    g_ptr_array_add (argv, g_strdup ("ssh"));
  const char *options[] = { "-T", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5",
                            "-o", "ServerAliveCountMax=2" };
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    g_ptr_array_add (argv, g_strdup (options[i]));
  if (!t->interactive)
    {
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup ("BatchMode=yes"));
    }
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup (t->destination));
  return TRUE;
}

/* words as one remote command line: `exec` (no shell left waiting) and
 * each word quoted */
static char *
remote_command_line (const char *const *words)
{
  GString *s = g_string_new ("exec");
  for (guint i = 0; words[i]; i++)
    {
      g_autofree char *q = tl_remote_shell_quote (words[i]);
      g_string_append_c (s, ' ');
      g_string_append (s, q);
    }
  return g_string_free (s, FALSE);
}

static GStrv
wrap (const TlRemoteTarget *t, GPtrArray *words, GError **error)
{
  g_ptr_array_add (words, NULL);
  if (t->destination == NULL)
    return (GStrv) g_ptr_array_free (words, FALSE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  if (!append_ssh (argv, t, error))
    {
      g_ptr_array_unref (words);
      return NULL;
    }
  g_ptr_array_add (argv, remote_command_line ((const char *const *) words->pdata));
  g_ptr_array_unref (words);
  g_ptr_array_add (argv, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

/* A launcher on the host outlives a dropped connection: a killed ssh
 * leaves srun running (or waiting in the queue), since nothing tells it
 * that its output is gone.  This watchdog, a POSIX sh script, runs the
 * launcher and writes an empty line to standard error every second (the
 * client ignores empty lines); once that write fails, the connection is
 * gone and the launcher gets SIGTERM (srun then cancels its job), SIGKILL
 * two seconds later.  The launcher keeps standard input (through fd 3: sh
 * gives a background command /dev/null otherwise) and output: they carry
 * the protocol. */
static const char watchdog_script[] =
  "trap '' PIPE; exec 3<&0; \"$@\" <&3 3<&- & p=$!; exec 3<&-; "
  "while kill -0 $p 2>/dev/null; do sleep 1; "
  "printf '\\n' >&2 || { kill -TERM $p; sleep 2; kill -KILL $p 2>/dev/null; break; }; done; "
  "wait $p";

GStrv
tl_remote_target_worker_argv (const TlRemoteTarget *t, GError **error)
{
  if (!tl_remote_target_check (t, error))
    return NULL;
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  if (t->launcher && t->destination)
    {
      g_ptr_array_add (words, g_strdup ("sh"));
      g_ptr_array_add (words, g_strdup ("-c"));
      g_ptr_array_add (words, g_strdup (watchdog_script));
      g_ptr_array_add (words, g_strdup ("tilelab-watchdog"));
    }
  if (t->launcher)
    {
      g_auto (GStrv) launcher = NULL;
      g_shell_parse_argv (t->launcher, NULL, &launcher, NULL); /* checked above */
      for (guint i = 0; launcher[i]; i++)
        g_ptr_array_add (words, g_strdup (launcher[i]));
    }
  if (t->remote_cli)
    g_ptr_array_add (words, g_strdup (t->remote_cli));
  else if (t->destination)
    g_ptr_array_add (words, g_strdup ("tilelab-cli"));
  else
    g_ptr_array_add (words, tl_remote_local_cli_path ());
  g_ptr_array_add (words, g_strdup ("serve"));
  g_ptr_array_add (words, g_strdup ("--stdio"));
  return wrap (t, words, error);
}

GStrv
tl_remote_target_command_argv (const TlRemoteTarget *t, const char *const *argv, GError **error)
{
  if (!tl_remote_target_check (t, error))
    return NULL;
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (words, g_strdup (argv[i]));
  return wrap (t, words, error);
}

GStrv
tl_remote_target_scancel_argv (const TlRemoteTarget *t, const char *job_id)
{
  g_auto (GStrv) launcher = NULL;
  if (t->launcher == NULL || job_id == NULL
      || !g_shell_parse_argv (t->launcher, NULL, &launcher, NULL))
    return NULL;
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; launcher[i]; i++)
    {
      g_autofree char *base = g_path_get_basename (launcher[i]);
      if (strcmp (base, "srun") == 0)
        {
          g_autofree char *dir = g_path_get_dirname (launcher[i]);
          /* /opt/slurm/bin/srun: its scancel is beside it */
          g_ptr_array_add (words, strcmp (dir, ".") == 0 ? g_strdup ("scancel")
                                                         : g_build_filename (dir, "scancel", NULL));
          g_ptr_array_add (words, g_strdup (job_id));
          g_ptr_array_add (words, NULL);
          return tl_remote_target_command_argv (t, (const char *const *) words->pdata, NULL);
        }
      g_ptr_array_add (words, g_strdup (launcher[i]));
    }
  return NULL;
}

char *
tl_remote_local_cli_path (void)
{
  const char *env = g_getenv ("TILELAB_CLI");
  if (env && *env)
    return g_strdup (env);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  if (self)
    {
      g_autofree char *base = g_path_get_basename (self);
      if (strcmp (base, "tilelab-cli") == 0)
        return g_steal_pointer (&self);
      g_autofree char *dir = g_path_get_dirname (self);
      const char *beside[] = { "tilelab-cli", "../src/cli/tilelab-cli" };
      for (guint i = 0; i < G_N_ELEMENTS (beside); i++)
        {
          g_autofree char *candidate = g_build_filename (dir, beside[i], NULL);
          if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
            return g_canonicalize_filename (candidate, NULL);
        }
    }
  return g_build_filename (TL_BINDIR, "tilelab-cli", NULL);
}
