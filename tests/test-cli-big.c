/* test-cli-big.c — tilelab-cli given big hostile files under ulimit -v:
 * each ends with its result, its peak memory within 1.5 × the matrix +
 * 64 MiB, or with a sentence that names what was too large and the room
 * there was — never a signal, a hang or a temporary file left behind.
 *
 * The files are made in a temporary folder as the test runs, sparse
 * (ftruncate) where they are mostly zeros, and removed afterwards; each
 * case takes a second or two. */
#include "cli-test-util.h"
#include "record/tl-record.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB ((guint64) 1 << 20)

static char *tmp_dir;

typedef struct
{
  int status;        /* the exit code (124: timed out) */
  guint64 peak;      /* maximum resident set, bytes */
  char *out, *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* tilelab-cli args… (NULL-terminated) under ulimit -v of `limit` bytes
 * and `timeout 60`; its exit code, peak and output. */
static void
run_big (Run *r, guint64 limit, const char *first, ...)
{
  va_list ap;
  va_start (ap, first);
  g_autoptr (GPtrArray) argv = cli_test_timeout_argv_va (first, ap);
  va_end (ap);
  g_autofree char *out_path = tmp_path ("out.log"), *err_path = tmp_path ("err.log");

  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct rlimit rl = { (rlim_t) limit, (rlim_t) limit };
      int out = open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err = open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (setrlimit (RLIMIT_AS, &rl) != 0 || out < 0 || err < 0 || dup2 (out, 1) < 0
          || dup2 (err, 2) < 0)
        _exit (126);
      execvp ("timeout", (char **) argv->pdata);
      _exit (127);
    }
  int wait_status = 0;
  struct rusage usage;
  pid_t got;
  while ((got = wait4 (pid, &wait_status, 0, &usage)) < 0 && errno == EINTR)
    ;
  g_assert_cmpint (got, ==, pid);
  /* timeout passes a signal on as 128 + its number: neither may happen */
  g_assert_true (WIFEXITED (wait_status));
  *r = (Run) { .status = WEXITSTATUS (wait_status), .peak = (guint64) usage.ru_maxrss << 10 };
  g_assert_true (g_file_get_contents (out_path, &r->out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, &r->err, NULL, NULL));
  g_unlink (out_path);
  g_unlink (err_path);
  g_test_message ("exit %d, peak %.1f MiB: %s%s", r->status, (double) r->peak / MIB, r->out,
                  r->err);
  g_assert_cmpint (r->status, <, 124);
}

/* AddressSanitizer's shadow memory alone is terabytes of address space. */
static gboolean
skipped_under_asan (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return TRUE;
#else
  return FALSE;
#endif
}

static void
assert_has (const char *text, const char *needle)
{
  if (strstr (text, needle) == NULL)
    g_error ("“%s” lacks “%s”", text, needle);
}

/* Refused with exit 1 and a sentence naming the file, the room and the
 * limit that set it. */
static void
assert_refused_for_room (const Run *r, const char *name)
{
  g_assert_cmpint (r->status, ==, 1);
  assert_has (r->err, name);
  assert_has (r->err, "needs");
  assert_has (r->err, "available");
  assert_has (r->err, "ulimit -v");
}

static void
assert_peak_within (const Run *r, guint64 matrix_bytes)
{
  guint64 bound = matrix_bytes + matrix_bytes / 2 + 64 * MIB;
  if (r->peak > bound)
    g_error ("peak %.1f MiB over 1.5 × %.1f MiB + 64 MiB", (double) r->peak / MIB,
             (double) matrix_bytes / MIB);
}

/* No file but the inputs in the folder: no temporary left behind. */
static void
assert_folder_holds (guint n_files)
{
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name (dir)) != NULL; n++)
    g_test_message ("in the folder: %s", name);
  g_assert_cmpuint (n, ==, n_files);
}

