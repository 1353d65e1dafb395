/* tl-source-page.c — a kernel's code beside its lesson and numbers. */
#include "tl-source-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "gemm/tl-user-kernel.h"
#include "record/tl-counters-lesson.h"
#include "view/tl-format.h"
#include "view/tl-plan-view.h"
#include "tl-code-highlight.h"
#include "tl-listing-sheet.h"
#include "tl-run-text.h"
#include "tl-ui-util.h"

struct _TlSourcePage
{
  GtkBox parent_instance;

  TlSession *session;
  gsize length;
  gboolean shown_once;       /* the text is filled in when the page is first mapped */

  GtkWidget *toolbar;
  GtkWidget *kernel_combo;
  GtkWidget *split;
  GtkWidget *view;
  GtkWidget *side;
  guint turn_id;             /* the split is turned (beside ↔ below) when idle */
  gboolean placed;           /* the split's handle was put where it belongs */
  int placed_w, placed_h;    /* for this size of the split */
  GtkWidget *facts_box;
  GtkWidget *facts;          /* what the kernel is */
  GtkWidget *measured;       /* and what was measured, beside it below the code */
  char *facts_markup;        /* the facts a line each (shown beside the code) */
  char *measured_markup;     /* "Measured" and the counters, a line each, or how to get them */
  char *facts_shown;         /* the markup the labels hold, for telling a change */
  guint rehighlight_id;      /* an edited user kernel is coloured again when typing pauses */
  const TlKernelInfo *shown; /* whose text the view holds */
  GHashTable *edits;         /* user kernel id → its text as edited, not yet run: kept while
                                another kernel is shown, shown again when it comes back */
  TlUserKernel *compiling;   /* a user kernel compiled on a thread for its messages, or NULL */
  TlUserKernel *failed;      /* the one whose compile could not run at all */
  char *compile_error;       /* and why */
  TlSheet *export_sheet;     /* the listing the last export_options gave */
};

static void tl_source_page_page_init (TlPageInterface *iface);
static void add_user_kernels (TlSourcePage *self);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlSourcePage, tl_source_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_source_page_page_init))

/* A user's kernel: its text, or its edit not yet run, editable (Ctrl+R
 * runs the edit as a new version). */
static void
show_user_source (TlSourcePage *self, const TlKernelInfo *info, TlUserKernel *kernel)
{
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  const char *edited = g_hash_table_lookup (self->edits, info->id);
  const char *text = edited ? edited : tl_user_kernel_source (kernel);
  gtk_text_buffer_set_text (buf, text, -1);
  tl_code_highlight (buf, text);
  self->length = strlen (text);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), TRUE);
}

static void
show_source (TlSourcePage *self, const TlKernelInfo *info)
{
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  TlUserKernel *user = tl_user_kernel_of (info);
  if (user != NULL)
    {
      show_user_source (self, info, user);
      return;
    }
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  g_autofree char *path = g_strdup_printf ("/org/tilelab/Tilelab/source/%s", info->source_path ? info->source_path : "");
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);

  self->length = 0;
  if (bytes)
    {
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);
      g_autofree char *text = g_utf8_make_valid (data, len);
      gtk_text_buffer_set_text (buf, text, -1);
      tl_code_highlight (buf, text);
      self->length = strlen (text);
    }
  else
    {
      g_autofree char *t = g_strdup_printf (_("The source of %s (%s) is not bundled in this build."),
                                            info->id, info->source_path ? info->source_path : "?");
      gtk_text_buffer_set_text (buf, t, -1);
    }
}

/* The shown user kernel's edit, if it has one, is kept for its return. */
static void
keep_edit (TlSourcePage *self)
{
  TlUserKernel *user = tl_user_kernel_of (self->shown);
  if (user == NULL)
    return;
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (buf, &a, &b);
  char *text = gtk_text_buffer_get_text (buf, &a, &b, FALSE);
  if (strcmp (text, tl_user_kernel_source (user)) == 0)
    {
      g_hash_table_remove (self->edits, self->shown->id);
      g_free (text);
    }
  else
    g_hash_table_replace (self->edits, g_strdup (self->shown->id), text);
}

