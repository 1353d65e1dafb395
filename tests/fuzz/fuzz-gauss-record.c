/* fuzz-gauss-record.c — Gauss records (a bare {"kind": "lu"} or a run
 * record with $.extensions.lu) through the reader, then every frame the
 * player can show (replayed from snapshots: GF(p) arithmetic included),
 * a few drawn, and the recording written back and read again: the same
 * recording (written once more, the same text); saved as a file and read
 * from it, the same recording again. */
#include "fuzz-common.h"

#include "core/tl-json.h"
#include "lu/tl-lu-recorder.h"
#include "view/tl-gauss-frame.h"
#include "record/tl-gauss-record.h"

static void
draw (TlLuRecorder *rec, guint step)
{
  TlRenderInput input = { .lu = rec };
  fuzz_draw (&input, TL_RENDER_GAUSS, NULL, step);
}

/* The recording as the JSON text a save writes. */
static char *
text_of (const TlLuRecorder *rec, gsize *out_len)
{
  g_autoptr (JsonNode) node = tl_lu_recorder_to_json (rec);
  return tl_json_to_data (node, FALSE, out_len);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_from_data ((const char *) data, size, &error);
  if (rec == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  guint n = tl_gauss_record_n_frames (rec);
  for (guint step = 0; step < n; step++)
    {
      TlGaussFrame *frame = tl_gauss_frame_new (rec, step, NULL);
      tl_gauss_frame_free (frame);
    }
  draw (rec, 0);
  draw (rec, n / 2);
  draw (rec, n - 1);

  gsize len = 0;
  g_autofree char *text = text_of (rec, &len);
  g_autoptr (TlLuRecorder) back = tl_lu_recorder_from_data (text, len, &error);
  if (back == NULL)
    g_error ("a Gauss record that loaded, written back, does not load: %s", error->message);
  /* and reads as the same recording: written again, the same text */
  g_autofree char *again = text_of (back, NULL);
  if (strcmp (text, again) != 0)
    g_error ("a Gauss record written back reads as another record:\n%s\n%s", text, again);

  /* saved as a file (the atomic save) and read from it */
  g_autofree char *path = g_build_filename (fuzz_folder (), "gauss.json", NULL);
  if (!tl_lu_recorder_save (back, path, &error))
    g_error ("a Gauss record that loaded cannot be saved: %s", error->message);
  g_autoptr (TlLuRecorder) saved = tl_lu_recorder_load (path, &error);
  g_unlink (path);
  if (saved == NULL)
    g_error ("a Gauss record that loaded, saved, does not load: %s", error->message);
  g_autofree char *text_saved = text_of (saved, NULL);
  if (strcmp (text, text_saved) != 0)
    g_error ("a Gauss record saved and loaded is another record:\n%s\n%s", text, text_saved);
  return 0;
}
