/* fuzz-npy.c — NumPy .npy bytes through the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-npy.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = fuzz_load_npy (data, size, &error);
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
  g_autoptr (TlMatrix) back = fuzz_load_npy (again, len, NULL);
  fuzz_assert_same (m, back, TRUE, "npy");
  return 0;
}