/* ---- code beside or above its facts ------------------------------------------ */

/* Columns of code the page keeps in view beside the facts: nearly every
 * line of the shipped kernels fits in 100. */
#define CODE_COLUMNS 100
/* the facts' width beside the code, in their font's characters */
#define FACTS_CHARS 40

/* a widget's character width (its digits' in a monospace font), px */
static double
char_width (GtkWidget *widget)
{
  PangoFontMetrics *m = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);
  double w = pango_font_metrics_get_approximate_digit_width (m) / (double) PANGO_SCALE;
  pango_font_metrics_unref (m);
  return w;
}

static int
code_width (TlSourcePage *self)
{
  /* the margins and a scroll bar's width */
  return (int) ceil (CODE_COLUMNS * char_width (self->view)) + 40;
}

static int
facts_width (TlSourcePage *self)
{
  return MAX ((int) ceil (FACTS_CHARS * char_width (self->facts)), 320);
}

/* Lines of code the page keeps in view above the facts where it has them
 * (1024×768 in a window, beside the sidebar): a kernel's main loop. */
#define CODE_LINES 26
/* and lines of the facts it keeps below them, the rest scrolled */
#define FACTS_LINES 3

/* a widget's lines of type as it lays them out: from one line to the next, px */
static int
line_pitch (GtkWidget *widget)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, "Ag");
  int one, two;
  pango_layout_get_pixel_size (layout, NULL, &one);
  pango_layout_set_text (layout, "Ag\nAg", -1);
  pango_layout_get_pixel_size (layout, NULL, &two);
  g_object_unref (layout);
  return MAX (two - one, 1);
}

/* The facts a section a line where they go below the code: "time  1.84 s",
 * "GFLOP/s  0.5427" on lines of their own above, "Measured (…) · time
 * 1.84 s · GFLOP/s 0.5427" below, so that their few lines say most. */
static char *
facts_compact (const char *markup)
{
  g_auto (GStrv) sections = g_strsplit (markup, "\n\n", -1);
  GString *out = g_string_new (NULL);
  for (guint i = 0; sections[i]; i++)
    {
      g_auto (GStrv) lines = g_strsplit (sections[i], "\n", -1);
      gboolean first = TRUE;
      for (guint j = 0; lines[j]; j++)
        {
          if (*g_strstrip (lines[j]) == '\0')
            continue;
          if (first && out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append (out, first ? "" : " · ");
          g_string_append (out, lines[j]);
          first = FALSE;
        }
    }
  return g_string_free (out, FALSE);
}

/* Beside the code, the facts and the measured numbers one column a line
 * each; below it, each a section a line in two columns, so that what was
 * measured is seen with the few lines the facts get there (it came after
 * the facts, off screen, presenting at 1024×768). */
static void
show_facts (TlSourcePage *self)
{
  if (self->facts_markup == NULL)
    return;
  gboolean below = !tl_source_page_get_code_beside (self);
  g_autofree char *all = g_strconcat (self->facts_markup, self->measured_markup, NULL);
  g_autofree char *facts = below ? facts_compact (self->facts_markup) : NULL;
  g_autofree char *measured = below ? facts_compact (self->measured_markup) : NULL;
  g_autofree char *shown = g_strdup_printf ("%d%s", below, all);
  /* the same words again would lay the split out again, after its handle was placed */
  if (g_strcmp0 (shown, self->facts_shown) == 0)
    return;
  g_free (self->facts_shown);
  self->facts_shown = g_steal_pointer (&shown);
  gtk_label_set_markup (GTK_LABEL (self->facts), below ? facts : all);
  gtk_label_set_markup (GTK_LABEL (self->measured), below ? measured : "");
  gtk_widget_set_visible (self->measured, below);
  /* below the code, a narrower frame round their few lines */
  GtkWidget *labels[] = { self->facts, self->measured };
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      gtk_widget_set_margin_top (labels[i], below ? 6 : 12);
      gtk_widget_set_margin_bottom (labels[i], below ? 6 : 12);
    }
}

