/* tilelab-cli --host DEST [--launcher LINE] COMMAND … — a command on another machine.
 *
 * The command runs on the host's worker (`tilelab-cli serve --stdio`
 * through ssh, docs/remote.md) as a "command" job: its arguments travel
 * as they are, so generated inputs (--gen, --size, --seed) travel as
 * their recipe and are made there.  Matrix files named on the command
 * line, and user kernel files (kernel check mine.cu; in gemm's --kernel
 * list, compiled there in a worker of their own), are uploaded first (once each, with progress); files the command
 * writes (--record, --output) come back to where they were asked for,
 * and run records among them name where they ran ($.extensions.remote)
 * and this command line.  What the command prints arrives as it prints
 * it, with the worker's paths shown as the local ones.
 *
 * Ctrl+C cancels the command there (it stops as at a Ctrl+C of its own:
 * a partial record is written and comes back) and exits 130; nothing is
 * left running on the host.
 */
#include "tl-cli.h"
#include "cli-gemm.h"

#include "core/tl-error.h"
#include "core/tl-save.h"
#include "core/tl-json.h"
#include "gemm/tl-user-kernel.h"
#include "io/tl-io.h"
#include "remote/tl-remote-connection.h"
#include "remote/tl-wire.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Options that name a file (or, for bench, a folder) the command writes,
 * and options that name a file it reads; every other argument that names
 * an existing matrix file (by its extension) is read too. */
static const char *const gemm_inputs[] = { "--a", "--b", NULL };
static const char *const gemm_outputs[] = { "--record", "-o", NULL };
static const char *const output_options[] = { "--output", "-o", NULL };
static const char *const lu_outputs[] = { "--record", "-r", "--output", "-o", NULL };
static const char *const none[] = { NULL };

static const struct
{
  const char *command;
  const char *const *outputs;
  const char *const *inputs;
} remote_commands[] = {
  { "devices", none, none },
  { "kernels", none, none },
  { "kernel", output_options, none },
  { "gemm", gemm_outputs, gemm_inputs },
  { "bench", output_options, none },
  { "lu", lu_outputs, none },
  { "det", lu_outputs, none },
  { "solve", output_options, none },
  { "rank", output_options, none },
  { "nullspace", output_options, none },
  { "lu-bench", output_options, none },
};

/* ---- the global options --------------------------------------------------------------- */

static gboolean
take_value (int *argc, char **argv, int i, const char *name, char **out, GError **error)
{
  gsize n = strlen (name);
  const char *word = argv[i];
  int used = 1;
  const char *value;
  if (word[n] == '=')
    value = word + n + 1;
  else if (i + 1 < *argc)
    {
      value = argv[i + 1];
      used = 2;
    }
  else
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("%s needs a value"), name);
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (value);
  memmove (argv + i, argv + i + used, (*argc - i - used + 1) * sizeof *argv);
  *argc -= used;
  return TRUE;
}

gboolean
tl_cli_take_remote_options (int *argc, char **argv, TlCliRemoteOptions *out, GError **error)
{
  static const char *const names[] = { "--host", "--launcher", "--remote-cli" };
  char **fields[] = { &out->host, &out->launcher, &out->remote_cli };
  out->command_line = tl_cli_command_line (*argc - 1, argv + 1);
  for (int i = 1; i < *argc;)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      gboolean taken = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (names) && !taken; k++)
        {
          gsize n = strlen (names[k]);
          if (strncmp (argv[i], names[k], n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
            {
              if (!take_value (argc, argv, i, names[k], fields[k], error))
                return FALSE;
              taken = TRUE;
            }
        }
      if (!taken)
        i++;
    }
  return TRUE;
}

void
tl_cli_remote_options_clear (TlCliRemoteOptions *o)
{
  g_clear_pointer (&o->host, g_free);
  g_clear_pointer (&o->launcher, g_free);
  g_clear_pointer (&o->remote_cli, g_free);
  g_clear_pointer (&o->command_line, g_free);
}

gboolean
tl_cli_remote_supports (const char *command)
{
  for (guint i = 0; i < G_N_ELEMENTS (remote_commands); i++)
    if (strcmp (remote_commands[i].command, command) == 0)
      return TRUE;
  return FALSE;
}

static guint
command_index (const char *command)
{
  for (guint i = 0; i < G_N_ELEMENTS (remote_commands); i++)
    if (strcmp (remote_commands[i].command, command) == 0)
      return i;
  g_assert_not_reached ();
}

/* ---- the command's arguments, with files marked ------------------------------------ */

