/* tl-record-choice.c — which of the session's GEMM records a view shows. */
#include "tl-record-choice.h"

#include <string.h>
#include <glib/gi18n-lib.h>

gboolean
tl_record_has_counters (const TlRunRecord *record)
{
  for (guint i = 0; record && i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      if (r->counters && r->counters->state == TL_GPU_COUNTERS_MEASURED)
        return TRUE;
    }
  return FALSE;
}

/* "4096×4096×4096 · NVIDIA H200 · 2026-11-24 07:08 — no counters" */
char *
tl_record_choice_label (const TlRunRecord *record, gboolean say_counters)
{
  GString *s = g_string_new (NULL);
  if (record->job)
    g_string_append_printf (s, "%zu×%zu×%zu", record->job->m, record->job->k, record->job->n);
  const char *where = record->has_device && record->device.name[0] ? record->device.name
                      : record->machine.cpu_model ? record->machine.cpu_model : NULL;
  if (where)
    g_string_append_printf (s, " · %s", where);
  if (record->created && strlen (record->created) >= 16)
    g_string_append_printf (s, " · %.10s %.5s", record->created, record->created + 11);
  if (say_counters && !tl_record_has_counters (record))
    g_string_append (s, _(" — no counters"));
  return g_string_free (s, FALSE);
}

static GPtrArray *
gemm_records (TlSession *session)
{
  return session ? tl_session_get_history (session) : NULL;
}

void
tl_record_choice_fill (GtkComboBoxText *combo, TlSession *session, TlRecordWanted wanted)
{
  g_return_if_fail (GTK_IS_COMBO_BOX_TEXT (combo));
  TlRunRecord *kept = tl_record_choice_get (GTK_COMBO_BOX (combo), session);
  GPtrArray *all = gemm_records (session);
  TlRunRecord *shown = session ? tl_session_get_record (session) : NULL;
  int choice = -1, newest_wanted = -1, shown_at = -1;

  gtk_combo_box_text_remove_all (combo);
  for (guint i = 0; all && i < all->len; i++)
    {
      TlRunRecord *r = all->pdata[i];
      g_autofree char *id = g_strdup_printf ("%u", i);
      g_autofree char *label = tl_record_choice_label (r, TRUE);
      gtk_combo_box_text_append (combo, id, label);
      if (r == kept)
        choice = (int) i;
      if (r == shown)
        shown_at = (int) i;
      if (wanted == NULL || wanted (r))
        newest_wanted = (int) i;
    }
  /* a record just opened that has what the page needs is shown at once;
   * otherwise the choice stays, else the one on show if it will do, else
   * the newest that will */
  guint seen = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (combo), "tl-records-seen"));
  guint n = all ? all->len : 0;
  g_object_set_data (G_OBJECT (combo), "tl-records-seen", GUINT_TO_POINTER (n));
  if (newest_wanted >= 0 && (guint) newest_wanted >= seen && n > seen)
    choice = newest_wanted;
  if (choice < 0)
    choice = shown_at >= 0 && (wanted == NULL || wanted (all->pdata[shown_at])) ? shown_at
             : newest_wanted >= 0 ? newest_wanted : shown_at;
  if (choice < 0 && all && all->len > 0)
    choice = (int) all->len - 1;
  gtk_combo_box_set_active (GTK_COMBO_BOX (combo), choice);
  /* with no record, an empty "▾" beside the page's own said nothing:
   * the page's text says what to open */
  gtk_widget_set_visible (GTK_WIDGET (combo), n > 0);
}

/* the label of the record the user chose, kept on the combo */
#define USER_CHOICE "tl-record-choice-user"

static void
user_chose_cb (GtkComboBox *combo, gpointer data)
{
  g_object_set_data_full (G_OBJECT (combo), USER_CHOICE,
                          gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (combo)), g_free);
}

/* the history's index of the newest record labelled label, or -1 */
static int
newest_labelled (GPtrArray *all, TlRecordWanted wanted, const char *label)
{
  for (guint i = all->len; label && i-- > 0;)
    {
      g_autofree char *l = tl_record_choice_label (all->pdata[i], FALSE);
      if (wanted (all->pdata[i]) && strcmp (l, label) == 0)
        return (int) i;
    }
  return -1;
}

guint
tl_record_choice_fill_wanted (GtkComboBoxText *combo, TlSession *session, TlRecordWanted wanted)
{
  g_return_val_if_fail (GTK_IS_COMBO_BOX_TEXT (combo) && wanted != NULL, 0);
  if (g_signal_handler_find (combo, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, user_chose_cb, NULL) == 0)
    g_signal_connect (combo, "changed", G_CALLBACK (user_chose_cb), NULL);
  g_signal_handlers_block_by_func (combo, user_chose_cb, NULL);
  gtk_combo_box_text_remove_all (combo);

  GPtrArray *all = gemm_records (session);
  TlRunRecord *shown = session ? tl_session_get_record (session) : NULL;
  g_autofree char *shown_label = shown && wanted (shown) ? tl_record_choice_label (shown, FALSE) : NULL;
  const char *chosen = g_object_get_data (G_OBJECT (combo), USER_CHOICE);
  int newest = -1, choice = -1;
  guint n = 0;
  for (guint i = 0; all && i < all->len; i++)
    {
      g_autofree char *label = tl_record_choice_label (all->pdata[i], FALSE);
      if (newest_labelled (all, wanted, label) != (int) i)
        continue; /* not wanted, or an older copy */
      g_autofree char *id = g_strdup_printf ("%u", i);
      gtk_combo_box_text_append (combo, id, label);
      newest = (int) n++;
      if (g_strcmp0 (label, chosen) == 0 || (chosen == NULL && g_strcmp0 (label, shown_label) == 0))
        choice = newest;
    }
  gtk_combo_box_set_active (GTK_COMBO_BOX (combo), choice >= 0 ? choice : newest);
  g_signal_handlers_unblock_by_func (combo, user_chose_cb, NULL);
  return n;
}

TlRunRecord *
tl_record_choice_get (GtkComboBox *combo, TlSession *session)
{
  g_return_val_if_fail (GTK_IS_COMBO_BOX (combo), NULL);
  GPtrArray *all = gemm_records (session);
  const char *id = gtk_combo_box_get_active_id (combo);
  guint64 i;
  if (id == NULL || all == NULL || !g_ascii_string_to_unsigned (id, 10, 0, G_MAXUINT, &i, NULL)
      || i >= all->len)
    return NULL;
  return all->pdata[i];
}
