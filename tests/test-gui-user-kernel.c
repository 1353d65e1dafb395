/* test-gui-user-kernel.c — your own kernel in the window, without a GPU.
 *
 * `tilelab DIR/mine.cu` lists the file under "Yours" and shows it in the
 * Source page, editable; NVRTC's messages come from a compile on a thread
 * (a CUDA build: the broken line is marked; without CUDA: why it cannot
 * compile); an edit is kept while another kernel is shown and is there
 * again when its kernel comes back; an edit run with Ctrl+R's action becomes a new version
 * (mine.cu@2) beside the first; an edit whose declarations are wrong and a
 * file that is not a kernel file are errors in the info bar, and the
 * window stays usable; the page's export marks the wrong line as the page
 * does.  Exits 77 without a display.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gemm/tl-kernels.h"
#include "gemm/tl-user-templates.h"
#include "tl-application.h"
#include "tl-page.h"
#include "tl-source-page.h"
#include "tl-window.h"

#include "gui-test-util.h"

static GtkApplication *app;
static char *dir, *good_path, *bad_path;
static int test_status = 1;

static TlWindow *
window (void)
{
  return TL_WINDOW (gtk_application_get_active_window (app));
}

static void
find_text_view (GtkWidget *w, gpointer data)
{
  GtkWidget **out = data;
  if (*out == NULL && GTK_IS_TEXT_VIEW (w))
    *out = w;
  else if (*out == NULL && GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), find_text_view, data);
}

static GtkTextView *
source_view (void)
{
  GtkWidget *view = NULL;
  find_text_view (tl_window_get_page (window (), "source"), &view);
  g_assert_nonnull (view);
  g_assert_true (gtk_text_view_get_editable (GTK_TEXT_VIEW (view)));
  return GTK_TEXT_VIEW (view);
}

static GtkTextBuffer *
source_buffer (void)
{
  return gtk_text_view_get_buffer (source_view ());
}

static char *
page_text (const char *name)
{
  GString *s = g_string_new (NULL);
  gui_test_append_label_texts (tl_window_get_page (window (), name), s);
  return g_string_free (s, FALSE);
}

static gboolean
kernel_shown (gpointer id)
{
  return tl_kernel_find (id) != NULL
         && tl_source_page_get_source_length (TL_SOURCE_PAGE (tl_window_get_page (window (), "source")))
              > 0;
}

/* the background compile said something: its result, or why it could not run */
static gboolean
compiled (gpointer data)
{
  g_autofree char *text = page_text ("source");
  return strstr (text, "compiled for sm_") || strstr (text, "did not compile")
         || strstr (text, "cannot be compiled");
}

static gboolean
message_names (gpointer fragment)
{
  const char *m = tl_window_get_info_message (window ());
  return m != NULL && strstr (m, fragment) != NULL;
}

static void
test_opened (void)
{
  g_assert_true (gui_test_wait_until (kernel_shown, (gpointer) "mine.cu", 30));
  g_assert_true (gui_test_wait_until (compiled, NULL, 60));
  g_autofree char *text = page_text ("source");
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Your kernel"));
  g_assert_null (strstr (text, "did not compile")); /* the template compiles */
}

static char *
buffer_text (GtkTextBuffer *buf)
{
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (buf, &a, &b);
  return gtk_text_buffer_get_text (buf, &a, &b, FALSE);
}

/* Switching kernels in the Source page with an edit not yet run keeps it. */
static void
test_switch_keeps_edit (void)
{
  TlSourcePage *page = TL_SOURCE_PAGE (tl_window_get_page (window (), "source"));
  GtkTextBuffer *buf = source_buffer ();
  g_autofree char *original = buffer_text (buf);
  GtkTextIter start;
  gtk_text_buffer_get_start_iter (buf, &start);
  gtk_text_buffer_insert (buf, &start, "// kept while away\n", -1);
  g_autofree char *edited = buffer_text (buf);

  const char *rung = tl_kernel_get (0)->id;
  tl_source_page_show_kernel (page, rung);
  g_autofree char *other = buffer_text (buf);
  g_assert_null (strstr (other, "kept while away"));
  tl_source_page_show_kernel (page, "mine.cu");
  g_autofree char *back = buffer_text (buf);
  g_assert_cmpstr (back, ==, edited);
  /* an edit undone by hand is no edit: the next return shows the file */
  gtk_text_buffer_set_text (buf, original, -1);
  tl_source_page_show_kernel (page, rung);
  tl_source_page_show_kernel (page, "mine.cu");
  g_autofree char *again = buffer_text (source_buffer ());
  g_assert_cmpstr (again, ==, original);
  g_assert_null (tl_kernel_find ("mine.cu@2")); /* nothing ran */
}

static void
test_edit_new_version (void)
{
  GtkTextBuffer *buf = source_buffer ();
  GtkTextIter end;
  gtk_text_buffer_get_end_iter (buf, &end);
  gtk_text_buffer_insert (buf, &end, "\nint broken = ;\n", -1);
  tl_window_run (window ());
  const TlKernelInfo *v2 = tl_kernel_find ("mine.cu@2");
  g_assert_nonnull (v2);
  g_assert_true (g_str_has_suffix (v2->title, "@2"));
  g_assert_nonnull (tl_kernel_find ("mine.cu")); /* the first stays, for Compare */
  g_assert_true (gui_test_wait_until (compiled, NULL, 60));
  g_autofree char *text = page_text ("source");
  g_test_message ("%s", text);
  if (strstr (text, "cannot be compiled") == NULL)
    {
      /* NVRTC ran: the error, at its line, marked in the text */
      int lines = gtk_text_buffer_get_line_count (buf);
      g_autofree char *where = g_strdup_printf ("mine.cu:%d:5", lines - 1);
      g_assert_nonnull (strstr (text, "did not compile"));
      g_assert_nonnull (strstr (text, where));
      GtkTextIter at;
      gtk_text_buffer_get_iter_at_line (buf, &at, lines - 2);
      GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buf), "error-line");
      g_assert_true (gtk_text_iter_has_tag (&at, tag));
    }
  gui_test_wait_until (gui_test_window_settled, window (), 60);
}

