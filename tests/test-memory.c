/* test-memory.c — the memory budget: its sources (meminfo, status, cgroups
 * v1 and v2 with their ancestors), its messages, and allocations that fail
 * into errors under ulimit -v and ulimit -d instead of aborting. */
#include "core/tl-memory.h"
#include "core/tl-error.h"
#include "core/tl-matrix.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static void
test_parse_kib (void)
{
  const char *status = "Name:\tx\nVmPeak:\t  9000 kB\nVmSize:\t    3896 kB\nVmData:\t 428 kB\n";
  guint64 v = 0;
  g_assert_true (tl_memory_parse_kib (status, "VmSize", &v));
  g_assert_cmpuint (v, ==, 3896 * 1024);
  g_assert_true (tl_memory_parse_kib (status, "VmData", &v));
  g_assert_cmpuint (v, ==, 428 * 1024);
  /* a key is a whole word at the start of a line */
  g_assert_false (tl_memory_parse_kib (status, "Vm", &v));
  g_assert_false (tl_memory_parse_kib (status, "Size", &v));
  g_assert_false (tl_memory_parse_kib ("VmSize:\tlots\n", "VmSize", &v));
}

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static char *
make_dir (const char *root, const char *rel)
{
  char *dir = g_build_filename (root, rel, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return dir;
}

static void
remove_tree (const char *path)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", path);
  g_assert_cmpint (system (cmd), ==, 0);
}

/* cgroup v2: the leaf has no limit, its parent does, the grandparent a
 * looser one: the parent's room (limit − use) is the budget */
static void
test_cgroup_v2_ancestors (void)
{
  g_autofree char *root = g_dir_make_tmp ("tl-cgroup-XXXXXX", NULL);
  g_autofree char *top = make_dir (root, "sys/fs/cgroup");
  g_autofree char *grand = make_dir (top, "user.slice");
  g_autofree char *parent = make_dir (top, "user.slice/app");
  g_autofree char *leaf = make_dir (top, "user.slice/app/tilelab");
  write_file (leaf, "memory.max", "max\n");
  write_file (leaf, "memory.current", "1000\n");
  write_file (parent, "memory.max", "4294967296\n");
  write_file (parent, "memory.current", "1073741824\n");
  write_file (grand, "memory.max", "8589934592\n");
  write_file (grand, "memory.current", "1073741824\n");
  const char *mountinfo =
    "30 22 0:27 / /sys/fs/cgroup rw,relatime shared:1 - cgroup2 cgroup2 rw\n";
  guint64 limit = 0, used = 0;
  g_assert_true (tl_memory_cgroup_room ("0::/user.slice/app/tilelab\n", mountinfo, root,
                                        &limit, &used));
  g_assert_cmpuint (limit, ==, 4294967296);
  g_assert_cmpuint (used, ==, 1073741824);

  /* no limit anywhere: nothing to say */
  write_file (parent, "memory.max", "max\n");
  write_file (grand, "memory.max", "max\n");
  g_assert_false (tl_memory_cgroup_room ("0::/user.slice/app/tilelab\n", mountinfo, root,
                                         &limit, &used));
  remove_tree (root);
}

/* cgroup v1 (the memory controller on its own mount, as in hybrid
 * systems and older containers), its "unlimited" being 2⁶³ less a page */
static void
test_cgroup_v1 (void)
{
  g_autofree char *root = g_dir_make_tmp ("tl-cgroup-XXXXXX", NULL);
  g_autofree char *top = make_dir (root, "sys/fs/cgroup/memory");
  g_autofree char *leaf = make_dir (top, "process_api/abc");
  write_file (top, "memory.limit_in_bytes", "9223372036854771712\n");
  write_file (top, "memory.usage_in_bytes", "999999\n");
  write_file (leaf, "memory.limit_in_bytes", "2147483648\n");
  write_file (leaf, "memory.usage_in_bytes", "536870912\n");
  const char *cgroup = "9:name=systemd:/\n4:memory:/process_api/abc\n0::/\n";
  const char *mountinfo =
    "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
  guint64 limit = 0, used = 0;
  g_assert_true (tl_memory_cgroup_room (cgroup, mountinfo, root, &limit, &used));
  g_assert_cmpuint (limit, ==, 2147483648);
  g_assert_cmpuint (used, ==, 536870912);

  /* a container whose mount root is its own cgroup: "/process_api/abc"
   * is the mount's root, so the files are at the mount point */
  const char *ns_mountinfo =
    "34 30 0:31 /process_api/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
  write_file (top, "memory.limit_in_bytes", "1048576000\n");
  write_file (top, "memory.usage_in_bytes", "48576000\n");
  g_assert_true (tl_memory_cgroup_room (cgroup, ns_mountinfo, root, &limit, &used));
  g_assert_cmpuint (limit, ==, 1048576000);
  remove_tree (root);
}

static void
test_describe_and_check (void)
{
  TlMemoryBudget b = { 2254857830, TL_MEMORY_LIMIT_ADDRESS_SPACE, G_GUINT64_CONSTANT (4) << 30,
                       2040109466 };
  g_autofree char *text = tl_memory_budget_describe (&b);
  /* g_format_size puts a no-break space between number and unit */
  g_assert_cmpstr (text, ==, "2.1\u00a0GiB available (ulimit -v is 4.0\u00a0GiB, 1.9\u00a0GiB of it in use)");

  /* small sizes are not checked; absurd ones fail with the sentence */
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_memory_check (1000, "x", &error));
  g_assert_false (tl_memory_check (G_GUINT64_CONSTANT (1) << 62, "a 1×2 thing", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY);
  g_assert_true (g_str_has_prefix (error->message, "a 1×2 thing needs 4.0\u00a0EiB, "));
  g_assert_nonnull (strstr (error->message, " available ("));
  g_clear_error (&error);

  /* n × size overflows: an error, not a wrapped small block */
  gpointer p = tl_memory_alloc (G_MAXUINT64 / 4, 8, FALSE, "the sums", &error);
  g_assert_null (p);
  g_assert_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY);
  g_clear_error (&error);
  p = tl_memory_alloc (3 << 20, 1, TRUE, "the sums", &error);
  g_assert_no_error (error);
  g_assert_cmpint (((char *) p)[(3 << 20) - 1], ==, 0);
  g_free (p);
}