/* Below: the code CODE_LINES lines and the facts the rest, FACTS_LINES
 * of their lines at least; less of the code where the facts need less. */
static int
code_height_above_facts (TlSourcePage *self, int width, int height)
{
  int handle = 0, facts_natural = 0;
  gtk_widget_style_get (self->split, "handle-size", &handle, NULL);
  gtk_widget_get_preferred_height_for_width (self->facts_box, width, NULL, &facts_natural);
  /* a line of code as the view lays it out (its spacing included); the
   * code's horizontal scroll bar and margins */
  GtkTextIter first;
  int y, code_line = 0;
  gtk_text_buffer_get_start_iter (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)), &first);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->view), &first, &y, &code_line);
  int code_need = CODE_LINES * MAX (code_line, line_pitch (self->view)) + 24;
  /* whole lines of the facts under their top margin, never the top of
   * one more peeking out */
  int pitch = line_pitch (self->facts), top = gtk_widget_get_margin_top (self->facts);
  int lines = MAX ((height - handle - code_need - top) / pitch, FACTS_LINES);
  int facts = MIN (facts_natural, top + lines * pitch);
  return height - handle - facts;
}

static gboolean
turn_cb (gpointer data)
{
  TlSourcePage *self = data;
  self->turn_id = 0;
  int width = gtk_widget_get_allocated_width (self->split);
  int height = gtk_widget_get_allocated_height (self->split);
  gboolean beside = width >= code_width (self) + facts_width (self);
  GtkOrientation o = beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL;
  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->split)) != o)
    {
      /* turned, the handle is placed once laid out the new way: GtkPaned
       * moves a position set before by the old way's length less the new
       * way's (71 px too high at 1024×768, 256 at 1280×800) */
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->split), o);
      show_facts (self);
      GtkWidget *window = gtk_widget_get_toplevel (self->split);
      if (GTK_IS_CONTAINER (window))
        gtk_container_check_resize (GTK_CONTAINER (window));
    }
  show_facts (self);
  /* beside: the facts their width, the code the rest; below: the code
   * most of the height */
  gtk_paned_set_position (GTK_PANED (self->split),
                          beside ? width - facts_width (self) : code_height_above_facts (self, width, height));
  self->placed = TRUE;
  self->placed_w = width;
  self->placed_h = height;
  return G_SOURCE_REMOVE;
}

/* Too narrow for a line of code beside the facts (1024×768, presenting):
 * the facts go below the code, which gets the page's width. */
static void
split_allocate_cb (GtkWidget *split, GdkRectangle *alloc, TlSourcePage *self)
{
  gboolean beside = alloc->width >= code_width (self) + facts_width (self);
  gboolean is_beside = gtk_orientable_get_orientation (GTK_ORIENTABLE (split)) == GTK_ORIENTATION_HORIZONTAL;
  /* a new screen or presenting: placed again (a handle the user moved
   * stays while the size does) */
  gboolean resized = ABS (alloc->width - self->placed_w) > self->placed_w / 8
                     || ABS (alloc->height - self->placed_h) > self->placed_h / 8;
  if ((beside != is_beside || !self->placed || resized) && self->turn_id == 0)
    self->turn_id = g_idle_add (turn_cb, self);
}

gboolean
tl_source_page_get_code_beside (TlSourcePage *self)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), FALSE);
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (self->split)) == GTK_ORIENTATION_HORIZONTAL;
}

