/* tl-remote-diagnose.c — why a worker could not be reached or went away, in words. */
#include "remote/tl-remote-diagnose.h"

#include "remote/tl-wire.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static gboolean
says (const char *text, const char *const *needles)
{
  for (guint i = 0; needles[i]; i++)
    if (strstr (text, needles[i]))
      return TRUE;
  return FALSE;
}

/* The last non-empty line, for quoting (an empty string when none). */
static char *
last_line (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (int i = (int) g_strv_length (lines) - 1; i >= 0; i--)
    {
      char *l = g_strstrip (lines[i]);
      /* ssh starts its messages with its name; the message names ssh already */
      if (g_str_has_prefix (l, "ssh: "))
        l += 5;
      /* quoted inside a sentence: its own full stop goes */
      gsize n = strlen (l);
      if (n > 1 && l[n - 1] == '.')
        l[n - 1] = '\0';
      if (*l)
        return g_strdup (l);
    }
  return g_strdup ("");
}

/* The first line that contains needle, stripped. */
static char *
line_with (const char *text, const char *needle)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], needle))
      return g_strdup (g_strstrip (lines[i]));
  return NULL;
}

static GError *
diagnose_ssh (const TlRemoteTarget *t, const char *err, const char *host)
{
  static const char *const unreachable[] = {
    "Could not resolve hostname", "Name or service not known", "Connection refused",
    "Connection timed out", "No route to host", "Network is unreachable", "connect to host",
    "Connection closed by", "kex_exchange_identification", NULL
  };
  static const char *const host_key[] = {
    "Host key verification failed", "host key is known", "HOST IDENTIFICATION HAS CHANGED",
    "host key for", NULL
  };
  static const char *const auth[] = { "Permission denied", "Too many authentication failures",
                                      "no more authentication methods", NULL };
  g_autofree char *said = last_line (err);
  if (says (err, host_key))
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_HOST_KEY,
                        _("ssh does not trust %s's host key (ssh: %s). Connect once in a terminal "
                          "(ssh %s) to check the key and accept it, then try again."),
                        host, said, host);
  if (says (err, auth))
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_AUTH,
                        _("%s refused the login (ssh: %s). Tilelab logs in without asking for a "
                          "password: load your key into the agent (ssh-add), or set up key login "
                          "for this host in ~/.ssh/config."),
                        host, said);
  if (says (err, unreachable) || *said)
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_UNREACHABLE,
                        _("Could not reach %s (ssh: %s). Check the host name and the network, "
                          "or the host's entry in ~/.ssh/config."),
                        host, *said ? said : _("no answer"));
  return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_UNREACHABLE,
                      _("ssh could not connect to %s and did not say why. Try “ssh %s” in a "
                        "terminal."), host, host);
}

static GError *
diagnose_connecting (const TlRemoteTarget *t, int status, const char *err)
{
  const char *host = tl_remote_target_host (t);
  const char *cli = t->remote_cli ? t->remote_cli : "tilelab-cli";
  g_autofree char *said = last_line (err);
  static const char *const missing[] = { "not found", "No such file", NULL };

  if (t->destination && status == 255)
    return diagnose_ssh (t, err, host);
  if (strstr (err, "unknown command") && strstr (err, "serve"))
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_NO_WORKER,
                        _("The tilelab-cli on %s (“%s”) has no worker mode (serve): it is older "
                          "than this Tilelab. Install the same Tilelab version there."),
                        host, cli);
  if (t->launcher)
    {
      g_autofree char *slurm = line_with (err, "error:");
      if (slurm)
        return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER,
                            _("The launcher on %s refused the job (%s). Check the launcher line "
                              "“%s” and the queue."),
                            host, slurm, t->launcher);
    }
  if (status == 127 || status == 126 || (says (err, missing) && strstr (err, cli)))
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_NO_WORKER,
                        _("%s has no tilelab-cli at “%s” (%s). Install Tilelab there, or give the "
                          "path of its tilelab-cli (--remote-cli PATH; in the app, the host's "
                          "“tilelab-cli on the host”)."),
                        host, cli, *said ? said : _("the shell could not run it"));
  if (t->launcher && status > 0)
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER,
                        _("The launcher “%s” on %s ended (status %d) before the worker started%s%s."),
                        t->launcher, host, status, *said ? ": " : "", said);
  return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_NO_WORKER,
                      _("The worker on %s (“%s serve”) ended before it said hello (status %d)%s%s."),
                      host, cli, status, *said ? ": " : "", said);
}

GError *
tl_remote_diagnose (const TlRemoteTarget *t, TlRemoteStage stage, int status,
                    const char *stderr_tail)
{
  const char *err = stderr_tail ? stderr_tail : "";
  const char *host = tl_remote_target_host (t);
  if (stage == TL_REMOTE_STAGE_CONNECTING)
    return diagnose_connecting (t, status, err);

  g_autofree char *said = last_line (err);
  g_autofree char *time_limit = line_with (err, "TIME LIMIT");
  if (time_limit)
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER,
                        _("Slurm ended the job on %s at its time limit (%s). Give the launcher a "
                          "longer --time, or run less at once."),
                        host, time_limit);
  if (t->launcher && (strstr (err, "CANCELLED") || strstr (err, "srun: error")))
    return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER,
                        _("Slurm ended the job on %s (%s)."), host, said);
  if (t->destination && (status == 255 || status < 0 || status > 128))
    {
      g_autofree char *why = *said ? g_strdup (said)
                             : status > 128 ? g_strdup_printf (_("ended by signal %d"), status - 128)
                                            : g_strdup (_("the connection closed"));
      return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST,
                          _("The connection to %s was lost (ssh: %s). Check the network; the next "
                            "run connects again."),
                          host, why);
    }
  return g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST,
                      _("The worker on %s ended (status %d)%s%s. The next run starts a new one."),
                      host, status, *said ? ": " : "", said);
}

gboolean
tl_remote_parse_launcher_line (const char *line, char **job_id, gboolean *queued)
{
  const char *p = strstr (line, "job ");
  if (p == NULL || (!g_str_has_prefix (line, "srun:") && !g_str_has_prefix (line, "salloc:")))
    return FALSE;
  p += 4;
  gsize n = strspn (p, "0123456789");
  if (n == 0)
    return FALSE;
  const char *rest = p + n;
  if (strstr (rest, "queued and waiting"))
    *queued = TRUE;
  else if (strstr (rest, "has been allocated"))
    *queued = FALSE;
  else
    return FALSE;
  *job_id = g_strndup (p, n);
  return TRUE;
}
