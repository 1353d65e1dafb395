/* fuzz-mtx.c — Matrix Market text through the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-mtx.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = fuzz_text (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_mtx_load_data ("fuzz.mtx", text, size, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  fuzz_touch (m);
  size_t len = 0;
  g_autofree char *again = fuzz_write (m, tl_mtx_write, NULL, &len);
  g_autoptr (TlMatrix) back = tl_mtx_load_data ("again.mtx", again, len, NULL);
  fuzz_assert_same (m, back, TRUE, "mtx");
  return 0;
}
