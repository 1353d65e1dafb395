/* fuzz-text.c — Tilelab text through the sniffer and the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-text.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = fuzz_text (data, size);
  (void) tl_text_sniff (text, size);
  fuzz_text_format (data, size, "text", tl_text_load_data, tl_text_write, NULL, FALSE);
  return 0;
}
