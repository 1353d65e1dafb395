/* test-cli-gauss.c — the Gauss commands as a user runs them: lu, det,
 * solve, rank, nullspace; exit codes, explained output, bad input.
 *
 * The program is $TL_CLI, or src/cli/tilelab-cli beside this test's build
 * folder (G_TEST_BUILDDIR). */
#include "core/tl-error.h"
#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"
#include "record/tl-record-file.h"

#include "cli-test-util.h"
#include "record/tl-gauss-record.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

static char *
write_file (const char *name, const char *text)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
assert_has (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("expected “%s” in:\n%s", needle, haystack);
}

static void
test_det_hilbert (void)
{
  g_auto (Result) r;
  cli_test_run (&r, "det", "--gen", "hilbert", "--size", "6", NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "5.36729988");  /* 1/186313420339200000 */
  assert_has (r.out, "ln|det|    -39.766206");
  assert_has (r.out, "sign       +1");

  g_auto (Result) rect;
  cli_test_run (&rect, "det", "--gen", "random-uniform", "--size", "3x4", NULL);
  g_assert_cmpint (rect.status, ==, 1);
  assert_has (rect.err, "square");
}

/* Elimination of this A overflows (U(2,2) = 1e308 + 1e308): its
 * determinant comes from A with its rows scaled by powers of two, and a
 * det beyond float64 is printed as a power of ten and said to be so. */
static void
test_det_overflow (void)
{
  g_autofree char *a = write_file ("huge.txt", "2 2 float64\n1e308 1e308\n-1e308 1e308\n");
  g_auto (Result) r;
  cli_test_run (&r, "det", a, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "ln|det|    1419.08556");  /* ln 2 + 2·308·ln 10 */
  assert_has (r.out, "sign       +1");
  assert_has (r.out, "beyond double range");
  assert_has (r.out, "rows scaled by powers of two");
}

static const char singular_a[] = "4 4\n1 1 1 1\n2 2 2 2\n1 -1 0 0\n0 0 1 -1\n";

static void
test_solve_cases (void)
{
  g_autofree char *a = write_file ("a.txt", singular_a);
  g_autofree char *b = write_file ("b.txt", "4 1\n10\n20\n0\n2\n");
  g_autofree char *bad = write_file ("bad.txt", "4 1\n10\n21\n0\n2\n");
  g_autofree char *short_b = write_file ("short.txt", "2 1\n1\n2\n");
  g_autofree char *aug = write_file ("aug.txt", "3 4\n2 1 -1 8\n-3 -1 2 -11\n-2 1 2 -3\n");

  g_auto (Result) inf;
  cli_test_run (&inf, "solve", a, b, NULL);
  g_assert_cmpint (inf.status, ==, 0);
  assert_has (inf.out, "INFINITELY MANY SOLUTIONS");
  assert_has (inf.out, "rank       3 of 4");
  assert_has (inf.out, "null-space basis");

  g_auto (Result) none;
  cli_test_run (&none, "solve", a, bad, NULL);
  g_assert_cmpint (none.status, ==, 0);
  assert_has (none.out, "NO SOLUTION");

  g_auto (Result) exact;
  cli_test_run (&exact, "solve", a, b, "--mod", "1000003", NULL);
  g_assert_cmpint (exact.status, ==, 0);
  assert_has (exact.out, "INFINITELY MANY SOLUTIONS");

  /* the classic 3×3 with x = (2, 3, −1), given augmented */
  g_auto (Result) uniq;
  cli_test_run (&uniq, "solve", "--augmented", aug, NULL);
  g_assert_cmpint (uniq.status, ==, 0);
  assert_has (uniq.out, "UNIQUE SOLUTION");
  assert_has (uniq.out, "            2 ]");
  assert_has (uniq.out, "            3 ]");
  assert_has (uniq.out, "           -1 ]");

  g_auto (Result) mism;
  cli_test_run (&mism, "solve", a, short_b, NULL);
  g_assert_cmpint (mism.status, ==, 1);
  assert_has (mism.err, "mismatched right-hand side");

  g_auto (Result) norhs;
  cli_test_run (&norhs, "solve", a, NULL);
  g_assert_cmpint (norhs.status, ==, 2);
}