/* A sparse file: head, then zeros up to size bytes. */
static char *
write_sparse (const char *name, const char *head, gsize head_len, guint64 size)
{
  char *path = tmp_path (name);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, head, head_len), ==, (gssize) head_len);
  g_assert_cmpint (ftruncate (fd, (off_t) size), ==, 0);
  close (fd);
  return path;
}

/* A rows × cols .npy of descr (4 or 8 bytes an element) whose data is a
 * hole: zeros. */
static char *
write_sparse_npy (const char *name, const char *descr, guint64 rows, guint64 cols)
{
  char dict[128];
  int len = g_snprintf (dict, sizeof dict,
                        "{'descr': '%s', 'fortran_order': False, 'shape': (%" G_GUINT64_FORMAT
                        ", %" G_GUINT64_FORMAT "), }", descr, rows, cols);
  /* magic, version 1.0, the header padded with spaces to 128 bytes, '\n' */
  char head[128];
  memset (head, ' ', sizeof head);
  memcpy (head, "\x93NUMPY\x01\x00\x76\x00", 10);
  memcpy (head + 10, dict, (gsize) len);
  head[127] = '\n';
  return write_sparse (name, head, sizeof head,
                       sizeof head + rows * cols * (descr[2] == '8' ? 8 : 4));
}

/* A 1 × n float32 .npy: the matrix of the 1-norm's vector of n doubles. */
static void
test_wide_npy (void)
{
  if (skipped_under_asan ())
    return;
  guint64 n = 16 << 20;
  g_autofree char *path = write_sparse_npy ("wide.npy", "<f4", 1, n);
  Run r;
  /* 160 MiB: the 64 MiB matrix would fit, its 128 MiB of column sums not;
   * info streams it, a row needing no column sums */
  g_autofree char *csv = tmp_path ("wide.csv");
  run_big (&r, 160 * MIB, "convert", path, csv, NULL);
  assert_refused_for_room (&r, "wide.npy");
  assert_has (r.err, "1×16777216");
  assert_folder_holds (1);
  run_clear (&r);
  run_big (&r, 160 * MIB, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "1 × 16777216");
  assert_peak_within (&r, 0);
  run_clear (&r);
  g_unlink (path);
}

/* A file of `rows` copies of `line`. */
static char *
write_rows (const char *name, const char *head, const char *line, guint rows)
{
  char *path = tmp_path (name);
  FILE *f = fopen (path, "w");
  g_assert_nonnull (f);
  fputs (head, f);
  for (guint i = 0; i < rows; i++)
    fputs (line, f);
  g_assert_cmpint (fclose (f), ==, 0);
  return path;
}

/* info within 150 MiB of address space, the program and a few MiB of
 * its own: a 256 MiB float64 .npy of zeros, a 20000 × 1000 CSV and the
 * same as Tilelab text (each 153 MiB as float64) give their summary, as
 * if loaded, in one pass of no matrix (no more memory than a tiny
 * file's summary and the 8 KiB of column sums). */
static void
test_info_streams (void)
{
  if (skipped_under_asan ())
    return;
  g_autofree char *npy = write_sparse_npy ("zeros.npy", "<f8", 4096, 8192);
  Run r;
  run_big (&r, 150 * MIB, "info", npy, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "4096 × 8192");
  assert_has (r.out, "1: 0   ∞: 0   Frobenius: 0   max: 0");
  assert_peak_within (&r, 0);
  run_clear (&r);
  g_unlink (npy);

  /* 1000 values a row: −500 … 499 in some order, then a 0.5 (float64) */
  g_autoptr (GString) row = g_string_new (NULL);
  for (int k = 0; k < 999; k++)
    g_string_append_printf (row, "%d,", k * 37 % 1001 - 500);
  g_string_append (row, "0.5\n");
  g_autofree char *csv = write_rows ("rows.csv", "", row->str, 20000);
  g_strdelimit (row->str, ",", ' ');
  g_autofree char *txt = write_rows ("rows.txt", "20000 1000\n", row->str, 20000);
  const char *const files[] = { csv, txt };
  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    {
      run_big (&r, 150 * MIB, "info", files[k], NULL);
      g_assert_cmpint (r.status, ==, 0);
      assert_has (r.out, "20000 × 1000");
      assert_has (r.out, "float64 (152.6");
      assert_has (r.out, "min        -500\n");
      assert_has (r.out, "max        500\n");
      assert_has (r.out, "NaN        0\n");
      assert_has (r.out, "1: 10000000   ∞: 249609.5");
      assert_peak_within (&r, 0);
      run_clear (&r);
      g_unlink (files[k]);
    }
}

