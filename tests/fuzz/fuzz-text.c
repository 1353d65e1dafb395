/* fuzz-text.c — Tilelab text through the sniffer and the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-text.h"

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
  (void) tl_text_sniff (text, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_text_load_data ("fuzz.txt", text, size, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  fuzz_touch (m);
  size_t len = 0;
  g_autofree char *again = fuzz_write (m, tl_text_write, NULL, &len);
  g_assert (tl_text_sniff (again, len));
  g_autoptr (TlMatrix) back = tl_text_load_data ("again.txt", again, len, NULL);
  fuzz_assert_same (m, back, TRUE, "text");
  return 0;
}