double
tl_source_page_get_code_columns (TlSourcePage *self)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), 0);
  GtkWidget *scroller = gtk_widget_get_parent (self->view);
  GtkWidget *bar = gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (scroller));
  int bar_w = gtk_widget_get_visible (bar) ? gtk_widget_get_allocated_width (bar) : 0;
  return (gtk_widget_get_allocated_width (scroller) - bar_w - gtk_text_view_get_left_margin (GTK_TEXT_VIEW (self->view)))
         / char_width (self->view);
}

/* ---- the facts ----------------------------------------------------------------- */

static void
describe_measured (const TlRunRecord *record, const TlKernelRun *r, GString *facts)
{
  const TlJob *job = record->job;
  double flops = job ? tl_stats_gemm_flops (job->m, job->k, job->n) : NAN;
  g_autofree char *time = tl_run_text_time (r->time.median);
  /* "45.7 TFLOP/s", as Compare says it (not "GFLOP/s  4.573e+04") */
  double gflops = tl_stats_gflops (flops, r->time.median);
  char rate[64] = "—";
  if (isfinite (gflops) && gflops > 0)
    tl_format_gflops (gflops, rate, sizeof rate);
  g_string_append_printf (facts, _("\n<b>Measured</b> (%zu×%zu·%zu×%zu)\ntime  %s\nthroughput  %s\n"),
                          job ? job->m : 0, job ? job->k : 0, job ? job->k : 0, job ? job->n : 0, time, rate);
  if (!isnan (r->percent_of_reference))
    {
      g_autofree char *pct = tl_run_text_percent (r->percent_of_reference);
      g_string_append_printf (facts, _("of reference  %s%%\n"), pct);
    }
  if (r->launch.valid)
    {
      g_autofree char *cmem = tl_run_text_bytes_or_missing (r->launch.const_bytes);
      g_string_append_printf (facts, _("registers  %d per thread\nshared memory  %d B per block\n"
                                       "constant memory  %s\nlocal memory  %d B per thread (stack, spills)\n"
                                       "occupancy  %.0f%%\nwaves  %.2f\n"),
                              r->launch.regs_per_thread,
                              r->launch.static_smem_bytes + r->launch.dynamic_smem_bytes, cmem,
                              r->launch.local_bytes_per_thread, 100 * r->launch.occupancy,
                              r->launch.waves);
    }
}

/* A planned rung: the plan of the run on show, or the one the cost model
 * would choose for the session's size, and the model in words. */
static void
describe_plan (TlSourcePage *self, const TlKernelInfo *info, const TlRunRecord *record,
               const TlKernelRun *r, GString *facts)
{
  g_autoptr (TlPlanView) plan = NULL;
  gsize m = 0, k = 0, n = 0;
  if (r != NULL && r->has_plan && record->job != NULL)
    {
      plan = tl_plan_view_new_for_record (record, r);
      m = record->job->m, k = record->job->k, n = record->job->n;
    }
  else if (self->session != NULL)
    {
      GArray *gpus = tl_session_get_gpus (self->session);
      const TlGpuFacts *gpu = gpus && gpus->len > 0 ? &g_array_index (gpus, TlGpuFacts, 0) : NULL;
      tl_session_get_size (self->session, &m, &k, &n);
      plan = tl_plan_view_predict (info->id, m, k, n, gpu);
    }
  if (plan == NULL)
    return;
  g_autofree char *text = tl_plan_view_explain (plan, m, k, n);
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_string_append_printf (facts, "\n<b>%s</b>\n%s\n",
                          plan->predicted ? _("Its plan (the cost model, before a run)")
                                          : _("Its plan in this run"),
                          escaped);
}

/* The architecture the shown results ran on (the build whose messages to
 * show): the record's GPU, else the first GPU, else sm_90. */
static int
shown_arch (TlSourcePage *self)
{
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  if (record && record->has_device)
    return record->device.cc_major * 10 + record->device.cc_minor;
  GArray *gpus = self->session ? tl_session_get_gpus (self->session) : NULL;
  if (gpus && gpus->len > 0)
    return g_array_index (gpus, TlGpuFacts, 0).cc_major * 10
           + g_array_index (gpus, TlGpuFacts, 0).cc_minor;
  return 90;
}

