/* io-test-util.h — shared by the format tests: random matrices, a scratch
 * directory, and checks on error messages. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "io/tl-io.h"

/* Random values that exercise the printer: mixed signs and magnitudes,
 * never all zero; int32 includes the extremes of its range. */
static inline TlMatrix *
io_test_random (TlDtype dtype, gsize rows, gsize cols)
{
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, NULL);
  g_assert_nonnull (m);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      {
        double v;
        switch (dtype)
          {
          case TL_DTYPE_INT32:
            {
              gint32 r = g_test_rand_int_range (-1000000, 1000000);
              if (g_test_rand_int_range (0, 10) == 0)
                r = g_test_rand_bit () ? G_MAXINT32 : G_MININT32;
              if (r == 0)
                r = 7;
              ((gint32 *) tl_matrix_row (m, i))[j] = r;
              continue;
            }
          case TL_DTYPE_FLOAT32:
            v = g_test_rand_double_range (-1.0, 1.0) * pow (10.0, g_test_rand_int_range (-30, 30));
            ((float *) tl_matrix_row (m, i))[j] = (float) v;
            continue;
          case TL_DTYPE_FLOAT64:
          default:
            v = g_test_rand_double_range (-1.0, 1.0) * pow (10.0, g_test_rand_int_range (-300, 300));
            ((double *) tl_matrix_row (m, i))[j] = v;
            continue;
          }
      }
  /* a value that is an exact integer, so float columns are not all fractions */
  if (dtype != TL_DTYPE_INT32 && rows * cols > 1)
    tl_matrix_set (m, 0, 0, 3.0);
  return m;
}

/* Puts NaN, +Inf and −Inf into a float matrix (where there is room). */
static inline void
io_test_add_nonfinite (TlMatrix *m)
{
  if (m->dtype == TL_DTYPE_INT32)
    return;
  gsize n = m->rows * m->cols;
  if (n >= 1)
    tl_matrix_set (m, (n - 1) / m->cols, (n - 1) % m->cols, NAN);
  if (n >= 3)
    {
      tl_matrix_set (m, 1 / m->cols, 1 % m->cols, INFINITY);
      tl_matrix_set (m, 2 / m->cols, 2 % m->cols, -INFINITY);
    }
}

static inline char *
io_test_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("tilelab-io-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

/* Removes the files in a scratch directory and the directory itself. */
static inline void
io_test_rmdir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
}

/* Writes a scratch file without the fsync of g_file_set_contents (tests
 * write thousands). */
static inline gboolean
io_test_set (const char *path, const void *data, gsize len)
{
  return g_file_set_contents_full (path, data, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0644,
                                   NULL);
}

static inline char *
io_test_write (const char *dir, const char *name, const void *data, gsize len)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);
  g_file_set_contents_full (path, data, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0644, &error);
  g_assert_no_error (error);
  return path;
}

static inline char *
io_test_write_text (const char *dir, const char *name, const char *text)
{
  return io_test_write (dir, name, text, strlen (text));
}

/* Loads path expecting an error with the given code, whose message names
 * the file and (when where is not NULL) contains where, e.g. ":4:". */
static inline void
io_test_expect_error (const char *path, TlFormat format, int code, const char *where)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load (path, format, &error);
  if (m != NULL)
    g_error ("%s: loaded as %zu×%zu, expected an error", path, m->rows, m->cols);
  g_assert_nonnull (error);
  if (!g_error_matches (error, TL_ERROR, code))
    g_error ("%s: expected error code %d, got %d: %s", path, code, error->code, error->message);
  g_autofree char *base = g_path_get_basename (path);
  if (strstr (error->message, base) == NULL)
    g_error ("message does not name the file %s: %s", base, error->message);
  if (where != NULL)
    {
      g_autofree char *needle = g_strconcat (base, where, NULL);
      if (strstr (error->message, needle) == NULL)
        g_error ("message lacks “%s”: %s", needle, error->message);
    }
  g_test_message ("%s", error->message);
}

/* Saves and loads again; the result, in the original dtype, must be
 * bit-equal (NaN == NaN). */
