/* test-view-render-request.c — what a picture is asked with, without a
 * surface: the views' and formats' names, the options' defaults, the
 * input's stack of records, and which runs of a record a view draws. */
#include "view/tl-render-request.h"
#include "view/tl-render-runs.h"

#include <locale.h>
#include <string.h>

#include "core/tl-error.h"

static void
test_names (void)
{
  TlRenderView view;
  for (int v = TL_RENDER_HEATMAP; v <= TL_RENDER_LESSON; v++)
    {
      g_assert_true (tl_render_view_from_name (tl_render_view_name ((TlRenderView) v), &view));
      g_assert_cmpint (view, ==, v);
      g_assert_nonnull (strstr (tl_render_view_names (), tl_render_view_name ((TlRenderView) v)));
    }
  g_assert_false (tl_render_view_from_name ("pie", &view));
  g_assert_cmpstr (tl_render_view_name ((TlRenderView) 99), ==, "?");

  TlRenderFormat format;
  g_assert_true (tl_render_format_for_path ("talk/Blocks.PDF", &format));
  g_assert_cmpint (format, ==, TL_RENDER_PDF);
  g_assert_true (tl_render_format_for_path ("a.svg", &format));
  g_assert_cmpint (format, ==, TL_RENDER_SVG);
  g_assert_true (tl_render_format_for_path ("a.png", &format));
  g_assert_cmpint (format, ==, TL_RENDER_PNG);
  g_assert_false (tl_render_format_for_path ("a.png.txt", &format));

  TlRenderOptions o;
  memset (&o, 0x5a, sizeof o);
  tl_render_options_init (&o);
  g_assert_cmpint (o.view, ==, TL_RENDER_HEATMAP);
  g_assert_null (o.kernels);
  g_assert_cmpint (o.launch, ==, -1);
  g_assert_cmpint (o.tile_x, ==, -1);
  g_assert_cmpfloat (o.width, ==, TL_RENDER_DEFAULT_WIDTH);
  g_assert_cmpfloat (o.height, ==, TL_RENDER_DEFAULT_HEIGHT);
  g_assert_cmpfloat (o.scale, ==, 1.0);
}

/* a record of three runs: cpu-naive (no blocks), gemm-02 (blocks), gemm-16 (a plan) */
static TlRunRecord *
three_runs (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (70, 50, 100, TL_DTYPE_FLOAT32);
  TlRunRecord *rec = tl_run_record_new (job);
  g_ptr_array_add (rec->runs, tl_kernel_run_new ("cpu-naive", TL_BACKEND_CPU));
  TlKernelRun *blocks = tl_kernel_run_new ("gemm-02-coalesced", TL_BACKEND_GPU);
  TlBlockRecord *b = g_new0 (TlBlockRecord, 3);
  tl_kernel_run_take_blocks (blocks, b, 3, "ns");
  g_ptr_array_add (rec->runs, blocks);
  TlKernelRun *planned = tl_kernel_run_new ("gemm-16-doublebuf", TL_BACKEND_GPU);
  planned->has_plan = TRUE;
  g_ptr_array_add (rec->runs, planned);
  return rec;
}

static void
test_select_runs (void)
{
  g_autoptr (TlRunRecord) rec = three_runs ();
  g_autoptr (GError) error = NULL;

  /* the default: the first run, the first with blocks, the first with blocks or a plan, all */
  g_autoptr (GPtrArray) first = tl_render_select_runs (rec, NULL, TL_RENDER_NEED_NOTHING, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (first->len, ==, 1);
  g_assert_true (first->pdata[0] == rec->runs->pdata[0]);
  g_autoptr (GPtrArray) with_blocks = tl_render_select_runs (rec, "", TL_RENDER_NEED_BLOCKS, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (with_blocks->len, ==, 1);
  g_assert_true (with_blocks->pdata[0] == rec->runs->pdata[1]);
  g_autoptr (GPtrArray) or_plan = tl_render_select_runs (rec, NULL, TL_RENDER_NEED_BLOCKS_OR_PLAN, TRUE, &error);
  g_assert_cmpuint (or_plan->len, ==, 2);
  g_autoptr (GPtrArray) all = tl_render_select_runs (rec, NULL, TL_RENDER_NEED_NOTHING, TRUE, &error);
  g_assert_cmpuint (all->len, ==, 3);

  /* by id, in the order asked, spaces ignored */
  g_autoptr (GPtrArray) asked = tl_render_select_runs (rec, " gemm-16-doublebuf , cpu-naive,",
                                                       TL_RENDER_NEED_NOTHING, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (asked->len, ==, 2);
  g_assert_true (asked->pdata[0] == rec->runs->pdata[2]);
  g_assert_true (asked->pdata[1] == rec->runs->pdata[0]);

  /* an id the record lacks names what it has; a run without blocks says how to get them */
  g_assert_null (tl_render_select_runs (rec, "gemm-99", TL_RENDER_NEED_NOTHING, FALSE, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "cpu-naive, gemm-02-coalesced, gemm-16-doublebuf"));
  g_clear_error (&error);
  g_assert_null (tl_render_select_runs (rec, "cpu-naive", TL_RENDER_NEED_BLOCKS, FALSE, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "--instrument"));
  g_clear_error (&error);

  /* a CPU run's title says its threads */
  TlKernelRun *cpu = rec->runs->pdata[0];
  cpu->threads = 1;
  g_autofree char *title = tl_render_kernel_title (cpu);
  g_assert_true (g_str_has_prefix (title, "cpu-naive"));
  g_assert_true (g_str_has_suffix (title, "1 thread"));
}

static void
test_input (void)
{
  g_autoptr (GError) error = NULL;
  TlRenderInput in = { 0 };
  g_assert_false (tl_render_need_record (&in, "blocks", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);
  in.record = three_runs ();
  g_assert_true (tl_render_need_record (&in, "blocks", &error));
  for (int i = 0; i < 3; i++)
    g_assert_true (tl_render_input_add_run (&in, three_runs (), &error));
  /* a fifth record is refused and dropped (no leak under the sanitizers) */
  g_assert_false (tl_render_input_add_run (&in, three_runs (), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_cmpuint (in.n_more, ==, 3);
  tl_render_input_clear (&in);
  g_assert_null (in.record);
  g_assert_cmpuint (in.n_more, ==, 0);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/render-request/names", test_names);
  g_test_add_func ("/view/render-request/select-runs", test_select_runs);
  g_test_add_func ("/view/render-request/input", test_input);
  return g_test_run ();
}
