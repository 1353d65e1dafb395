/* tilelab-cli serve — the worker: jobs as JSON lines on standard input.
 *
 * What the app and `tilelab-cli --host` start on a GPU server (through ssh
 * or a launcher) or on this computer (a local worker process).  It opens
 * no port: its standard input and output are the whole connection
 * (docs/remote.md).
 */
#include "tl-cli.h"

#include "remote/tl-serve.h"
#include "remote/tl-wire.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

int
tl_cli_serve (int argc, char **argv)
{
  gboolean use_stdio = FALSE;
  GOptionEntry entries[] = {
    { "stdio", 0, 0, G_OPTION_ARG_NONE, &use_stdio,
      N_("Read jobs from standard input, write results to standard output"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— run jobs for a client"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("The worker that the app and “tilelab-cli --host” start on a GPU server\n"
    "through ssh (or a launcher such as srun): JSON lines in, JSON lines out,\n"
    "no port opened.  The protocol is in docs/remote.md."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (!use_stdio || argc > 1)
    return tl_cli_usage_error ("serve", "%s", _("serve needs --stdio (and no other argument)"));

  /* ssh starts commands without LANG: in the C locale GLib would turn
   * every "…" and "×" of the messages into "?" on their way to the client,
   * who reads UTF-8.  The commands the worker starts inherit this. */
  if (!g_get_charset (NULL))
    {
      g_setenv ("LC_CTYPE", "C.UTF-8", TRUE);
      g_unsetenv ("LC_ALL");
      setlocale (LC_CTYPE, "C.UTF-8");
    }

  /* The protocol keeps the real standard output; file descriptor 1 then
   * points at standard error, so that nothing a library prints can slip
   * into the message stream. */
  fflush (stdout);
  int protocol_fd = dup (STDOUT_FILENO);
  if (protocol_fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      perror ("tilelab-cli serve");
      return TL_CLI_FAILURE;
    }
  tl_wire_widen_pipe (STDIN_FILENO);
  tl_wire_widen_pipe (protocol_fd);
  g_autoptr (GInputStream) in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autoptr (GOutputStream) out = g_unix_output_stream_new (protocol_fd, TRUE);
  return tl_serve_run (in, out);
}
