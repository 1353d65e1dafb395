/* cli-info-record.c — `tilelab-cli info` on a record: what a run record or
 * a Gauss step record holds (its kind, job, kernels, device, date), read
 * and checked as the app opens it (record/tl-record-file.h). */
#include "tl-cli.h"
#include "core/tl-file.h"
#include "io/tl-io.h"
#include "record/tl-record-file.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

TlCliInfoKind
tl_cli_info_sniff (const char *path)
{
  if (tl_format_from_path (path) != TL_FORMAT_AUTO)
    return TL_CLI_INFO_MATRIX;
  guint64 size;
  int fd = tl_file_open_regular (path, &size, NULL);
  if (fd < 0)
    return TL_CLI_INFO_MATRIX; /* the loader says why it cannot be read */
  char head[256];
  ssize_t n = pread (fd, head, sizeof head, 0);
  close (fd);
  ssize_t at = n >= 3 && memcmp (head, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  if ((n >= 6 && memcmp (head, "\x93NUMPY", 6) == 0)
      || (n - at >= 14 && g_ascii_strncasecmp (head + at, "%%MatrixMarket", 14) == 0))
    return TL_CLI_INFO_MATRIX;
  while (at < n && g_ascii_isspace (head[at]))
    at++;
  if ((at < n && head[at] == '{') || g_str_has_suffix (path, ".json"))
    return TL_CLI_INFO_RECORD;
  return TL_CLI_INFO_UNKNOWN;
}

/* a label padded by columns, not bytes: "Gerät" lines up with "Host" */
static void
print_row (const char *label, const char *value)
{
  fputs ("  ", stdout);
  tl_cli_put_col (stdout, label, 10, TRUE);
  printf (" %s\n", value);
}

/* A Gauss recording: its kernel, matrix, pivoting and how far it went. */
static void
print_gauss (const TlLuRecorder *lu)
{
  const char *kernel = lu->kernel_id && *lu->kernel_id ? lu->kernel_id : "?";
  g_autofree char *size = lu->modulus > 0
    ? g_strdup_printf (_("%u × %u, %s mod %" PRIu64), lu->rows, lu->cols, lu->dtype,
                       (uint64_t) lu->modulus)
    : g_strdup_printf ("%u × %u, %s", lu->rows, lu->cols, lu->dtype);
  guint mn = MIN (lu->rows, lu->cols);
  g_autofree char *steps = g_strdup_printf (
    lu->breakdown ? _("%u of %u, stopped at a zero pivot (breakdown)")
    : lu->finished ? _("%u of %u, finished: rank %zu, info %zu")
                   : _("%u of %u, not finished"),
    lu->steps->len, mn, lu->rank, lu->info);
  g_autofree char *kept = g_strdup_printf (_("%u snapshots, %u block steps"),
                                           lu->snapshots->len, lu->blocks->len);
  print_row (_("kernel"), kernel);
  print_row (_("matrix"), size);
  print_row (_("pivoting"), tl_pivoting_name (lu->pivoting));
  print_row (_("steps"), steps);
  print_row (_("recorded"), kept);
}

/* The kernels of a run record and how each run ended. */
static char *
kernels_line (const TlRunRecord *record)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      g_string_append_printf (s, "%s%s", i ? ", " : "", run->kernel_id);
      if (run->status != TL_RUN_OK)
        g_string_append_printf (s, " (%s)", tl_run_status_name (run->status));
      else if (run->verified && !run->passed)
        g_string_append_printf (s, " (%s)", _("wrong"));
    }
  if (record->runs->len == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

static void
print_run_record (const TlRunRecord *record)
{
  const TlJob *job = record->job;
  g_autofree char *format = g_strdup_printf (_("Tilelab run record (%s)"), record->schema);
  g_autofree char *what = g_strdup_printf ("%s, %zu × %zu × %zu (m × k × n), %s", job->kind,
                                           job->m, job->k, job->n, tl_dtype_name (job->dtype));
  g_autofree char *kernels = kernels_line (record);
  g_autofree char *device = record->has_device
    ? g_strdup_printf (_("%s (%d SMs, compute capability %d.%d)"), record->device.name,
                       record->device.sm_count, record->device.cc_major, record->device.cc_minor)
    : g_strdup_printf (_("CPU only: %s, %d cores"), record->machine.cpu_model,
                       record->machine.cores);
  print_row (_("format"), format);
  print_row (_("job"), what);
  print_row (_("kernels"), kernels);
  print_row (_("device"), device);
  print_row (_("host"), record->machine.host_name);
  print_row (_("created"), record->created);
  print_row (_("by"), record->tilelab_version);
  if (record->command_line)
    print_row (_("command"), record->command_line);
  if (record->note)
    print_row (_("note"), record->note);
  if (record->cancelled)
    print_row (_("cancelled"), _("yes: the runs that did not finish say so"));
}

int
tl_cli_info_record (const char *path, gboolean after_another)
{
  TlRecordFile file;
  g_autoptr (GError) error = NULL;
  if (!tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error))
    return tl_cli_fail ("info", error);
  if (after_another)
    printf ("\n");
  printf ("%s\n", path);
  if (file.record)
    print_run_record (file.record);
  else
    print_row (_("format"), _("Tilelab Gauss step record (kind “lu”)"));
  if (file.lu)
    print_gauss (file.lu);
  tl_record_file_clear (&file);
  return TL_CLI_OK;
}