/* Marks the line (1-based) as wrong; the first one also takes the cursor. */
static void
mark_error (TlSourcePage *self, int line, int column, gboolean first)
{
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  if (line < 1 || line > gtk_text_buffer_get_line_count (buf))
    return;
  GtkTextIter a, b;
  gtk_text_buffer_get_iter_at_line (buf, &a, line - 1);
  b = a;
  if (!gtk_text_iter_ends_line (&b))
    gtk_text_iter_forward_to_line_end (&b);
  gtk_text_buffer_apply_tag_by_name (buf, "error-line", &a, &b);
  if (!first)
    return;
  if (column > 1 && column - 1 <= gtk_text_iter_get_chars_in_line (&a))
    gtk_text_iter_set_line_offset (&a, column - 1);
  gtk_text_buffer_place_cursor (buf, &a);
  /* to the cursor's mark, not an iter: GTK scrolls once the lines are
   * measured, where an iter's scroll right after an edit may not move */
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (buf),
                                0.1, TRUE, 0.0, 0.3);
}

typedef struct
{
  TlUserKernel *kernel;
  int arch;
} CompileData;

static void
compile_data_free (CompileData *d)
{
  tl_user_kernel_unref (d->kernel);
  g_free (d);
}

static void
compile_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  CompileData *d = data;
  GError *error = NULL;
  TlUserBuild *build = tl_user_kernel_compile (d->kernel, d->arch, &error);
  if (build)
    g_task_return_pointer (task, build, (GDestroyNotify) tl_user_build_unref);
  else
    g_task_return_error (task, error);
}

static void update (TlSourcePage *self);

static void
compile_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  TlSourcePage *self = TL_SOURCE_PAGE (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlUserBuild) build = g_task_propagate_pointer (G_TASK (result), &error);
  CompileData *d = g_task_get_task_data (G_TASK (result));
  if (build == NULL)
    {
      self->failed = d->kernel;
      g_free (self->compile_error);
      self->compile_error = g_strdup (error->message);
    }
  self->compiling = NULL;
  if (self->session != NULL)
    update (self);
}

/* Compiles a user kernel on a thread (NVRTC takes a second), so that its
 * messages can be shown before any run; the build is kept for the run. */
static void
compile_in_background (TlSourcePage *self, TlUserKernel *kernel, int arch)
{
  if (self->compiling != NULL || self->failed == kernel)
    return;
  self->compiling = kernel;
  CompileData *d = g_new0 (CompileData, 1);
  d->kernel = tl_user_kernel_ref (kernel);
  d->arch = arch;
  g_autoptr (GTask) task = g_task_new (self, NULL, compile_done_cb, NULL);
  g_task_set_task_data (task, d, (GDestroyNotify) compile_data_free);
  g_task_run_in_thread (task, compile_thread);
}

/* What a user kernel's last build said: the errors marked in the text,
 * every message beside it. */
static void
describe_build (TlSourcePage *self, TlUserKernel *kernel, GString *facts)
{
  g_string_append_printf (facts, _("\n<b>Your kernel</b>\nEdit it here: Ctrl+R compiles this text "
                                   "as a new version and runs it beside the others.\n"));
  int arch = shown_arch (self);
  g_autoptr (TlUserBuild) build = tl_user_kernel_peek_build (kernel, arch);
  if (build == NULL && self->failed == kernel)
    {
      g_autofree char *why = g_markup_escape_text (self->compile_error, -1);
      g_string_append_printf (facts, "%s\n", why);
      return;
    }
  if (build == NULL)
    {
      compile_in_background (self, kernel, arch);
      g_string_append_printf (facts, _("compiling for sm_%d…\n"), arch);
      return;
    }
  if (build->compiled)
    g_string_append_printf (facts, _("compiled for sm_%d by NVRTC %d.%d in %.2f s\n"), build->arch,
                            build->nvrtc_major, build->nvrtc_minor, build->compile_ms / 1000.0);
  else
    g_string_append_printf (facts, _("<b>did not compile for sm_%d</b>\n"), build->arch);
  gboolean first = TRUE;
  for (guint i = 0; i < build->diagnostics->len; i++)
    {
      const TlUserDiagnostic *d = build->diagnostics->pdata[i];
      g_autofree char *msg = g_markup_escape_text (d->message, -1);
      g_string_append_printf (facts, "\n<tt>%s:%d:%d</tt> %s: %s\n",
                              d->file ? d->file : tl_user_kernel_file_name (kernel),
                              d->line, d->column, d->severity, msg);
      if (d->file == NULL && strcmp (d->severity, "error") == 0)
        {
          mark_error (self, d->line, d->column, first);
          first = FALSE;
        }
    }
}