/* info of path within 150 MiB of address space: exit 0, its output
 * holding each of the lines given (NULL-terminated), no matrix made. */
static void
assert_info_within_150_mib (const char *path, ...)
{
  Run r;
  run_big (&r, 150 * MIB, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  va_list ap;
  va_start (ap, path);
  for (const char *line; (line = va_arg (ap, const char *)) != NULL;)
    assert_has (r.out, line);
  va_end (ap);
  assert_peak_within (&r, 0);
  run_clear (&r);
  g_unlink (path);
}

/* info of a 2 × 2²⁵ float32 .npy (256 MiB) in C and in Fortran order
 * within 150 MiB of address space: a matrix too wide for the column sums
 * (256 MiB of them), streamed a block of columns at a time — not loaded
 * (refused there), 3 and −4 in its first column, 2 in its last. */
static void
test_info_too_wide (void)
{
  if (skipped_under_asan ())
    return;
  guint64 cols = (guint64) 1 << 25;
  static const struct { guint64 i, j; float v; } cells[] = {
    { 0, 0, 3 }, { 1, 0, -4 }, { 1, ((guint64) 1 << 25) - 1, 2 },
  };
  for (int fortran = 0; fortran < 2; fortran++)
    {
      g_autofree char *path = write_sparse_npy ("wide2.npy", "<f4", 2, cols);
      int fd = open (path, O_WRONLY);
      g_assert_cmpint (fd, >=, 0);
      if (fortran) /* 'fortran_order': True, the header's length kept */
        g_assert_cmpint (pwrite (fd, "True, ", 6, 10 + strlen ("{'descr': '<f4', 'fortran_order': ")),
                         ==, 6);
      for (guint k = 0; k < G_N_ELEMENTS (cells); k++)
        {
          guint64 index = fortran ? cells[k].j * 2 + cells[k].i
                                  : cells[k].i * cols + cells[k].j;
          g_assert_cmpint (pwrite (fd, &cells[k].v, 4, (off_t) (128 + 4 * index)), ==, 4);
        }
      close (fd);
      assert_info_within_150_mib (path, "2 × 33554432", "min        -4\n", "max        3\n",
                                  "1: 7   ∞: 6   Frobenius: 5.38516481   max: 4", NULL);
    }
}

/* info of Matrix Market files within 150 MiB of address space, no matrix
 * made: a 4000 × 4000 array file (122 MiB as float64, which a load could
 * not hold there), a 100000² coordinate file of its diagonal in order
 * (74.5 GiB as a matrix) and a 20000² one out of order (its map of cells
 * seen, 48 MiB, is all it costs) */
static void
test_info_streams_mtx (void)
{
  if (skipped_under_asan ())
    return;
  g_autofree char *array = write_rows ("a.mtx", "%%MatrixMarket matrix array real general\n"
                                       "4000 4000\n", "0.5\n", 4000 * 4000);
  assert_info_within_150_mib (array, "4000 × 4000", "mean       0.5\n",
                              "1: 2000   ∞: 2000   Frobenius: 2000   max: 0.5", NULL);

  g_autoptr (GString) text = g_string_new ("%%MatrixMarket matrix coordinate real general\n"
                                           "100000 100000 100000\n");
  for (guint i = 1; i <= 100000; i++)
    g_string_append_printf (text, "%u %u %s\n", i, i, i % 2 ? "2" : "-2");
  g_autofree char *diagonal = tmp_path ("d.mtx");
  g_assert_true (g_file_set_contents (diagonal, text->str, (gssize) text->len, NULL));
  assert_info_within_150_mib (diagonal, "100000 × 100000", "min        -2\n",
                              "1: 2   ∞: 2   Frobenius: 632.455532   max: 2", NULL);

  static const char shuffled[] = "%%MatrixMarket matrix coordinate integer general\n"
                                 "20000 20000 3\n20000 1 7\n1 20000 -3\n5 5 4\n";
  g_autofree char *any = tmp_path ("s.mtx");
  g_assert_true (g_file_set_contents (any, shuffled, -1, NULL));
  assert_info_within_150_mib (any, "20000 × 20000",
                              "1: 7   ∞: 7   Frobenius: 8.60232527   max: 7", NULL);
}

/* Matrix Market: a 3.9 GB file of one entry and then a hole, refused at
 * the first byte after the entry; a 200000² matrix, refused at its size
 * line. */
static void
test_holey_mtx (void)
{
  if (skipped_under_asan ())
    return;
  static const char head[] = "%%MatrixMarket matrix coordinate real general\n"
                             "2000 2000 1\n1 1 1.5\n";
  g_autofree char *path = write_sparse ("holey.mtx", head, strlen (head), (guint64) 3900 * MIB);
  Run r;
  run_big (&r, 300 * MIB, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  assert_has (r.err, "holey.mtx:4:1: more entries than the 1 the size line declares");
  run_clear (&r);
  g_unlink (path);

  static const char huge[] = "%%MatrixMarket matrix coordinate real general\n"
                             "200000 200000 1\n1 1 1.5\n";
  g_autofree char *huge_path = write_sparse ("huge.mtx", huge, strlen (huge), strlen (huge));
  g_autofree char *npy = tmp_path ("huge.npy");
  run_big (&r, 300 * MIB, "convert", huge_path, npy, NULL);
  assert_refused_for_room (&r, "huge.mtx:2:");
  assert_has (r.err, "200000×200000");
  assert_folder_holds (1);
  run_clear (&r);
  g_unlink (huge_path);
}

/* A one-column CSV of n integers and, last, one float: read as int32
 * and widened to float64 at the very end, int32 and float64 at once
 * (1.5 × the result) and never more. */
static void
test_one_column_csv (void)
{
  if (skipped_under_asan ())
    return;
  guint64 n = 4 << 20;
  g_autofree char *path = tmp_path ("column.csv");
  FILE *f = fopen (path, "w");
  g_assert_nonnull (f);
  for (guint64 i = 0; i + 1 < n; i++)
    fprintf (f, "%" G_GUINT64_FORMAT "\n", i * 7919 % 1000003);
  fprintf (f, "0.5\n");
  g_assert_cmpint (fclose (f), ==, 0);

  Run r;
  g_autofree char *npy = tmp_path ("column.npy");
  run_big (&r, 400 * MIB, "convert", path, npy, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "4194304 × 1 float64");
  assert_peak_within (&r, n * 8);
  GStatBuf st;
  g_assert_cmpint (g_stat (npy, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, 128 + n * 8);
  run_clear (&r);
  g_unlink (npy);

  /* 120 MiB: the program and the int32 column fit, not the float64 one
   * beside it */
  run_big (&r, 120 * MIB, "convert", path, npy, NULL);
  assert_refused_for_room (&r, "column.csv");
  assert_has (r.err, "float64");
  assert_folder_holds (1);
  run_clear (&r);
  g_unlink (path);
}

/* A run record with two million numbers in `extensions` (12 MB): they
 * stay packed (16 MiB, where a tree would need some 250 MiB), so the
 * record is drawn under a 200 MiB limit with its peak within 1.5 × the
 * file + 64 MiB. */
static void
test_record_extensions (void)
{
  if (skipped_under_asan ())
    return;
  g_autofree char *record = tmp_path ("r.json");
  const char *args[] = { "gemm", "--kernel", "cpu-naive", "--size", "8", "--record", record,
                         NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_assert_cmpint (cli_test_spawn (args, NULL, &out, &err), ==, 0);
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (record, &text, &len, NULL));
  char *last = strrchr (text, '}');
  g_assert_nonnull (last);
  g_autoptr (GString) big = g_string_new_len (text, last - text);
  g_string_append (big, ", \"extensions\": {\"big\": [0.125");
  for (int k = 1; k < 2000000; k++)
    g_string_append (big, ",0.125");
  g_string_append (big, "]}");
  g_string_append (big, last);
  g_assert_true (g_file_set_contents (record, big->str, (gssize) big->len, NULL));

  Run r;
  g_autofree char *png = tmp_path ("r.png");
  run_big (&r, 200 * MIB, "render", "--view", "compare", "-r", record, "-o", png, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_peak_within (&r, big->len);
  assert_folder_holds (2);
  run_clear (&r);
  g_unlink (png);
  g_unlink (record);
}

/* A run record of n block timings written to path by the record writer,
 * in a child process: its memory (the writer's tree) must not count
 * towards the peak of the CLI forked from this one later. */
static void
write_blocks_record (const char *path, guint n)
{
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (8192, 64, 8192, TL_DTYPE_FLOAT32);
      g_autoptr (TlRunRecord) record = tl_run_record_new (job);
      TlKernelRun *run = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
      double ms = 1.5;
      tl_kernel_run_set_samples (run, &ms, 1);
      TlBlockRecord *blocks = g_new0 (TlBlockRecord, n);
      for (guint i = 0; i < n; i++)
        blocks[i] = (TlBlockRecord) { i % 640, i / 640, i % 2, 0, 1000003ull * (i % 997),
                                      1000003ull * (i % 997) + 40000 + i % 7919 };
      tl_kernel_run_take_blocks (run, blocks, n, "thread");
      g_ptr_array_add (record->runs, run);
      _exit (tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, NULL) ? 0 : 1);
    }
  int status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* A run record of 400,000 block timings (some 12 MB of numbers), as an
 * instrumented GPU run of a large C writes it: drawn with its peak within
 * 1.5 × the file + 64 MiB — the numbers are packed, never a tree. */
static void
test_record_blocks (void)
{
  if (skipped_under_asan ())
    return;
  g_autofree char *path = tmp_path ("blocks.json");
  write_blocks_record (path, 400000);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);

  Run r;
  g_autofree char *png = tmp_path ("blocks.png");
  run_big (&r, 4096 * MIB, "render", "--view", "blocks", "-r", path, "-o", png, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_peak_within (&r, (guint64) st.st_size);
  run_clear (&r);
  g_unlink (png);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 77;
  tmp_dir = g_dir_make_tmp ("tilelab-big-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_test_add_func ("/cli-big/wide-npy", test_wide_npy);
  g_test_add_func ("/cli-big/info-streams", test_info_streams);
  g_test_add_func ("/cli-big/info-too-wide", test_info_too_wide);
  g_test_add_func ("/cli-big/info-streams-mtx", test_info_streams_mtx);
  g_test_add_func ("/cli-big/holey-mtx", test_holey_mtx);
  g_test_add_func ("/cli-big/one-column-csv", test_one_column_csv);
  g_test_add_func ("/cli-big/record-extensions", test_record_extensions);
  g_test_add_func ("/cli-big/record-blocks", test_record_blocks);
  int status = g_test_run ();
  g_rmdir (tmp_dir);
  return status;
}