typedef struct
{
  char *local;     /* as the user named it */
  char *name;      /* its base name */
  GBytes *bytes;   /* inputs: the contents */
  char *sha256;    /* inputs: once uploaded */
  char *remote;    /* where the worker put it (from "started") */
} FileArg;

typedef struct
{
  const char *command;
  char *command_line;
  GPtrArray *words;        /* JsonNode*: strings, and objects for files */
  GPtrArray *inputs;       /* FileArg*, in the order they appear */
  GPtrArray *outputs;      /* FileArg*, the K-th output is out/K on the worker */
  GPtrArray *arg_files;    /* per word: its FileArg or NULL */
  GPtrArray *parts;        /* FilePart*: uploads inside a joined word (a kernel list) */
  TlRemoteTarget *target;
  /* while running */
  TlRemoteConnection *conn;
  GString *pending[2];     /* stdout, stderr: text up to a newline */
  int exit_code;
  gboolean cut;            /* a file was cut off on its way by a cancel */
} Remote;

/* An input that is one part of a word: its object there, filled in once
 * uploaded (the FileArg is one of the inputs). */
typedef struct
{
  FileArg *file;
  JsonObject *object;
} FilePart;

static void
file_part_free (gpointer data)
{
  FilePart *part = data;
  json_object_unref (part->object);
  g_free (part);
}

static void
file_arg_free (FileArg *f)
{
  g_free (f->local);
  g_free (f->name);
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_free (f->sha256);
  g_free (f->remote);
  g_free (f);
}

static gboolean
in_list (const char *const *list, const char *word)
{
  return list && g_strv_contains (list, word);
}

static JsonNode *
string_node (const char *s)
{
  JsonNode *n = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (n, s);
  return n;
}

static void
add_word (Remote *r, JsonNode *node, FileArg *file)
{
  g_ptr_array_add (r->words, node);
  g_ptr_array_add (r->arg_files, file);
}

/* A file the command reads, among the inputs to upload; NULL if unreadable. */
static FileArg *
input_file (Remote *r, const char *path, GError **error)
{
  g_autoptr (GMappedFile) mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  FileArg *f = g_new0 (FileArg, 1);
  f->local = g_strdup (path);
  f->name = g_path_get_basename (path);
  f->bytes = g_mapped_file_get_bytes (mapped);
  g_ptr_array_add (r->inputs, f);
  return f;
}

static gboolean
add_input (Remote *r, const char *path, GError **error)
{
  FileArg *f = input_file (r, path, error);
  if (f == NULL)
    return FALSE;
  /* the SHA-256 is filled in once uploaded; the node is completed then */
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, json_object_new ());
  add_word (r, node, f);
  return TRUE;
}

static void
add_output (Remote *r, const char *path)
{
  FileArg *f = g_new0 (FileArg, 1);
  f->local = g_strdup (path);
  f->name = g_path_get_basename (path);
  g_ptr_array_add (r->outputs, f);
  JsonObject *o = json_object_new ();
  json_object_set_string_member (o, "output", f->name);
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, o);
  add_word (r, node, f);
}

static gboolean
is_user_kernel_file (const char *word)
{
  return tl_user_kernel_is_path (word) && g_file_test (word, G_FILE_TEST_IS_REGULAR);
}

/* gemm's kernel list: user kernel files in it (mine.cu,gemm-03-smem16)
 * are uploaded, and the word goes as its parts, which the worker joins
 * with the uploads' paths there. */
static gboolean
add_kernel_list (Remote *r, const char *list, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (list, ",", -1);
  gboolean any = FALSE;
  for (guint i = 0; parts[i]; i++)
    any = any || is_user_kernel_file (parts[i]);
  if (!any)
    {
      add_word (r, string_node (list), NULL);
      return TRUE;
    }
  JsonArray *joined = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, joined);
  add_word (r, node, NULL);
  for (guint i = 0; parts[i]; i++)
    {
      if (i > 0)
        json_array_add_string_element (joined, ",");
      if (!is_user_kernel_file (parts[i]))
        {
          json_array_add_string_element (joined, parts[i]);
          continue;
        }
      FileArg *f = input_file (r, parts[i], error);
      if (f == NULL)
        return FALSE;
      FilePart *part = g_new0 (FilePart, 1);
      part->file = f;
      part->object = json_object_new ();
      json_array_add_object_element (joined, json_object_ref (part->object));
      g_ptr_array_add (r->parts, part);
    }
  return TRUE;
}

