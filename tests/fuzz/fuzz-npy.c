/* fuzz-npy.c — NumPy .npy bytes through the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-npy.h"

static TlMatrix *
load (const void *data, size_t size, GError **error)
{
  /* fmemopen refuses an empty buffer: an empty file is one byte less */
  static const char nothing = 0;
  FILE *f = fmemopen ((void *) (size ? data : &nothing), size ? size : 1, "rb");
  g_assert (f != NULL);
  TlMatrix *m = tl_npy_load_stream ("fuzz.npy", f, size, NULL, error);
  fclose (f);
  return m;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = load (data, size, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  fuzz_touch (m);
  if (tl_matrix_n_elements (m) > FUZZ_ROUND_TRIP_ELEMENTS)
    return 0;
  size_t len = 0;
  g_autofree char *again = fuzz_write (m, tl_npy_write, NULL, &len);
  g_autoptr (TlMatrix) back = load (again, len, NULL);
  fuzz_assert_same (m, back, TRUE, "npy");
  return 0;
}