/* Room kept back: a block that fits the budget but not beside the kept
 * room is refused, and the sentence says how much is kept. */
static void
test_keep_back (void)
{
  TlMemoryBudget b;
  tl_memory_budget_read (&b);
  if (b.kind == TL_MEMORY_LIMIT_NONE)
    {
      g_test_skip ("no memory limit known");
      return;
    }
  g_autoptr (GError) error = NULL;
  guint64 block = TL_MEMORY_LARGE * 2;
  g_assert_true (tl_memory_check (block, "the block", &error));
  tl_memory_keep_back (b.available);
  g_assert_false (tl_memory_check (block, "the block", &error));
  tl_memory_keep_back (0);
  g_assert_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY);
  g_assert_true (g_str_has_prefix (error->message, "the block needs 2.0\u00a0MiB, "));
  g_assert_nonnull (strstr (error->message, "more is kept for the program's own work"));
  g_clear_error (&error);
  g_assert_true (tl_memory_check (block, "the block", &error));
}

/* Under a real ulimit, in a child: the budget names it, and a matrix
 * beyond it is an error with both numbers, not g_malloc's abort. */
static void
test_rlimit_child (int resource, const char *key, const char *name)
{
  TlMemoryBudget before;
  tl_memory_budget_read (&before);
  g_autofree char *status = NULL;
  guint64 used = 0;
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  g_assert_true (tl_memory_parse_kib (status, key, &used));
  struct rlimit rl = { used + (256 << 20), used + (256 << 20) };
  g_assert_cmpint (setrlimit (resource, &rl), ==, 0);

  TlMemoryBudget b;
  tl_memory_budget_read (&b);
  g_assert_cmpuint (b.available, <=, 256 << 20);
  g_assert_cmpuint (b.available, >, 200 << 20);

  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_matrix_new (TL_DTYPE_FLOAT64, 10000, 5000, &error); /* 381 MiB */
  g_assert_null (m);
  g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
  g_assert_true (g_str_has_prefix (error->message, "a 10000×5000 float64 matrix needs 381.5\u00a0MiB, "));
  g_assert_nonnull (strstr (error->message, name));
  g_clear_error (&error);
  m = tl_matrix_new (TL_DTYPE_FLOAT64, 1000, 5000, &error); /* 38 MiB: fits */
  g_assert_no_error (error);
  tl_matrix_unref (m);
}

static void
test_rlimit (gconstpointer data)
{
#ifdef UNDER_ASAN
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  const char *which = data;
  if (g_test_subprocess ())
    {
      if (strcmp (which, "as") == 0)
        test_rlimit_child (RLIMIT_AS, "VmSize", "ulimit -v");
      else
        test_rlimit_child (RLIMIT_DATA, "VmData", "ulimit -d");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The resident set, bytes. */
static guint64
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  char *rest = strchr (statm, ' ');
  g_assert_nonnull (rest);
  return g_ascii_strtoull (rest + 1, NULL, 10) * (guint64) sysconf (_SC_PAGESIZE);
}

#define MIB ((gsize) 1 << 20)

/* A remote run's work on the runner thread: a payload freed (glibc's
 * mmap threshold then rises to its size, so smaller blocks come from the
 * thread's heap), then 20 MiB of messages freed, into the heap's top. */
static gpointer
job_thread (gpointer data)
{
  char *payload = g_malloc (16 * MIB);
  memset (payload, 1, 16 * MIB);
  g_free (payload);
  char *blocks[20];
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      blocks[i] = g_malloc (MIB);
      memset (blocks[i], 1, MIB);
    }
  for (guint i = G_N_ELEMENTS (blocks); i-- > 0;)
    g_free (blocks[i]);
  return NULL;
}

/* What another thread freed goes back when the program gives back (the
 * app after a remote run): its threads share the main arena, whose free
 * top malloc_trim reaches (a thread's own arena keeps it). */
static void
test_give_back (void)
{
#if defined(UNDER_ASAN) || !defined(__GLIBC__)
  g_test_skip ("glibc's malloc only");
  return;
#endif
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }
  g_thread_join (g_thread_new ("job", job_thread, NULL));
  guint64 held = resident_bytes ();
  tl_memory_give_back ();
  guint64 after = resident_bytes ();
  g_test_message ("resident after the job %.1f MiB, given back %.1f MiB", (double) held / MIB,
                  (double) after / MIB);
  g_assert_cmpuint (after + 16 * MIB, <=, held);
}

int
main (int argc, char **argv)
{
  /* as the app's main does, before any thread */
  tl_memory_share_one_arena ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory/give-back", test_give_back);
  g_test_add_func ("/memory/parse-kib", test_parse_kib);
  g_test_add_func ("/memory/cgroup-v2-ancestors", test_cgroup_v2_ancestors);
  g_test_add_func ("/memory/cgroup-v1", test_cgroup_v1);
  g_test_add_func ("/memory/describe-and-check", test_describe_and_check);
  g_test_add_func ("/memory/keep-back", test_keep_back);
  g_test_add_data_func ("/memory/rlimit-as", "as", test_rlimit);
  g_test_add_data_func ("/memory/rlimit-data", "data", test_rlimit);
  return g_test_run ();
}