static gboolean
is_matrix_file (const char *word)
{
  return word[0] != '-' && tl_format_from_path (word) != TL_FORMAT_AUTO
         && g_file_test (word, G_FILE_TEST_IS_REGULAR);
}

/* Splits argv into words, files marked: "--opt=value" of a file option
 * becomes "--opt" and the file. */
static gboolean
parse_arguments (Remote *r, int argc, char **argv, GError **error)
{
  guint ci = command_index (r->command);
  add_word (r, string_node (r->command), NULL);
  for (int i = 1; i < argc; i++)
    {
      const char *word = argv[i];
      g_autofree char *option = NULL;
      const char *value = NULL;
      const char *eq = g_str_has_prefix (word, "--") ? strchr (word, '=') : NULL;
      if (eq)
        {
          option = g_strndup (word, eq - word);
          value = eq + 1;
        }
      else
        {
          option = g_strdup (word);
          value = i + 1 < argc ? argv[i + 1] : NULL;
        }
      if (strcmp (r->command, "gemm") == 0 && value
          && (strcmp (option, "--kernel") == 0 || strcmp (option, "-k") == 0))
        {
          add_word (r, string_node (option), NULL);
          if (!add_kernel_list (r, value, error))
            return FALSE;
          if (!eq)
            i++;
          continue;
        }
      gboolean is_out = in_list (remote_commands[ci].outputs, option);
      gboolean is_in = in_list (remote_commands[ci].inputs, option);
      if ((is_out || is_in) && value)
        {
          add_word (r, string_node (option), NULL);
          if (is_out)
            add_output (r, value);
          else if (!add_input (r, value, error))
            return FALSE;
          if (!eq)
            i++;
          continue;
        }
      if (is_matrix_file (word) || is_user_kernel_file (word))
        {
          if (!add_input (r, word, error))
            return FALSE;
          continue;
        }
      add_word (r, string_node (word), NULL);
    }
  return TRUE;
}

/* ---- what comes back ------------------------------------------------------------------- */

/* The worker's paths in text, shown as the local ones. */
static void
localise_paths (Remote *r, GString *text)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < r->arg_files->len; i++)
      {
        FileArg *f = r->arg_files->pdata[i];
        if (f == NULL || f->remote == NULL)
          continue;
        if (pass == 0)
          g_string_replace (text, f->remote, f->local, 0);
        else if (f->bytes == NULL)
          {
            /* an output's siblings (STEM.A.npy beside STEM.json) */
            g_autofree char *rdir = g_path_get_dirname (f->remote);
            g_autofree char *ldir = g_path_get_dirname (f->local);
            g_autofree char *from = g_strconcat (rdir, G_DIR_SEPARATOR_S, NULL);
            g_autofree char *to = strcmp (ldir, ".") == 0 ? g_strdup ("")
                                                          : g_strconcat (ldir, G_DIR_SEPARATOR_S, NULL);
            g_string_replace (text, from, to, 0);
          }
      }
}

static void
write_output (Remote *r, int stream, GBytes *bytes, gboolean flush)
{
  GString *p = r->pending[stream];
  if (bytes)
    g_string_append_len (p, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  const char *end = flush ? p->str + p->len : strrchr (p->str, '\n');
  if (end == NULL)
    return;
  gsize n = end - p->str + (flush ? 0 : 1);
  g_autoptr (GString) chunk = g_string_new_len (p->str, n);
  g_string_erase (p, 0, n);
  localise_paths (r, chunk);
  FILE *out = stream == 0 ? stdout : stderr;
  fwrite (chunk->str, 1, chunk->len, out);
  fflush (out);
}

/* A run record that came back names where it ran and how it was asked for. */
static GBytes *
patch_record (Remote *r, GBytes *bytes)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autoptr (JsonNode) root = tl_json_parse (data, size, NULL);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (o == NULL || !g_str_has_prefix (tl_json_object_get_string (o, "schema", ""), "tilelab-run/"))
    return g_bytes_ref (bytes);
  json_object_set_string_member (o, "command_line", r->command_line);
  JsonNode *ext_node = json_object_get_member (o, "extensions");
  if (ext_node == NULL || !JSON_NODE_HOLDS_OBJECT (ext_node))
    {
      json_object_set_object_member (o, "extensions", json_object_new ());
      ext_node = json_object_get_member (o, "extensions");
    }
  json_object_set_member (json_node_get_object (ext_node), "remote",
                          tl_remote_connection_where (r->conn));
  /* the inputs' paths as the user named them */
  JsonNode *job = json_object_get_member (o, "job");
  for (guint s = 0; job && JSON_NODE_HOLDS_OBJECT (job) && s < 2; s++)
    {
      JsonNode *src = json_object_get_member (json_node_get_object (job), s ? "b" : "a");
      JsonObject *so = src && JSON_NODE_HOLDS_OBJECT (src) ? json_node_get_object (src) : NULL;
      const char *path = so ? tl_json_object_get_string (so, "path", NULL) : NULL;
      for (guint i = 0; path && i < r->inputs->len; i++)
        {
          FileArg *f = r->inputs->pdata[i];
          if (f->remote && strcmp (f->remote, path) == 0)
            {
              json_object_set_string_member (so, "path", f->local);
              break;
            }
        }
    }
  gsize length = 0;
  char *text = tl_json_to_data (root, TRUE, &length);
  return g_bytes_new_take (text, length);
}