static void
update (TlSourcePage *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  if (!self->shown_once)
    return;
  const TlKernelInfo *info = id ? tl_kernel_find (id) : NULL;
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;

  if (info != self->shown)
    keep_edit (self);
  if (info == NULL)
    {
      self->shown = NULL;
      self->length = 0;
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)), "", -1);
      return;
    }
  if (info != self->shown)
    show_source (self, info);
  self->shown = info;
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (buf, &a, &b);
  gtk_text_buffer_remove_tag_by_name (buf, "error-line", &a, &b);

  GString *facts = g_string_new (NULL), *measured = g_string_new (NULL);
  g_autofree char *lesson = g_markup_escape_text (info->lesson && *info->lesson ? _(info->lesson) : "", -1);
  g_string_append_printf (facts, "<b>%s</b>\n<i>%s</i>\n", _(info->title), lesson);
  if (info->changed != NULL)
    {
      g_autofree char *changed = g_markup_escape_text (_(info->changed), -1);
      /* TRANSLATORS: the rung's one sentence of what it does differently from the rung
         below it, as the "Why faster?" page says it */
      g_string_append_printf (facts, _("New here: %s\n"), changed);
    }
  g_string_append_c (facts, '\n');
  g_string_append_printf (facts, _("id  %s\nseed  %s\nfile  %s\n"), info->id,
                          info->seed && *info->seed ? info->seed : "—",
                          info->source_path ? info->source_path : "—");
  if (info->tile_m > 0)
    g_string_append_printf (facts, _("tile of C per block  %d×%d\n"), info->tile_m, info->tile_n);
  TlUserKernel *user = tl_user_kernel_of (info);
  if (user != NULL)
    describe_build (self, user, facts);
  const TlKernelRun *r = record ? tl_run_record_find_run (record, id) : NULL;
  describe_plan (self, info, record, r, facts);
  if (r && r->status == TL_RUN_OK && r->time.count)
    {
      describe_measured (record, r, measured);
      g_autofree char *counters = r->backend == TL_BACKEND_GPU
                                    ? tl_counters_lesson_markup (record, id) : NULL;
      if (counters != NULL)
        g_string_append_printf (measured, "\n%s", counters);
    }
  else
    g_string_append (measured, _("\nRun it (or open a run record) to see its numbers here."));
  g_free (self->facts_markup);
  self->facts_markup = g_string_free (facts, FALSE);
  g_free (self->measured_markup);
  self->measured_markup = g_string_free (measured, FALSE);
  show_facts (self);
  /* below the code, the facts of another kernel take their own lines */
  if (!tl_source_page_get_code_beside (self) && self->turn_id == 0)
    self->turn_id = g_idle_add (turn_cb, self);
}

static gboolean
rehighlight_cb (gpointer data)
{
  TlSourcePage *self = data;
  self->rehighlight_id = 0;
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (buf, &a, &b);
  g_autofree char *text = gtk_text_buffer_get_text (buf, &a, &b, FALSE);
  gtk_text_buffer_remove_all_tags (buf, &a, &b);
  tl_code_highlight (buf, text);
  return G_SOURCE_REMOVE;
}