static void
test_lu_record (void)
{
  g_autofree char *rec = g_build_filename (tmp_dir, "steps.json", NULL);
  g_auto (Result) r;
  cli_test_run (&r, "lu", "--gen", "random-uniform", "--size", "64", "--block-size", "16", "--record", rec, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "info       0");
  assert_has (r.out, "LAPACK's test passes");
  assert_has (r.out, "64 elimination steps, 4 block steps");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_run_record_load (rec, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (record->job->kind, ==, "lu");
  g_autoptr (TlLuRecorder) steps = tl_lu_recorder_load (rec, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->steps->len, ==, 64);
  g_assert_cmpuint (steps->blocks->len, ==, 4);

  g_auto (Result) sing;
  g_autofree char *a = write_file ("sing.txt", singular_a);
  cli_test_run (&sing, "lu", a, NULL);
  g_assert_cmpint (sing.status, ==, 0); /* singular is not an error for lu */
  assert_has (sing.out, "info       4");
  assert_has (sing.out, "det        0");

  g_auto (Result) none;
  g_autofree char *swap = write_file ("swap.txt", "2 2\n0 1\n1 0\n");
  cli_test_run (&none, "lu", swap, "--pivoting", "none", "--kernel", "lu-cpu-unblocked", NULL);
  g_assert_cmpint (none.status, ==, 0);
  assert_has (none.out, "no LU without row swaps");
}

static void
test_rank_nullspace_exact (void)
{
  g_auto (Result) r;
  cli_test_run (&r, "rank", "--gen", "rank-deficient:rank=3", "--size", "8", NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "rank       3   nullity 5");

  g_autofree char *a = write_file ("ns.txt", singular_a);
  g_auto (Result) n;
  cli_test_run (&n, "nullspace", a, NULL);
  g_assert_cmpint (n.status, ==, 0);
  assert_has (n.out, "rank       3   nullity 1");
  assert_has (n.out, "max |A·N| = 0");

  /* exact and floating point agree on an integer determinant */
  g_auto (Result) f, p;
  cli_test_run (&f, "det", "--gen", "random-int", "--size", "8", NULL);
  cli_test_run (&p, "det", "--gen", "random-int", "--size", "8", "--mod", "2147483647", NULL);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpint (p.status, ==, 0);
  /* read "det        D" and "symmetric representative R"; D must be the integer R */
  const char *d = strstr (f.out, "det        ");
  const char *rep = strstr (p.out, "symmetric representative ");
  g_assert_nonnull (d);
  g_assert_nonnull (rep);
  double dv = g_ascii_strtod (d + strlen ("det        "), NULL);
  gint64 rv = g_ascii_strtoll (rep + strlen ("symmetric representative "), NULL, 10);
  g_assert_cmpfloat (dv, !=, 0.0);
  g_assert_cmpfloat (fabs (dv - (double) rv), <, 1e-6 * fabs (dv));
}

static void
test_bad_input (void)
{
  g_autofree char *nan = write_file ("nan.txt", "2 2\n1 nan\n3 4\n");
  g_auto (Result) r;
  cli_test_run (&r, "lu", nan, NULL);
  g_assert_cmpint (r.status, ==, 1);
  assert_has (r.err, "NaN at row 1, column 2");

  /* a NaN in B is named with B's file, not "the matrix" of A */
  g_autofree char *a = write_file ("a.csv", "1,2\n3,4\n");
  g_autofree char *b = write_file ("b-inf.csv", "1\n-inf\n");
  g_auto (Result) rhs;
  cli_test_run (&rhs, "solve", a, b, NULL);
  g_assert_cmpint (rhs.status, ==, 1);
  g_autofree char *named = g_strdup_printf ("%s: The matrix holds -Inf at row 2, column 1", b);
  assert_has (rhs.err, named);
  /* and a value float32 cannot hold is named as itself, not as the Inf it would become */
  g_autofree char *big = write_file ("big.csv", "1e300,0\n0,1\n");
  g_auto (Result) f32;
  cli_test_run (&f32, "det", "--dtype", "float32", big, NULL);
  g_assert_cmpint (f32.status, ==, 1);
  assert_has (f32.err, "row 1, column 1 (1.0000000000000001e+300) is beyond float32");

  g_auto (Result) piv;
  cli_test_run (&piv, "lu", "--gen", "hilbert", "--size", "3", "--pivoting", "full", NULL);
  g_assert_cmpint (piv.status, ==, 2);

  g_auto (Result) mod;
  cli_test_run (&mod, "det", "--gen", "random-int", "--size", "3", "--mod", "91", NULL);
  g_assert_cmpint (mod.status, ==, 2);
  assert_has (mod.err, "not a prime");

  g_auto (Result) frac;
  cli_test_run (&frac, "det", "--gen", "hilbert", "--size", "3", "--mod", "101", NULL);
  g_assert_cmpint (frac.status, ==, 1);
  assert_has (frac.err, "integers");

  g_auto (Result) nofile;
  cli_test_run (&nofile, "rank", "/nonexistent/m.mtx", NULL);
  g_assert_cmpint (nofile.status, ==, 1);

  g_auto (Result) gpu;
  cli_test_run (&gpu, "lu", "--gen", "random-uniform", "--size", "8", "--kernel", "lu-nonsense", NULL);
  g_assert_cmpint (gpu.status, ==, 1);
  assert_has (gpu.err, "Unknown LU kernel");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 1;
  tmp_dir = g_dir_make_tmp ("tl-cli-gauss-XXXXXX", NULL);
  g_test_add_func ("/cli-gauss/det-hilbert", test_det_hilbert);
  g_test_add_func ("/cli-gauss/det-overflow", test_det_overflow);
  g_test_add_func ("/cli-gauss/solve-cases", test_solve_cases);
  g_test_add_func ("/cli-gauss/lu-record", test_lu_record);
  g_test_add_func ("/cli-gauss/rank-nullspace-exact", test_rank_nullspace_exact);
  g_test_add_func ("/cli-gauss/bad-input", test_bad_input);
  int rc = g_test_run ();
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  for (const char *name; dir && (name = g_dir_read_name (dir));)
    {
      g_autofree char *p = g_build_filename (tmp_dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (tmp_dir);
  return rc;
}