static gboolean
receive_file (Remote *r, JsonObject *msg, GBytes *payload, GError **error)
{
  const char *path = tl_json_object_get_string (msg, "path", "");
  g_auto (GStrv) parts = g_strsplit (path, G_DIR_SEPARATOR_S, 2);
  guint64 k;
  if (parts[0] == NULL || parts[1] == NULL
      || !g_ascii_string_to_unsigned (parts[0], 10, 0, r->outputs->len - 1, &k, NULL)
      || strstr (parts[1], "..") != NULL)
    {
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                   _("the worker sent a file “%s” that was not asked for"), path);
      return FALSE;
    }
  if (json_object_has_member (msg, "error"))
    {
      g_autoptr (GError) e = tl_wire_get_error (msg);
      g_printerr (_("tilelab-cli %s: %s could not come back: %s\n"), r->command, path, e->message);
      return TRUE;
    }
  if (json_object_has_member (msg, "cut"))
    {
      /* never a partial file in its place */
      g_printerr (_("tilelab-cli %s: %s did not come back: stopped on its way\n"), r->command,
                  path);
      r->cut = TRUE;
      return TRUE;
    }
  FileArg *out = r->outputs->pdata[k];
  g_autofree char *dir = g_path_get_dirname (out->local);
  g_autofree char *local = g_build_filename (dir, parts[1], NULL);
  g_autofree char *parent = g_path_get_dirname (local);
  g_mkdir_with_parents (parent, 0755);
  g_autoptr (GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr (GBytes) bytes = g_str_has_suffix (local, ".json") && payload
                               ? patch_record (r, payload)
                               : g_bytes_ref (payload ? payload : empty);
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  return tl_save_contents (local, data ? data : "", size, NULL, error);
}

static void
take_started (Remote *r, JsonObject *msg)
{
  JsonNode *node = json_object_get_member (msg, "argv");
  JsonArray *argv = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  /* the worker's argv has its program first */
  for (guint i = 0; argv && i < r->arg_files->len && i + 1 < json_array_get_length (argv); i++)
    {
      FileArg *f = r->arg_files->pdata[i];
      const char *remote = json_array_get_string_element (argv, i + 1);
      if (f && remote)
        {
          g_free (f->remote);
          f->remote = g_strdup (remote);
        }
    }
}

static gboolean
on_message (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload,
            gpointer user_data, GError **error)
{
  Remote *r = user_data;
  if (strcmp (type, "started") == 0)
    take_started (r, msg);
  else if (strcmp (type, "output") == 0)
    write_output (r, strcmp (tl_json_object_get_string (msg, "stream", ""), "stderr") == 0,
                  payload, FALSE);
  else if (strcmp (type, "file") == 0)
    return receive_file (r, msg, payload, error);
  return TRUE;
}

/* ---- running it ------------------------------------------------------------------------ */

static gboolean status_shown;

static void
status_cb (const char *text, double fraction, gpointer user_data)
{
  static char *last;
  if (isatty (STDERR_FILENO))
    {
      if (fraction >= 0)
        g_printerr ("\r\033[K%s: %3.0f%%", text, 100 * fraction);
      else
        g_printerr ("\r\033[K%s…", text);
      status_shown = TRUE;
    }
  else if (fraction < 0 && g_strcmp0 (last, text) != 0)
    g_printerr ("tilelab-cli: %s\n", text);
  g_free (last);
  last = g_strdup (text);
}

static void
end_status (void)
{
  if (status_shown)
    g_printerr ("\r\033[K");
  status_shown = FALSE;
}

