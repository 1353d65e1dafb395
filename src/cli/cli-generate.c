/* tilelab-cli generate — a named, seeded matrix into a file. */
#include "tl-cli.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

static void
print_list (void)
{
  printf ("Generators (spec NAME or NAME:key=value,…; defaults shown):\n\n");
  for (guint i = 0; i < tl_generator_count (); i++)
    {
      const TlGeneratorInfo *g = tl_generator_get (i);
      g_autofree char *spec = *g->params ? g_strdup_printf ("%s:%s", g->name, g->params)
                                         : g_strdup (g->name);
      printf ("  %-32s %s%s%s\n", spec, *g->description ? _(g->description) : "",
              g->square_only ? "; square only" : "",
              g->makes_int32 ? "" : "; float32/float64 only");
    }
}

typedef struct
{
  const char *spec;
  TlDtype dtype;
  gsize rows, cols;
  guint64 seed;
  const char *output;
  TlFormat format;
  gboolean generated;
} Generate;

/* Generate and save, on the worker of tl_cli_run_work: Ctrl+C stops the
 * save and removes its temporary file. */
static gboolean
generate_work (gpointer data, GCancellable *cancellable, GError **error)
{
  Generate *g = data;
  g_autoptr (TlMatrix) m = tl_generate (g->spec, g->dtype, g->rows, g->cols, g->seed, error);
  if (m == NULL)
    return FALSE;
  g->generated = TRUE;
  return tl_matrix_save_with (m, g->output, g->format, cancellable, error);
}

/* --size, --dtype, --seed, -o and --format into g, each checked. */
static int
read_request (Generate *g, const char *size, const char *dtype_name, const char *seed_text,
              const char *output, const char *format_name)
{
  if (size == NULL)
    return tl_cli_usage_error ("generate", _("--size RxC is required"));
  if (!tl_cli_parse_size2 (size, &g->rows, &g->cols))
    return tl_cli_usage_error ("generate", _("“%s” is not a size like 1000x500 or 512"), size);

  g->dtype = TL_DTYPE_FLOAT64;
  if (dtype_name && !tl_dtype_from_name (dtype_name, &g->dtype))
    return tl_cli_usage_error ("generate", _("unknown dtype “%s” (int32, float32, float64)"),
                               dtype_name);

  g->seed = 1;
  if (seed_text && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64, &g->seed, NULL))
    return tl_cli_usage_error ("generate", _("seed “%s” is not a whole number from 0 to 2^64−1"),
                               seed_text);

  if (output == NULL)
    return tl_cli_usage_error ("generate", _("-o FILE is required"));
  g->output = output;
  g->format = TL_FORMAT_AUTO;
  if (format_name && !tl_format_from_name (format_name, &g->format))
    return tl_cli_usage_error ("generate", _("unknown format “%s” (mtx, npy, csv, text)"),
                               format_name);
  if (g->format == TL_FORMAT_AUTO && tl_format_from_path (output) == TL_FORMAT_AUTO)
    return tl_cli_usage_error ("generate",
                               _("cannot tell the format from “%s”; name it .mtx, .npy, .csv, "
                               ".txt or give --format"), output);
  return TL_CLI_OK;
}

int
tl_cli_generate (int argc, char **argv)
{
  gboolean list = FALSE;
  g_autofree char *size = NULL, *dtype_name = NULL, *seed_text = NULL;
  g_autofree char *output = NULL, *format_name = NULL;
  GOptionEntry entries[] = {
    { "list", 'l', 0, G_OPTION_ARG_NONE, &list, N_("List the generators and their parameters"),
      NULL },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size, N_("Rows × columns, e.g. 1000x500 or 512"),
      "RxC" },
    { "dtype", 'd', 0, G_OPTION_ARG_STRING, &dtype_name,
      N_("int32, float32 or float64 (default float64)"), "DTYPE" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text, N_("Seed, 0 to 2^64−1 (default 1)"), "S" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("File to write"), "FILE" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("mtx, npy, csv or text (default: by FILE's extension)"), "FORMAT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (N_("NAME[:key=value,…] — write a generated matrix"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Writes a matrix from a named generator.  The same spec, size, dtype and\n"
    "seed give the same bits on every machine.  Examples:\n"
    "  tilelab-cli generate ones --size 1000x500 -o a.npy\n"
    "  tilelab-cli generate random-int:lo=0,hi=4 --size 64 --dtype int32 -o b.mtx\n"
    "  tilelab-cli generate condition:kappa=1e6 --size 200 --seed 7 -o c.npy\n"
    "“tilelab-cli generate --list” lists every generator."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;

  if (list)
    {
      print_list ();
      return TL_CLI_OK;
    }
  if (argc < 2)
    return tl_cli_usage_error ("generate", _("which generator? (see --list)"));
  if (argc > 2)
    return tl_cli_usage_error ("generate", _("unexpected argument “%s”"), argv[2]);
  const char *spec = argv[1];

  Generate g = { .spec = spec };
  int rc = read_request (&g, size, dtype_name, seed_text, output, format_name);
  if (rc != TL_CLI_OK)
    return rc;

  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  if (!tl_cli_run_work (generate_work, &g, cancellable, &error))
    {
      /* a bad spec, shape or dtype is a usage error; memory is a failure */
      if (!g.generated && (g_error_matches (error, TL_ERROR, TL_ERROR_INVALID)
                           || g_error_matches (error, TL_ERROR, TL_ERROR_SHAPE)
                           || g_error_matches (error, TL_ERROR, TL_ERROR_UNSUPPORTED)))
        return tl_cli_usage_error ("generate", _("%s"), error->message);
      return tl_cli_fail ("generate", error);
    }
  /* standard output holds the matrix: the summary goes with the messages */
  FILE *report = g_strcmp0 (output, "-") == 0 ? stderr : stdout;
  fprintf (report, "%s: %zu×%zu %s from “%s”, seed %" G_GUINT64_FORMAT "\n", output, g.rows,
           g.cols, tl_dtype_name (g.dtype), spec, g.seed);
  return TL_CLI_OK;
}
