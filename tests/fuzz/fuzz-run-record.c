/* fuzz-run-record.c — run records (JSON text) through the reader, then
 * everything a view does with one: block statistics of every run and
 * every launch, the Blocks and Timeline views of the first run with blocks
 * and the Compare view drawn into a small image, and the record written
 * back and read again: the same record (written once more, the same text),
 * and saved as a file and opened again: the same record. */
#include "fuzz-common.h"

#include "view/tl-block-stats.h"
#include "record/tl-record.h"
#include "record/tl-record-file.h"

static void
draw (const TlRunRecord *record, TlRenderView view, const char *kernel)
{
  TlRenderInput input = { .record = (TlRunRecord *) record };
  fuzz_draw (&input, view, kernel, 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_run_record_from_data ((const char *) data, size, &error);
  if (record == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  for (guint i = 0; i < record->runs->len; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      for (gint launch = -1; launch <= 1; launch++)
        {
          g_autoptr (TlBlockStats) s = tl_block_stats_new_for_run (record, run, launch, NULL);
          if (s != NULL)
            g_free (tl_block_stats_summary (s, tl_block_unit_label (run->block_unit)));
        }
    }
  /* the first run with blocks drawn (drawing them all would take a record
   * of many runs past the 1 s a harness may take under ASan) */
  for (guint i = 0; i < record->runs->len; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      if (run->n_blocks == 0)
        continue;
      draw (record, TL_RENDER_BLOCKS, run->kernel_id);
      draw (record, TL_RENDER_TIMELINE, run->kernel_id);
      break;
    }
  draw (record, TL_RENDER_COMPARE, NULL);

  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  if (back == NULL)
    g_error ("a record that loaded, written back, does not load: %s", error->message);
  /* and reads as the same record: written again, the same text */
  g_autofree char *again = tl_run_record_to_string (back, FALSE);
  if (strcmp (text, again) != 0)
    g_error ("a record written back reads as another record:\n%s\n%s", text, again);

  /* saved as a file (the atomic save) and read from it */
  g_autofree char *path = g_build_filename (fuzz_folder (), "record.json", NULL);
  if (!tl_run_record_save (back, path, TL_RECORD_SAVE_DEFAULT, &error))
    g_error ("a record that loaded cannot be saved: %s", error->message);
  g_autoptr (TlRunRecord) saved = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_unlink (path);
  if (saved == NULL)
    g_error ("a record that loaded, saved, does not load: %s", error->message);
  g_autofree char *text_saved = tl_run_record_to_string (saved, FALSE);
  if (strcmp (text, text_saved) != 0)
    g_error ("a record saved and loaded is another record:\n%s\n%s", text, text_saved);
  return 0;
}