static gboolean
upload_inputs (Remote *r, GCancellable *cancellable, GError **error)
{
  for (guint i = 0; i < r->arg_files->len; i++)
    {
      FileArg *f = r->arg_files->pdata[i];
      if (f == NULL || f->bytes == NULL)
        continue;
      if (f->sha256 == NULL)
        f->sha256 = tl_remote_connection_upload (r->conn, f->bytes, f->name, cancellable, error);
      if (f->sha256 == NULL)
        return FALSE;
      JsonObject *o = json_node_get_object (r->words->pdata[i]);
      json_object_set_string_member (o, "upload", f->sha256);
      json_object_set_string_member (o, "name", f->name);
    }
  for (guint i = 0; i < r->parts->len; i++)
    {
      FilePart *part = r->parts->pdata[i];
      FileArg *f = part->file;
      if (f->sha256 == NULL)
        f->sha256 = tl_remote_connection_upload (r->conn, f->bytes, f->name, cancellable, error);
      if (f->sha256 == NULL)
        return FALSE;
      json_object_set_string_member (part->object, "upload", f->sha256);
      json_object_set_string_member (part->object, "name", f->name);
    }
  return TRUE;
}

/* On the runner's worker: connect, upload, run; the exit code + 1. */
static gpointer
remote_job_func (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  Remote *r = data;
  r->conn = tl_remote_connection_new (r->target);
  tl_remote_connection_set_status_func (r->conn, status_cb, NULL);
  if (!tl_remote_connection_open (r->conn, cancellable, error)
      || !upload_inputs (r, cancellable, error))
    {
      end_status ();
      return NULL;
    }
  end_status ();
  JsonBuilder *b = tl_wire_begin ("job");
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "command");
  json_builder_set_member_name (b, "argv");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->words->len; i++)
    json_builder_add_value (b, json_node_copy (r->words->pdata[i]));
  json_builder_end_array (b);
  g_autoptr (JsonObject) done = tl_remote_connection_run_job (r->conn, b, on_message, r,
                                                              cancellable, error);
  write_output (r, 0, NULL, TRUE);
  write_output (r, 1, NULL, TRUE);
  if (done == NULL)
    return NULL;
  gint64 code = tl_wire_get_count (done, "exit", -1);
  if (r->cut && code == 0)
    code = 130; /* interrupted: not everything it wrote came */
  if (code < 0)
    {
      g_propagate_error (error, tl_wire_get_error (done));
      return NULL;
    }
  return GINT_TO_POINTER ((int) code + 1);
}

static void
remote_free (Remote *r)
{
  if (r->conn)
    tl_remote_connection_free (r->conn);
  tl_remote_target_free (r->target);
  g_ptr_array_unref (r->words);
  g_ptr_array_unref (r->inputs);
  g_ptr_array_unref (r->outputs);
  g_ptr_array_unref (r->arg_files);
  g_ptr_array_unref (r->parts);
  g_string_free (r->pending[0], TRUE);
  g_string_free (r->pending[1], TRUE);
  g_free (r->command_line);
  g_free (r);
}

int
tl_cli_remote_run (const char *command, int argc, char **argv, const char *host,
                   const char *launcher, const char *remote_cli, const char *command_line)
{
  /* Ctrl+C from here on exits 130, during the checks and the connection
   * too (before, it ends the program by the default action) */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  Remote *r = g_new0 (Remote, 1);
  r->command = command;
  r->command_line = g_strdup (command_line);
  r->words = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  r->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) file_arg_free);
  r->outputs = g_ptr_array_new_with_free_func ((GDestroyNotify) file_arg_free);
  r->arg_files = g_ptr_array_new ();
  r->parts = g_ptr_array_new_with_free_func (file_part_free);
  r->pending[0] = g_string_new (NULL);
  r->pending[1] = g_string_new (NULL);
  r->target = tl_remote_target_new (host, launcher, remote_cli);
  /* at a terminal, ssh may ask for a password or about a new host key */
  r->target->interactive = isatty (STDIN_FILENO) && isatty (STDERR_FILENO);

  g_autoptr (GError) error = NULL;
  if (!tl_remote_target_check (r->target, &error))
    {
      remote_free (r);
      return tl_cli_usage_error (command, "%s", error->message);
    }
  if (!parse_arguments (r, argc, argv, &error))
    {
      remote_free (r);
      return tl_cli_fail (command, error);
    }

  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  /* the runner frees r (and closes the connection) on its worker */
  gpointer result = tl_cli_run_func (runner, remote_job_func, r, (GDestroyNotify) remote_free,
                                     NULL, cancellable, &error);
  end_status ();
  if (result == NULL)
    return tl_cli_fail (command, error);
  return GPOINTER_TO_INT (result) - 1;
}