static void
buffer_changed_cb (GtkTextBuffer *buf, TlSourcePage *self)
{
  if (!gtk_text_view_get_editable (GTK_TEXT_VIEW (self->view)))
    return;
  if (self->rehighlight_id)
    g_source_remove (self->rehighlight_id);
  self->rehighlight_id = g_timeout_add (300, rehighlight_cb, self);
}

static void
view_style_updated_cb (GtkWidget *view, TlSourcePage *self)
{
  tl_code_highlight_set_dark (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)),
                              tl_widget_has_dark_background (view));
}

static void
kernel_changed_cb (GtkComboBox *combo, TlSourcePage *self)
{
  update (self);
}

static void
map_cb (GtkWidget *widget, TlSourcePage *self)
{
  if (self->shown_once)
    return;
  self->shown_once = TRUE;
  update (self);
}

static void
results_changed_cb (TlSession *session, TlSourcePage *self)
{
  add_user_kernels (self);
  update (self);
}

static void
source_set_session (TlPage *page, TlSession *session)
{
  TlSourcePage *self = TL_SOURCE_PAGE (page);
  tl_page_connect_session (&self->session, session, self, "results-changed", results_changed_cb, NULL);
  update (self);
}

static void
source_show_kernel (TlPage *page, const char *kernel_id)
{
  tl_source_page_show_kernel (TL_SOURCE_PAGE (page), kernel_id);
}

static gboolean
source_prepare_run (TlPage *page, GError **error)
{
  GError *local = NULL;
  tl_source_page_commit_edit (TL_SOURCE_PAGE (page), &local);
  if (local == NULL)
    return TRUE;
  g_propagate_error (error, local);
  return FALSE;
}

/* the lines on show, titled with the rung's name */
static gboolean
source_export_options (TlPage *page, TlRenderOptions *options)
{
  TlSourcePage *self = TL_SOURCE_PAGE (page);
  if (self->shown == NULL)
    return FALSE;
  /* the page as it is about to be shown (switched to a moment ago): laid
   * out, the split turned where it belongs */
  GtkWidget *window = gtk_widget_get_toplevel (GTK_WIDGET (self));
  if (GTK_IS_CONTAINER (window))
    gtk_container_check_resize (GTK_CONTAINER (window));
  if (self->turn_id != 0)
    {
      g_source_remove (self->turn_id);
      turn_cb (self);
      if (GTK_IS_CONTAINER (window))
        gtk_container_check_resize (GTK_CONTAINER (window));
    }
  g_clear_pointer (&self->export_sheet, tl_sheet_unref);
  self->export_sheet = tl_listing_sheet_new (GTK_TEXT_VIEW (self->view), _(self->shown->title),
                                             "error-line");
  options->view = TL_RENDER_SHEET;
  options->sheet = self->export_sheet;
  options->kernels = self->shown->id;
  return TRUE;
}

static void
tl_source_page_page_init (TlPageInterface *iface)
{
  iface->export_options = source_export_options;
  iface->set_session = source_set_session;
  iface->show_kernel = source_show_kernel;
  iface->prepare_run = source_prepare_run;
}

void
tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_SOURCE_PAGE (self));
  add_user_kernels (self); /* one opened a moment ago */
  self->shown_once = TRUE;
  if (g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo)), kernel_id) == 0)
    update (self);
  else
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), kernel_id);
}

void
tl_source_page_add_kernel (TlSourcePage *self, const TlKernelInfo *info)
{
  g_return_if_fail (TL_IS_SOURCE_PAGE (self) && info != NULL);
  GtkTreeModel *model = gtk_combo_box_get_model (GTK_COMBO_BOX (self->kernel_combo));
  int id_column = gtk_combo_box_get_id_column (GTK_COMBO_BOX (self->kernel_combo));
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok;
       ok = gtk_tree_model_iter_next (model, &it))
    {
      g_autofree char *id = NULL;
      gtk_tree_model_get (model, &it, id_column, &id, -1);
      if (g_strcmp0 (id, info->id) == 0)
        return;
    }
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), info->id, info->title);
}