static inline void
io_test_round_trip (const TlMatrix *m, const char *path, TlFormat format, gboolean same_dtype)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_matrix_save (m, path, format, &error));
  g_assert_no_error (error);
  g_autoptr (TlMatrix) back = tl_matrix_load (path, format, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->rows, ==, m->rows);
  g_assert_cmpuint (back->cols, ==, m->cols);
  if (same_dtype)
    g_assert_cmpint (back->dtype, ==, m->dtype);
  g_autoptr (TlMatrix) conv = tl_matrix_convert (back, m->dtype, &error);
  g_assert_no_error (error);
  if (!tl_matrix_equal (conv, m))
    {
      for (gsize i = 0; i < m->rows; i++)
        for (gsize j = 0; j < m->cols; j++)
          if (tl_matrix_get (conv, i, j) != tl_matrix_get (m, i, j)
              && !(isnan (tl_matrix_get (conv, i, j)) && isnan (tl_matrix_get (m, i, j))))
            g_error ("%s: (%zu, %zu) was %.17g, read back %.17g", path, i, j,
                     tl_matrix_get (m, i, j), tl_matrix_get (conv, i, j));
      g_error ("%s: round trip differs", path);
    }
}

static const struct { gsize rows, cols; } io_test_shapes[] = {
  { 1, 1 }, { 1, 17 }, { 19, 1 }, { 7, 13 }, { 32, 33 },
};

/* Called once per case of io_test_for_each_case: a fresh random matrix and
 * a scratch path to save it to. */
typedef void (*IoTestCaseFunc) (const TlMatrix *m, const char *path, gpointer data);

/* Every dtype × every shape in io_test_shapes × with and without NaN/±Inf:
 * a random matrix, handed to func with the path dir/name. */
static inline void
io_test_for_each_case (const char *dir, const char *name, IoTestCaseFunc func, gpointer data)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    for (gsize s = 0; s < G_N_ELEMENTS (io_test_shapes); s++)
      for (int nonfinite = 0; nonfinite < 2; nonfinite++)
        {
          g_autoptr (TlMatrix) m = io_test_random (d, io_test_shapes[s].rows, io_test_shapes[s].cols);
          if (nonfinite)
            io_test_add_nonfinite (m);
          func (m, path, data);
        }
}

/* Writes text to dir/name and loads it, which must succeed. */
static inline TlMatrix *
io_test_load_text (const char *dir, const char *name, const char *text, TlFormat format)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *p = io_test_write_text (dir, name, text);
  TlMatrix *m = tl_matrix_load (p, format, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

/* m is rows×cols and holds want (row-major), exactly. */
static inline void
io_test_assert_values (const TlMatrix *m, gsize rows, gsize cols, const double *want)
{
  g_assert_cmpuint (m->rows, ==, rows);
  g_assert_cmpuint (m->cols, ==, cols);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      if (tl_matrix_get (m, i, j) != want[i * cols + j])
        g_error ("(%zu, %zu) is %g, expected %g", i, j, tl_matrix_get (m, i, j), want[i * cols + j]);
}

/* A file that must not load: its text (len bytes; 0 means up to the NUL),
 * the error code, and where the message must point (or NULL). */
typedef struct
{
  const char *name, *text;
  int code;
  const char *where;
  gsize len;
} IoTestErrorCase;

/* Writes each case into dir and expects its error from loading as format. */
static inline void
io_test_expect_errors (const char *dir, const IoTestErrorCase *cases, gsize n, TlFormat format)
{
  for (gsize k = 0; k < n; k++)
    {
      gsize len = cases[k].len ? cases[k].len : strlen (cases[k].text);
      g_autofree char *p = io_test_write (dir, cases[k].name, cases[k].text, len);
      io_test_expect_error (p, format, cases[k].code, cases[k].where);
    }
}

/* Saves m as dir/name (the format from the name) and returns the bytes of
 * the file, *len of them. */
static inline char *
io_test_save_bytes (const char *dir, const char *name, const TlMatrix *m, gsize *len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, NULL));
  char *bytes = NULL;
  g_assert_true (g_file_get_contents (path, &bytes, len, NULL));
  return bytes;
}
