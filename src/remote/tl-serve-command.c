/* tl-serve-command.c — a tilelab-cli command as a job: `tilelab-cli --host` runs here.
 *
 * The client sends the command's arguments; an argument may be an object
 * instead of a string:
 *
 *   {"upload": SHA256, "name": "A.mtx"}   a file the client uploaded: the
 *                                         command gets a path to it that
 *                                         ends in its name (formats are
 *                                         told by the extension)
 *   ["…", {"upload": …}, ",gemm-03"]      parts joined into one argument:
 *                                         text and uploads' paths (gemm's
 *                                         --kernel list naming kernel files)
 *   {"output": "run.json"}                a file or folder the command will
 *                                         write: a path in the job's
 *                                         folder, out/K/run.json for the
 *                                         K-th such argument
 *
 * The command runs as this program's child, in the job's folder, with
 * standard input from /dev/null; what it prints goes to the client as it
 * comes ("output": stdout or stderr, raw bytes).  When it has exited,
 * every file under out/ goes to the client ("file", its path K/…), then
 * "done" with its exit status.  A cancel is SIGINT (the command stops as
 * at Ctrl+C: exit 130, a partial record written), and SIGKILL if it has
 * not exited TL_SERVE_KILL_GRACE_S later.
 */
#include "remote/tl-serve-kinds.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "remote/tl-remote-target.h"
#include "remote/tl-wire.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define TL_SERVE_KILL_GRACE_S 10
#define OUTPUT_CHUNK 65536

typedef struct
{
  TlServeJob *job;
  GSubprocess *proc;
  guint open_streams;
  gboolean exited;
  int status;
  char *out_folder;
  gulong cancel_handler;
  guint kill_timer;
} Command;

static void
child_setup_cb (gpointer data)
{
  /* the worker may run with SIGINT ignored (its transport's setup): the
   * command must stop on it as at Ctrl+C */
  signal (SIGINT, SIG_DFL);
  signal (SIGPIPE, SIG_DFL);
#ifdef __linux__
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
}

/* ---- the files the command wrote ------------------------------------------------ */

static void
send_files (Command *c, const char *dir, const char *rel)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *child_rel = rel ? g_build_filename (rel, name, NULL) : g_strdup (name);
      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          send_files (c, path, child_rel);
          continue;
        }
      JsonBuilder *b = tl_wire_begin ("file");
      tl_json_member_string (b, "path", child_rel);
      /* read as it goes out, in chunks a cancel can stop; an empty file
       * still travels: its header says 0 bytes */
      tl_serve_job_send_file (c->job, b, path);
    }
  g_dir_close (d);
}

static void
maybe_finish (Command *c)
{
  if (!c->exited || c->open_streams > 0)
    return;
  if (c->kill_timer)
    g_source_remove (c->kill_timer);
  g_cancellable_disconnect (tl_serve_job_get_cancellable (c->job), c->cancel_handler);
  send_files (c, c->out_folder, NULL);
  g_autoptr (GError) error = NULL;
  if (c->status == 130 && g_cancellable_is_cancelled (tl_serve_job_get_cancellable (c->job)))
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The command was stopped"));
  tl_serve_job_done (c->job, error, c->status);
  g_object_unref (c->proc);
  g_free (c->out_folder);
  g_free (c);
}

/* ---- its output and its end ---------------------------------------------------------- */

typedef struct
{
  Command *command;
  const char *stream;
} Reader;

static void
output_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Reader *r = data;
  Command *c = r->command;
  g_autoptr (GBytes) chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result,
                                                              NULL);
  if (chunk == NULL || g_bytes_get_size (chunk) == 0)
    {
      g_free (r);
      c->open_streams--;
      maybe_finish (c);
      return;
    }
  JsonBuilder *b = tl_wire_begin ("output");
  tl_json_member_string (b, "stream", r->stream);
  tl_serve_job_send (c->job, b, chunk);
  g_input_stream_read_bytes_async (G_INPUT_STREAM (source), OUTPUT_CHUNK, G_PRIORITY_DEFAULT,
                                   NULL, output_cb, r);
}

static void
read_stream (Command *c, GInputStream *stream, const char *name)
{
  Reader *r = g_new0 (Reader, 1);
  r->command = c;
  r->stream = name;
  c->open_streams++;
  g_input_stream_read_bytes_async (stream, OUTPUT_CHUNK, G_PRIORITY_DEFAULT, NULL, output_cb, r);
}

static void
exited_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Command *c = data;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  c->exited = TRUE;
  if (g_subprocess_get_if_exited (c->proc))
    c->status = g_subprocess_get_exit_status (c->proc);
  else
    c->status = 128 + g_subprocess_get_term_sig (c->proc);
  g_debug ("serve: command of job %" G_GUINT64_FORMAT " exited (%d)", tl_serve_job_get_id (c->job),
           c->status);
  maybe_finish (c);
}

static gboolean
kill_cb (gpointer data)
{
  Command *c = data;
  c->kill_timer = 0;
  if (!c->exited)
    g_subprocess_force_exit (c->proc);
  return G_SOURCE_REMOVE;
}

