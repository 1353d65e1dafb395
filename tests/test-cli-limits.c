/* test-cli-limits.c — tilelab-cli under a small ulimit -v: OpenBLAS's
 * thread pool and work buffers within the room, so that every command
 * ends — with its result or with a sentence naming the room — and none
 * spins or hangs (OpenBLAS retries a failed map forever). */
#include "cli-test-util.h"
#include "gemm/tl-blas.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void
limit_address_space (gpointer data)
{
  rlim_t bytes = (rlim_t) GPOINTER_TO_SIZE (data);
  struct rlimit rl = { bytes, bytes };
  setrlimit (RLIMIT_AS, &rl);
}

/* tilelab-cli args… under ulimit -v kib and `timeout 60` (124: it hung) */
static int
run_limited (gsize kib, char **out, char **err, const char *first, ...)
{
  va_list ap;
  va_start (ap, first);
  g_autoptr (GPtrArray) argv = cli_test_timeout_argv_va (first, ap);
  va_end (ap);
  g_autoptr (GError) error = NULL;
  int wait_status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH,
                               limit_address_space, GSIZE_TO_POINTER (kib << 10), out, err,
                               &wait_status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (wait_status))
    g_error ("tilelab-cli %s under ulimit -v %zu: killed by signal %d; stderr: %s", first, kib,
             WIFSIGNALED (wait_status) ? WTERMSIG (wait_status) : -1, err ? *err : "");
  return WEXITSTATUS (wait_status);
}

static void
limit_file_size (gpointer data)
{
  struct rlimit rl = { (rlim_t) GPOINTER_TO_SIZE (data), (rlim_t) GPOINTER_TO_SIZE (data) };
  setrlimit (RLIMIT_FSIZE, &rl);
}

/* Past ulimit -f (1 MiB): convert and generate are not killed by SIGXFSZ
 * but say "File too large" about the file, exit 1, leave no temporary,
 * and a file that was there stays as it was. */
static void
test_file_size_limit (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-fsize-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *in = g_build_filename (dir, "in.mtx", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  /* 2000 × 2000 with two entries: 8 MB of CSV */
  g_assert_true (g_file_set_contents (in, "%%MatrixMarket matrix coordinate real general\n"
                                          "2000 2000 2\n1 1 1.5\n2000 2000 -2\n", -1, NULL));
  g_assert_true (g_file_set_contents (out, "kept\n", -1, NULL));
  const char *const commands[][7] = {
    { cli_path, "convert", in, out, NULL },
    { cli_path, "generate", "random-normal", "--size", "2000", "-o", out },
  };
  for (guint k = 0; k < G_N_ELEMENTS (commands); k++)
    {
      const char *argv[8] = { 0 };
      memcpy (argv, commands[k], sizeof commands[k]);
      g_autofree char *err = NULL;
      int wait_status = 0;
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                                   limit_file_size, GSIZE_TO_POINTER (1 << 20), NULL, &err,
                                   &wait_status, &error));
      g_assert_no_error (error);
      g_test_message ("%s: %s", argv[1], err);
      g_assert_true (WIFEXITED (wait_status)); /* not killed by SIGXFSZ */
      g_assert_cmpint (WEXITSTATUS (wait_status), ==, 1);
      g_assert_nonnull (strstr (err, "out.csv: cannot write: "));
      g_assert_nonnull (strstr (err, g_strerror (EFBIG)));
      g_autofree char *kept = NULL;
      g_assert_true (g_file_get_contents (out, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, "kept\n");
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;
      while ((name = g_dir_read_name (d)) != NULL)
        g_assert_true (strcmp (name, "in.mtx") == 0 || strcmp (name, "out.csv") == 0);
    }
  g_remove (in);
  g_remove (out);
  g_rmdir (dir);
}

static void
test_threads_for_room (void)
{
  /* the pool's buffers in at most half the room, at least the caller */
  g_assert_cmpuint (tl_blas_threads_for_room (16, 0), ==, 1);
  g_assert_cmpuint (tl_blas_threads_for_room (16, 2 * TL_BLAS_THREAD_BYTES - 1), ==, 1);
  g_assert_cmpuint (tl_blas_threads_for_room (16, 2 * TL_BLAS_THREAD_BYTES), ==, 2);
  g_assert_cmpuint (tl_blas_threads_for_room (16, (guint64) 4 << 30), ==, 16);
  g_assert_cmpuint (tl_blas_threads_for_room (128, (guint64) 4 << 30), ==, 16);
  g_assert_cmpuint (tl_blas_threads_for_room (0, (guint64) 4 << 30), ==, 1);
}

