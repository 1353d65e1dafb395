/* fuzz-mtx.c — Matrix Market text through the reader, and back. */
#include "fuzz-common.h"
#include "io/tl-mtx.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_text_format (data, size, "mtx", tl_mtx_load_data, tl_mtx_write, NULL, FALSE);
  return 0;
}
