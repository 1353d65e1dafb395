/* fuzz-csv.c — CSV / TSV / whitespace tables through the reader, and back
 * (the first input byte picks the delimiter the copy is written with). */
#include "fuzz-common.h"
#include "io/tl-csv.h"

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
  g_autoptr (TlMatrix) m = tl_csv_load_data ("fuzz.csv", text, size, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  fuzz_touch (m);
  char delim = size > 0 && data[0] % 2 ? '\t' : ',';
  size_t len = 0;
  g_autofree char *again = fuzz_write (m, tl_csv_write, GINT_TO_POINTER (delim), &len);
  g_autoptr (TlMatrix) back = tl_csv_load_data ("again.csv", again, len, NULL);
  /* CSV keeps values; a float64 table of whole numbers comes back int32 */
  fuzz_assert_same (m, back, m->dtype != TL_DTYPE_FLOAT64, "csv");
  return 0;
}
