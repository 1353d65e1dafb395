/* tl-application.h — the Tilelab GtkApplication (org.tilelab.Tilelab). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TL_APPLICATION_ID "org.tilelab.Tilelab"
#define TL_TYPE_APPLICATION (tl_application_get_type ())
G_DECLARE_FINAL_TYPE (TlApplication, tl_application, TL, APPLICATION, GtkApplication)

TlApplication *tl_application_new (void);
TlApplication *tl_application_new_for_desktop (void);

G_END_DECLS
