/* tl-remote-target.h — where a worker runs, and the command line that starts it.
 *
 * A target is one of three transports, all spawning one process whose
 * standard input and output carry the worker protocol (tl-wire.h):
 *
 *   local pipe   destination NULL: this computer's tilelab-cli, `serve
 *                --stdio`, as a child process (a worker apart from the
 *                app: isolation, or a device the app should not touch)
 *   ssh          the system's OpenSSH client with the user's ~/.ssh/config
 *                (aliases, ProxyJump, agent, keys) runs `tilelab-cli serve
 *                --stdio` on the destination; nothing listens on a port
 *   launcher     a line such as `srun --gres=gpu:1 --time=10` wrapped
 *                around the worker, on the destination (or here)
 *
 * Nothing from a target becomes shell syntax: the launcher line is split
 * into words here (shell quoting rules, g_shell_parse_argv) and every word
 * is quoted again for the remote shell, so a host or a path with spaces,
 * quotes or `;` stays one word.  ssh receives `--` before the destination,
 * so a destination that starts with '-' is never an option.
 *
 * TILELAB_SSH_COMMAND (like git's GIT_SSH_COMMAND) replaces `ssh`: a
 * command line, e.g. "ssh -F ~/lab/ssh_config"; the tests point ssh at
 * their own configuration with it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A worker that has not said hello within this many seconds (after ssh
 * has logged in or failed) is given up, unless a launcher said the job is
 * queued, or ssh may ask the user something on the terminal. */
#define TL_REMOTE_HELLO_TIMEOUT_S 15

typedef struct
{
  char *destination; /* ssh destination (user@host, an alias); NULL: this computer */
  char *launcher;    /* a line wrapped around the worker, e.g. "srun --gres=gpu:1"; NULL: none */
  char *remote_cli;  /* the tilelab-cli to run there; NULL: "tilelab-cli" from the host's
                        PATH (ssh), this program's own (local pipe) */
  gboolean interactive; /* ssh may ask on the terminal (a password, a new host key);
                           otherwise BatchMode: it fails at once instead */
} TlRemoteTarget;

TlRemoteTarget *tl_remote_target_new  (const char *destination, const char *launcher,
                                       const char *remote_cli);
TlRemoteTarget *tl_remote_target_copy (const TlRemoteTarget *target);
void            tl_remote_target_free (TlRemoteTarget *target);
gboolean        tl_remote_target_equal (const TlRemoteTarget *a, const TlRemoteTarget *b);

/* Checks a target as a user typed it: FALSE with TL_ERROR_INVALID saying
 * what is wrong (an empty destination, a control character, a launcher
 * line that does not split into words). */
gboolean        tl_remote_target_check (const TlRemoteTarget *target, GError **error);

/* The host as messages name it: the destination, or "this computer". */
const char     *tl_remote_target_host (const TlRemoteTarget *target);

/* The argv that starts the worker (transport and launcher around
 * `tilelab-cli serve --stdio`). */
GStrv           tl_remote_target_worker_argv (const TlRemoteTarget *target, GError **error);
/* The argv that runs argv on the target's machine, without the launcher
 * (ssh with the same options; argv itself for this computer). */
GStrv           tl_remote_target_command_argv (const TlRemoteTarget *target,
                                               const char *const *argv, GError **error);
/* The argv that cancels Slurm job job_id: scancel next to the launcher's
 * srun (with the words before it, e.g. `env SLURM_CONF=…`), on the
 * target's machine.  NULL when the launcher has no srun. */
GStrv           tl_remote_target_scancel_argv (const TlRemoteTarget *target, const char *job_id);

/* A word quoted for a POSIX shell; "~/x" keeps its tilde working. */
char           *tl_remote_shell_quote (const char *word);

/* This computer's tilelab-cli: $TILELAB_CLI, this program when it is
 * tilelab-cli, the one beside this program (installed), the build tree's
 * (src/cli/ from ui/ or tests/), or the configured bindir. */
char           *tl_remote_local_cli_path (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRemoteTarget, tl_remote_target_free)

G_END_DECLS