/* the user kernels registered since (opened, edited, or from a record) */
static void
add_user_kernels (TlSourcePage *self)
{
  g_autoptr (GPtrArray) yours = tl_user_kernel_list ();
  for (guint i = 0; i < yours->len; i++)
    tl_source_page_add_kernel (self, yours->pdata[i]);
}

const TlKernelInfo *
tl_source_page_commit_edit (TlSourcePage *self, GError **error)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), NULL);
  /* the kernel whose text the buffer holds: the row the chooser resolved */
  const TlKernelInfo *row = self->shown;
  TlUserKernel *shown = tl_user_kernel_of (row);
  if (shown == NULL)
    return NULL;
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (buf, &a, &b);
  g_autofree char *text = gtk_text_buffer_get_text (buf, &a, &b, FALSE);
  if (strcmp (text, tl_user_kernel_source (shown)) == 0)
    return NULL;
  /* reading the declarations is quick; compiling happens with the run, on
   * the runner's worker */
  g_autoptr (TlUserKernel) edited = tl_user_kernel_parse (tl_user_kernel_path (shown), text, error);
  if (edited == NULL)
    {
      /* "mine.cu:4:17: …": mark that line */
      const char *at = error && *error ? strstr ((*error)->message, ".cu:") : NULL;
      int line = 0, column = 0;
      if (at && sscanf (at + 4, "%d:%d", &line, &column) >= 1)
        mark_error (self, line, column, TRUE);
      return NULL;
    }
  const TlKernelInfo *info = tl_user_kernel_register (edited);
  tl_source_page_add_kernel (self, info);
  /* the edit is the new version now, not an edit of the one before */
  g_hash_table_remove (self->edits, row->id);
  self->shown = NULL;
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), info->id);
  return info;
}

gsize
tl_source_page_get_source_length (TlSourcePage *self)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), 0);
  return self->length;
}

static void
tl_source_page_dispose (GObject *object)
{
  TlSourcePage *self = TL_SOURCE_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  g_clear_pointer (&self->compile_error, g_free);
  g_clear_pointer (&self->export_sheet, tl_sheet_unref);
  g_clear_pointer (&self->facts_markup, g_free);
  g_clear_pointer (&self->measured_markup, g_free);
  g_clear_pointer (&self->facts_shown, g_free);
  g_clear_pointer (&self->edits, g_hash_table_unref);
  if (self->rehighlight_id)
    {
      g_source_remove (self->rehighlight_id);
      self->rehighlight_id = 0;
    }
  if (self->turn_id)
    {
      g_source_remove (self->turn_id);
      self->turn_id = 0;
    }
  G_OBJECT_CLASS (tl_source_page_parent_class)->dispose (object);
}

static void
tl_source_page_class_init (TlSourcePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_source_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-source-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, kernel_combo);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, split);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, view);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, side);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, facts_box);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, facts);
  gtk_widget_class_bind_template_child (widget_class, TlSourcePage, measured);
  gtk_widget_class_bind_template_callback (widget_class, kernel_changed_cb);
}

static void
tl_source_page_init (TlSourcePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->edits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->kernel_combo), 12);
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  tl_code_highlight_create_tags (buf);
  gtk_text_buffer_create_tag (buf, "error-line", "underline", PANGO_UNDERLINE_ERROR,
                              "background", "rgba(224,27,36,0.18)", NULL);
  g_signal_connect (buf, "changed", G_CALLBACK (buffer_changed_cb), self);
  g_signal_connect (self->view, "style-updated", G_CALLBACK (view_style_updated_cb), self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), self);
  g_signal_connect_after (self->split, "size-allocate", G_CALLBACK (split_allocate_cb), self);
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), k->id, _(k->title));
    }
  add_user_kernels (self);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->kernel_combo), 0);
}
