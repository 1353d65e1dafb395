/* fuzz-csv.c — CSV / TSV / whitespace tables through the reader, and back
 * (the first input byte picks the delimiter the copy is written with). */
#include "fuzz-common.h"
#include "io/tl-csv.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char delim = size > 0 && data[0] % 2 ? '\t' : ',';
  fuzz_text_format (data, size, "csv", tl_csv_load_data, tl_csv_write, GINT_TO_POINTER (delim),
                    FALSE);
  return 0;
}
