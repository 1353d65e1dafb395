/* tl-generate-dialog.h — choose a generator, its parameters, size, dtype and seed. */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"

G_BEGIN_DECLS

#define TL_TYPE_GENERATE_DIALOG (tl_generate_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TlGenerateDialog, tl_generate_dialog, TL, GENERATE_DIALOG, GtkDialog)

typedef struct
{
  guint targets;  /* TL_TARGET_A | TL_TARGET_B */
  char *spec;     /* "name:params", caller frees */
  gsize rows, cols;
  TlDtype dtype;
  guint64 seed;
} TlGenerateRequest;

GtkWidget *tl_generate_dialog_new (GtkWindow *parent, guint targets, gsize size);
void       tl_generate_dialog_get_request (TlGenerateDialog *self, TlGenerateRequest *out);
/* the generator, its parameters, dtype and seed chosen last time (the
 * size stays the one given); saving is for an accepted dialog only */
void       tl_generate_dialog_load_settings (TlGenerateDialog *self, GSettings *settings);
void       tl_generate_dialog_save_settings (TlGenerateDialog *self, GSettings *settings);

G_END_DECLS