static void
cancelled_cb (GCancellable *cancellable, gpointer data)
{
  Command *c = data;
  if (c->exited || c->kill_timer)
    return;
  g_subprocess_send_signal (c->proc, SIGINT);
  c->kill_timer = g_timeout_add_seconds (TL_SERVE_KILL_GRACE_S, kill_cb, c);
}

/* ---- starting --------------------------------------------------------------------------- */

/* An argument as the command gets it: strings as they are; uploads and
 * outputs as paths in the job's folder. */
static char *resolve_argument (TlServeJob *job, JsonNode *node, guint *n_outputs,
                               GError **error);

/* Parts joined into one argument: text and uploads, nothing else. */
static char *
join_parts (TlServeJob *job, JsonArray *parts, guint *n_outputs, GError **error)
{
  g_autoptr (GString) joined = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = json_array_get_element (parts, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (part) ? json_node_get_object (part) : NULL;
      if (JSON_NODE_HOLDS_ARRAY (part) || (o && !json_object_has_member (o, "upload")))
        {
          g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                               _("a joined command argument holds only text and uploads"));
          return NULL;
        }
      g_autofree char *text = resolve_argument (job, part, n_outputs, error);
      if (text == NULL)
        return NULL;
      g_string_append (joined, text);
    }
  return g_strdup (joined->str);
}

static char *
resolve_argument (TlServeJob *job, JsonNode *node, guint *n_outputs, GError **error)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (JSON_NODE_HOLDS_ARRAY (node))
    return join_parts (job, json_node_get_array (node), n_outputs, error);
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *upload = o ? tl_json_object_get_string (o, "upload", NULL) : NULL;
  const char *output = o ? tl_json_object_get_string (o, "output", NULL) : NULL;
  const char *name = upload ? tl_json_object_get_string (o, "name", "input") : output;
  g_autofree char *base = name ? g_path_get_basename (name) : NULL;
  if (base == NULL || strcmp (base, "..") == 0 || strcmp (base, ".") == 0
      || strcmp (base, G_DIR_SEPARATOR_S) == 0)
    {
      g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                           _("a command argument that is neither text, an upload nor an output"));
      return NULL;
    }
  const char *folder = tl_serve_job_get_folder (job);
  if (upload)
    {
      const char *path = tl_serve_get_upload (tl_serve_job_get_serve (job), upload, error);
      if (path == NULL)
        return NULL;
      g_autofree char *dir = g_build_filename (folder, "in", upload, NULL);
      g_mkdir_with_parents (dir, 0700);
      char *link = g_build_filename (dir, base, NULL);
      if (!g_file_test (link, G_FILE_TEST_EXISTS) && symlink (path, link) != 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO, _("cannot place the upload %s: %s"), base,
                       g_strerror (errno));
          g_free (link);
          return NULL;
        }
      return link;
    }
  g_autofree char *k = g_strdup_printf ("%u", (*n_outputs)++);
  g_autofree char *dir = g_build_filename (folder, "out", k, NULL);
  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, base, NULL);
}

gboolean
tl_serve_start_command (TlServeJob *job, JsonObject *message, GError **error)
{
  JsonNode *node = json_object_get_member (message, "argv");
  JsonArray *args = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (args == NULL || json_array_get_length (args) == 0)
    {
      g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                           _("a command job without its arguments"));
      return FALSE;
    }
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, tl_remote_local_cli_path ());
  guint n_outputs = 0;
  for (guint i = 0; i < json_array_get_length (args); i++)
    {
      char *arg = resolve_argument (job, json_array_get_element (args, i), &n_outputs, error);
      if (arg == NULL)
        return FALSE;
      g_ptr_array_add (argv, arg);
    }
  g_ptr_array_add (argv, NULL);

  Command *c = g_new0 (Command, 1);
  c->job = job;
  c->out_folder = g_build_filename (tl_serve_job_get_folder (job), "out", NULL);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_stdin_file_path (launcher, "/dev/null");
  g_subprocess_launcher_set_cwd (launcher, tl_serve_job_get_folder (job));
  g_subprocess_launcher_set_child_setup (launcher, child_setup_cb, NULL, NULL);
  c->proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, error);
  if (c->proc == NULL)
    {
      g_free (c->out_folder);
      g_free (c);
      return FALSE;
    }
  /* the client shows these paths as its own */
  JsonBuilder *b = tl_wire_begin ("started");
  json_builder_set_member_name (b, "argv");
  json_builder_begin_array (b);
  for (guint i = 0; i + 1 < argv->len; i++)
    json_builder_add_string_value (b, argv->pdata[i]);
  json_builder_end_array (b);
  tl_serve_job_send (job, b, NULL);
  read_stream (c, g_subprocess_get_stdout_pipe (c->proc), "stdout");
  read_stream (c, g_subprocess_get_stderr_pipe (c->proc), "stderr");
  g_subprocess_wait_async (c->proc, NULL, exited_cb, c);
  c->cancel_handler = g_cancellable_connect (tl_serve_job_get_cancellable (job),
                                             G_CALLBACK (cancelled_cb), c, NULL);
  return TRUE;
}