static char *
write_matrix (const char *dir)
{
  char *path = g_build_filename (dir, "a.txt", NULL);
  g_assert_true (g_file_set_contents (path, "2 1\n1 3\n", -1, NULL));
  return path;
}

/* 150 MB: the program fits, OpenBLAS's 128 MiB buffer beside it does not.
 * Commands without BLAS work (the Gauss commands with --mod P too); those
 * with it say so at once. */
static void
test_small_limit (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  g_autofree char *dir = g_dir_make_tmp ("tilelab-limits-XXXXXX", NULL);
  g_autofree char *a = write_matrix (dir);
  g_autofree char *out = NULL, *err = NULL;
  int status = run_limited (150000, &out, &err, "info", a, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "2 × 2"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  status = run_limited (150000, &out, &err, "det", a, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "OpenBLAS"));
  g_assert_nonnull (strstr (err, "of address space for its work buffer"));
  g_assert_nonnull (strstr (err, "ulimit -v is 146.5"));
  g_test_message ("%s", err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* exact arithmetic over GF(7) needs no BLAS: it runs in the same room */
  status = run_limited (150000, &out, &err, "det", a, "--mod", "7", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_null (strstr (err, "OpenBLAS"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  status = run_limited (150000, &out, &err, "rank", a, "-p", "7", NULL);
  g_assert_cmpint (status, ==, 0);
  g_unlink (a);
  g_rmdir (dir);
}

/* 1 GiB: BLAS fits, but not a pool of 64 threads (128 MiB each); the
 * GEMM runs with the threads that fit instead of hanging. */
static void
test_many_threads (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  g_autofree char *out = NULL, *err = NULL;
  int status = run_limited (1 << 20, &out, &err, "gemm", "--size", "48", "--kernel",
                            "cpu-openblas", "--threads", "64", NULL);
  if (status != 0)
    g_printerr ("%s", err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "PASS"));
}

/* Inputs that are no matrix file, under 4 GiB of address space (the
 * issue's limit; AddressSanitizer's build keeps its own): each ends at
 * once with exit 1 and a sentence naming the file — a FIFO without a
 * writer (reading it would wait for ever), a folder, an endless device, a
 * symbolic link loop, a name that is not UTF-8. */
static void
test_hostile_inputs (void)
{
#if defined(__SANITIZE_ADDRESS__)
  const gsize kib = G_MAXSIZE >> 10; /* no limit of ours */
#else
  const gsize kib = 4194304;
#endif
  g_autofree char *dir = g_dir_make_tmp ("tilelab-inputs-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.csv", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_autofree char *folder = g_build_filename (dir, "folder.csv", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_autofree char *loop = g_build_filename (dir, "loop.csv", NULL);
  g_assert_cmpint (symlink ("loop.csv", loop), ==, 0);
  g_autofree char *odd = g_build_filename (dir, "bad\xff.csv", NULL);
  const struct { const char *path, *says; } cases[] = {
    { fifo, "not a regular file" },
    { folder, "is a folder" },
    { "/dev/zero", "not a regular file" },
    { loop, g_strerror (ELOOP) },
    { odd, g_strerror (ENOENT) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int status = run_limited (kib, &out, &err, "info", cases[i].path, NULL);
      g_test_message ("%s", err);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, cases[i].says));
    }
  g_unlink (fifo);
  g_rmdir (folder);
  g_unlink (loop);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 77;
  g_test_add_func ("/cli-limits/threads-for-room", test_threads_for_room);
  g_test_add_func ("/cli-limits/small", test_small_limit);
  g_test_add_func ("/cli-limits/many-threads", test_many_threads);
  g_test_add_func ("/cli-limits/file-size", test_file_size_limit);
  g_test_add_func ("/cli-limits/hostile-inputs", test_hostile_inputs);
  return g_test_run ();
}