/* whether the Source page shows the kernel's first line */
static gboolean
shows_first_line (gpointer data)
{
  GtkTextView *view = source_view ();
  GdkRectangle seen;
  GtkTextIter top;
  gtk_text_view_get_visible_rect (view, &seen);
  gtk_text_view_get_line_at_y (view, &top, seen.y, NULL);
  return gtk_text_iter_get_line (&top) == 0;
}

static void
test_bad_declaration (void)
{
  GtkTextBuffer *buf = source_buffer ();
  GtkTextIter start;
  gtk_text_buffer_get_start_iter (buf, &start);
  gtk_text_buffer_insert (buf, &start, "// tilelab: blocks = 16\n", -1);
  g_assert_false (tl_window_run (window ()));
  g_assert_true (gui_test_wait_until (message_names, (gpointer) "mine.cu:1:13", 5));
  g_assert_null (tl_kernel_find ("mine.cu@3"));
  /* the page scrolls to the marked line once its lines are measured;
   * then the export marks the line the page marks, and no other */
  g_assert_true (gui_test_wait_until (shows_first_line, NULL, 10));
  TlRenderOptions options;
  tl_render_options_init (&options);
  g_assert_true (tl_page_export_options (TL_PAGE (tl_window_get_page (window (), "source")), &options));
  g_assert_cmpint (options.view, ==, TL_RENDER_SHEET);
  const TlSheet *sheet = options.sheet;
  g_assert_cmpuint (sheet->first_number, ==, 1);
  g_assert_cmpuint (tl_sheet_get_n_rows (sheet), >, 1);
  g_assert_cmpstr (tl_sheet_get_row (sheet, 0)->value, ==, "// tilelab: blocks = 16");
  g_assert_true (tl_sheet_get_row (sheet, 0)->marked);
  for (guint i = 1; i < tl_sheet_get_n_rows (sheet); i++)
    g_assert_false (tl_sheet_get_row (sheet, i)->marked);
}

static void
test_not_a_kernel_file (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (bad_path);
  tl_window_open_files (window (), &file, 1);
  g_assert_true (gui_test_wait_until (message_names, (gpointer) "declares no kernel", 10));
  /* still usable: with the wrong declaration taken out again, a run goes on */
  GtkTextBuffer *buf = source_buffer ();
  GtkTextIter a, b;
  gtk_text_buffer_get_iter_at_line (buf, &a, 0);
  gtk_text_buffer_get_iter_at_line (buf, &b, 1);
  gtk_text_buffer_delete (buf, &a, &b);
  gui_test_wait_until (gui_test_window_settled, window (), 60);
  g_assert_true (tl_window_run (window ()));
  gui_test_wait_until (gui_test_window_settled, window (), 120);
  g_assert_nonnull (tl_window_get_record (window ()));
}

static gboolean
run_tests_cb (gpointer data)
{
  test_status = g_test_run ();
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
activate_cb (GApplication *application, gpointer data)
{
  static gboolean started;
  if (!started)
    {
      started = TRUE;
      g_idle_add (run_tests_cb, NULL);
    }
}

int
main (int argc, char **argv)
{
  if (!gui_test_init_check (&argc, &argv))
    return 77;
  dir = g_dir_make_tmp ("tl-gui-user-XXXXXX", NULL);
  good_path = g_build_filename (dir, "mine.cu", NULL);
  bad_path = g_build_filename (dir, "notes.cu", NULL);
  g_assert_true (g_file_set_contents (good_path, tl_user_template_text ("gemm-03-smem16"), -1, NULL));
  g_assert_true (g_file_set_contents (bad_path, "// just notes, no kernel here\n", -1, NULL));

  g_test_add_func ("/gui-user-kernel/opened", test_opened);
  g_test_add_func ("/gui-user-kernel/switch-keeps-edit", test_switch_keeps_edit);
  g_test_add_func ("/gui-user-kernel/edit-new-version", test_edit_new_version);
  g_test_add_func ("/gui-user-kernel/bad-declaration", test_bad_declaration);
  g_test_add_func ("/gui-user-kernel/not-a-kernel-file", test_not_a_kernel_file);

  app = GTK_APPLICATION (tl_application_new ());
  g_signal_connect_after (app, "open", G_CALLBACK (activate_cb), NULL);
  g_signal_connect_after (app, "activate", G_CALLBACK (activate_cb), NULL);
  char *app_argv[] = { (char *) "tilelab", "--generate", "random-uniform:96", good_path, NULL };
  int rc = g_application_run (G_APPLICATION (app), 4, app_argv);
  g_object_unref (app);
  g_unlink (good_path);
  g_unlink (bad_path);
  g_rmdir (dir);
  return rc != 0 ? rc : test_status;
}
