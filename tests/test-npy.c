/* test-npy.c — NumPy .npy files, made byte by byte (no Python needed). */
#include "io-test-util.h"

/* An .npy file: magic, version, header length, the dict padded to 64,
 * then the data bytes as given. */
static GByteArray *
make_npy (int major, const char *dict, const void *data, gsize data_len)
{
  GByteArray *b = g_byte_array_new ();
  gsize prefix = major == 1 ? 10 : 12;
  gsize dict_len = strlen (dict);
  gsize total = (prefix + dict_len + 1 + 63) / 64 * 64;
  gsize hlen = total - prefix;
  guint8 pre[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', (guint8) major, 0 };
  for (gsize k = 0; k < prefix - 8; k++)
    pre[8 + k] = (guint8) (hlen >> (8 * k));
  g_byte_array_append (b, pre, (guint) prefix);
  g_byte_array_append (b, (const guint8 *) dict, (guint) dict_len);
  for (gsize k = dict_len; k + 1 < hlen; k++)
    g_byte_array_append (b, (const guint8 *) " ", 1);
  g_byte_array_append (b, (const guint8 *) "\n", 1);
  if (data_len)
    g_byte_array_append (b, data, (guint) data_len);
  return b;
}

static char *
write_npy (const char *dir, const char *name, int major, const char *dict, const void *data,
           gsize data_len)
{
  g_autoptr (GByteArray) b = make_npy (major, dict, data, data_len);
  return io_test_write (dir, name, b->data, b->len);
}

static TlMatrix *
load_ok (const char *path)
{
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static void
swap (void *p, gsize size)
{
  guint8 *b = p;
  for (gsize a = 0, z = size - 1; a < z; a++, z--)
    {
      guint8 t = b[a];
      b[a] = b[z];
      b[z] = t;
    }
}

static void
round_trip_case (const TlMatrix *m, const char *path, gpointer data)
{
  io_test_round_trip (m, path, TL_FORMAT_AUTO, TRUE);

  /* what we write is what numpy writes: v1, 64-byte aligned, '\n' */
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_cmpmem (bytes, 8, "\x93NUMPY\x01\x00", 8);
  gsize hlen = (guint8) bytes[8] | (gsize) (guint8) bytes[9] << 8;
  g_assert_cmpuint ((10 + hlen) % 64, ==, 0);
  g_assert_cmpint (bytes[10 + hlen - 1], ==, '\n');
  g_assert_cmpuint (len - 10 - hlen, ==, tl_matrix_n_bytes (m));
}

static void
test_round_trip (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  io_test_for_each_case (dir, "m.npy", round_trip_case, NULL);

  /* a view (stride > cols) is written by rows */
  g_autoptr (TlMatrix) big = io_test_random (TL_DTYPE_FLOAT64, 9, 11);
  g_autoptr (TlMatrix) view = tl_matrix_view (big, 2, 3, 4, 5);
  g_autofree char *vpath = g_build_filename (dir, "view.npy", NULL);
  io_test_round_trip (view, vpath, TL_FORMAT_NPY, TRUE);
  io_test_rmdir (dir);
}

static void
test_variants (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  double d6[6];
  for (int k = 0; k < 6; k++)
    d6[k] = g_test_rand_double_range (-100, 100);

  /* v2 and v3 headers */
  for (int major = 2; major <= 3; major++)
    {
      g_autofree char *p = write_npy (dir, major == 2 ? "v2.npy" : "v3.npy", major,
                                      "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                                      d6, sizeof d6);
      g_autoptr (TlMatrix) m = load_ok (p);
      g_assert_cmpint (m->dtype, ==, TL_DTYPE_FLOAT64);
      g_assert_cmpuint (m->rows, ==, 2);
      g_assert_cmpfloat (tl_matrix_get (m, 1, 2), ==, d6[5]);
    }

  /* Fortran order: the data is column by column */
  {
    g_autofree char *p = write_npy (dir, "fortran.npy", 1,
                                    "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                                    d6, sizeof d6);
    g_autoptr (TlMatrix) m = load_ok (p);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        g_assert_cmpfloat (tl_matrix_get (m, i, j), ==, d6[j * 2 + i]);
  }

  /* big-endian f8, f4, i4, i8 */
  {
    double be[6];
    memcpy (be, d6, sizeof be);
    for (int k = 0; k < 6; k++)
      swap (&be[k], 8);
    g_autofree char *p = write_npy (dir, "be8.npy", 1,
                                    "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2)}",
                                    be, sizeof be);
    g_autoptr (TlMatrix) m = load_ok (p);
    g_assert_cmpfloat (tl_matrix_get (m, 2, 1), ==, d6[5]);

    float f[6];
    for (int k = 0; k < 6; k++)
      f[k] = (float) d6[k], swap (&f[k], 4);
    g_autofree char *p4 = write_npy (dir, "be4.npy", 1,
                                     "{\"descr\": \">f4\", \"fortran_order\": True, \"shape\": (3, 2)}",
                                     f, sizeof f);
    g_autoptr (TlMatrix) m4 = load_ok (p4);
    g_assert_cmpint (m4->dtype, ==, TL_DTYPE_FLOAT32);
    g_assert_cmpfloat (tl_matrix_get (m4, 1, 1), ==, (float) d6[4]);

    gint32 i4[6] = { 1, -2, 3, G_MAXINT32, G_MININT32, 77 };
    for (int k = 0; k < 6; k++)
      swap (&i4[k], 4);
    g_autofree char *pi = write_npy (dir, "bei4.npy", 1,
                                     "{'descr': '>i4', 'fortran_order': False, 'shape': (6,), }",
                                     i4, sizeof i4);
    g_autoptr (TlMatrix) mi = load_ok (pi);
    g_assert_cmpint (mi->dtype, ==, TL_DTYPE_INT32);
    g_assert_cmpuint (mi->rows, ==, 6);
    g_assert_cmpuint (mi->cols, ==, 1);
    g_assert_cmpfloat (tl_matrix_get (mi, 4, 0), ==, (double) G_MININT32);

    gint64 i8[2] = { -5, 123456789 };
    swap (&i8[0], 8), swap (&i8[1], 8);
    g_autofree char *p8 = write_npy (dir, "bei8.npy", 1,
                                     "{'descr': '>i8', 'fortran_order': False, 'shape': (1, 2), }",
                                     i8, sizeof i8);
    g_autoptr (TlMatrix) m8 = load_ok (p8);
    g_assert_cmpint (m8->dtype, ==, TL_DTYPE_INT32);
    g_assert_cmpfloat (tl_matrix_get (m8, 0, 1), ==, 123456789.0);
  }

  /* little-endian i8 that fits, 1-byte types with '|', int16 */
  {
    gint64 i8[3] = { G_MAXINT32, G_MININT32, 0 };
    g_autofree char *p = write_npy (dir, "i8.npy", 1,
                                    "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
                                    i8, sizeof i8);
    g_autoptr (TlMatrix) m = load_ok (p);
    g_assert_cmpfloat (tl_matrix_get (m, 1, 0), ==, (double) G_MININT32);

    guint8 u1[4] = { 0, 255, 7, 128 };
    g_autofree char *pu = write_npy (dir, "u1.npy", 1,
                                     "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }",
                                     u1, sizeof u1);
    g_autoptr (TlMatrix) mu = load_ok (pu);
    g_assert_cmpfloat (tl_matrix_get (mu, 0, 1), ==, 255.0);

    gint16 i2[2] = { -300, 300 };
    g_autofree char *p2 = write_npy (dir, "i2.npy", 1,
                                     "{'descr': '<i2', 'fortran_order': False, 'shape': (1, 2), }",
                                     i2, sizeof i2);
    g_autoptr (TlMatrix) m2 = load_ok (p2);
    g_assert_cmpfloat (tl_matrix_get (m2, 0, 0), ==, -300.0);
  }

  /* keys in any order, Python 2 longs, an empty matrix */
  {
    g_autofree char *p = write_npy (dir, "order.npy", 1,
                                    "{'shape': (0L, 3L), 'fortran_order': False, 'descr': '<f4'}",
                                    NULL, 0);
    g_autoptr (TlMatrix) m = load_ok (p);
    g_assert_cmpuint (m->rows, ==, 0);
    g_assert_cmpuint (m->cols, ==, 3);
  }
  io_test_rmdir (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  double d4[4] = { 1, 2, 3, 4 };
  static const struct { const char *name, *dict; int code; } header_cases[] = {
    { "object.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }", TL_ERROR_UNSUPPORTED },
    { "structured.npy", "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (4,), }", TL_ERROR_UNSUPPORTED },
    { "complex.npy", "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", TL_ERROR_UNSUPPORTED },
    { "string.npy", "{'descr': '<U8', 'fortran_order': False, 'shape': (1,), }", TL_ERROR_UNSUPPORTED },
    { "scalar.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", TL_ERROR_UNSUPPORTED },
    { "3d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 2), }", TL_ERROR_UNSUPPORTED },
    { "noorder.npy", "{'descr': '|i4', 'fortran_order': False, 'shape': (2, 2), }", TL_ERROR_PARSE },
    { "f2.npy", "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", TL_ERROR_UNSUPPORTED },
    { "nokey.npy", "{'descr': '<f8', 'shape': (2, 2), }", TL_ERROR_PARSE },
    { "extrakey.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", TL_ERROR_PARSE },
    { "twice.npy", "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 2)}", TL_ERROR_PARSE },
    { "notbool.npy", "{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 2), }", TL_ERROR_PARSE },
    { "negshape.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-2, 2), }", TL_ERROR_PARSE },
    { "badshape.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2 2), }", TL_ERROR_PARSE },
    { "nodict.npy", "descr: <f8", TL_ERROR_PARSE },
    { "unclosed.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2)", TL_ERROR_PARSE },
    { "trailing.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2)} x", TL_ERROR_PARSE },
    { "huge.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (4000000000, 4000000000), }", TL_ERROR_TOO_LARGE },
    { "overflow.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 2), }", TL_ERROR_PARSE },
  };
  for (gsize k = 0; k < G_N_ELEMENTS (header_cases); k++)
    {
      g_autofree char *p = write_npy (dir, header_cases[k].name, 1, header_cases[k].dict, d4, sizeof d4);
      io_test_expect_error (p, TL_FORMAT_AUTO, header_cases[k].code,
                            header_cases[k].code == TL_ERROR_TOO_LARGE ? ": a 4000000000"
                                                                       : ": header byte");
    }

  /* the data must match the shape */
  g_autofree char *trunc = write_npy (dir, "truncated.npy", 1,
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", d4, sizeof d4);
  io_test_expect_error (trunc, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 128: the data is truncated");
  g_autofree char *extra = write_npy (dir, "extra.npy", 1,
    "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3), }", d4, sizeof d4);
  io_test_expect_error (extra, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 128:");

  /* int64 values beyond int32 */
  gint64 wide[2] = { 1, G_GINT64_CONSTANT (5000000000) };
  g_autofree char *w = write_npy (dir, "wide.npy", 1,
    "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2), }", wide, sizeof wide);
  io_test_expect_error (w, TL_FORMAT_AUTO, TL_ERROR_UNSUPPORTED, ": the value at row 1, column 2");

  /* bad magic, short file, bad version, header length past the end */
  g_autofree char *magic = io_test_write (dir, "magic.npy", "\x93NUMPZ\x01\x00\x10\x00{}", 12);
  io_test_expect_error (magic, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 0:");
  g_autofree char *shortf = io_test_write (dir, "short.npy", "\x93NUM", 4);
  io_test_expect_error (shortf, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 0:");
  g_autofree char *empty = io_test_write (dir, "empty.npy", "", 0);
  io_test_expect_error (empty, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 0:");
  g_autofree char *version = io_test_write (dir, "version.npy", "\x93NUMPY\x04\x00\x02\x00{}", 12);
  io_test_expect_error (version, TL_FORMAT_AUTO, TL_ERROR_UNSUPPORTED, ": byte 6:");
  g_autofree char *hlen = io_test_write (dir, "hlen.npy", "\x93NUMPY\x01\x00\xff\x00{}", 12);
  io_test_expect_error (hlen, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": byte 8:");
  g_autofree char *nonascii = write_npy (dir, "nonascii.npy", 1,
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), '\xc3\xa9': 1}", d4, sizeof d4);
  io_test_expect_error (nonascii, TL_FORMAT_AUTO, TL_ERROR_PARSE, ": header byte");
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/npy/round-trip", test_round_trip);
  g_test_add_func ("/npy/variants", test_variants);
  g_test_add_func ("/npy/errors", test_errors);
  return g_test_run ();
}
