/* test-view-block-stats.c — what the block records of a run say: waves, the
 * tail, slots, launches, blocks per unit; the summary's words. */
#include <math.h>
#include <string.h>
#include "core/tl-error.h"
#include "view/tl-block-stats.h"
#include "view-test-util.h"

static void
test_stats_waves_tail (void)
{
  /* 10 blocks of 100 µs on 4 SMs, 1 block per SM: waves of 4, 4, 2 */
  TlBlockRecord b[10];
  for (guint i = 0; i < 10; i++)
    b[i] = (TlBlockRecord) { .block_x = i, .unit = (i % 4), .start_ns = (i / 4) * 100000,
                             .end_ns = (i / 4) * 100000 + 100000 - i * 1000 };
  g_autoptr (TlBlockStats) s = tl_block_stats_new (b, 10, 4, 1, -1);
  g_assert_cmpuint (s->n_blocks, ==, 10);
  g_assert_cmpuint (s->n_units, ==, 4);
  g_assert_cmpuint (s->capacity, ==, 4);
  g_assert_cmpuint (s->n_waves, ==, 3);
  g_assert_true (s->last_wave_partial);
  g_assert_cmpuint (s->last_wave_blocks, ==, 2);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (s->wave[i], ==, i / 4);
  g_assert_cmpuint (s->t0_ns, ==, 0);
  g_assert_cmpuint (s->t1_ns, ==, 200000 + 100000 - 8000);
  g_assert_cmpuint (s->tail_start_ns, ==, 200000);
  g_assert_cmpfloat_with_epsilon (s->tail_share, 92000.0 / 292000.0, 1e-12);
  g_assert_cmpuint (s->min_ns, ==, 91000);
  g_assert_cmpuint (s->max_ns, ==, 100000);
  g_assert_cmpuint (s->median_ns, ==, (96000 + 95000) / 2);
  g_assert_cmpfloat_with_epsilon (s->blocks_per_unit, 2.5, 1e-12);
  g_assert_cmpuint (s->max_blocks_per_unit, ==, 3);
  g_autofree char *sum = tl_block_stats_summary (s, "SM");
  g_assert_nonnull (strstr (sum, "10 blocks on 4 SMs"));
  g_assert_nonnull (strstr (sum, "3 waves"));
  g_assert_nonnull (strstr (sum, "tail 32%"));

  /* occupancy unknown: measured from the records (1 at a time per SM) */
  g_autoptr (TlBlockStats) m = tl_block_stats_new (b, 10, 4, 0, -1);
  g_assert_true (m->slots_measured);
  g_assert_cmpuint (m->slots, ==, 1);
  g_assert_cmpuint (m->n_waves, ==, 3);

  /* two resident blocks per SM: one wave of 8 and a partial one of 2 */
  g_autoptr (TlBlockStats) o = tl_block_stats_new (b, 10, 4, 2, -1);
  g_assert_cmpuint (o->n_waves, ==, 2);
  g_assert_cmpuint (o->last_wave_blocks, ==, 2);

  /* exactly full: no tail */
  g_autoptr (TlBlockStats) f = tl_block_stats_new (b, 8, 4, 1, -1);
  g_assert_false (f->last_wave_partial);
  g_assert_cmpfloat (f->tail_share, ==, 0.0);
}

/* a CPU run where one thread took every tile while the other waited: the
 * mean (32 blocks per thread) alone would say the work was shared */
static void
test_stats_busiest_unit (void)
{
  TlBlockRecord b[64];
  for (guint i = 0; i < 64; i++)
    b[i] = (TlBlockRecord) { .block_x = i % 8, .block_y = i / 8, .unit = 0, .start_ns = i * 1000,
                             .end_ns = i * 1000 + 900 };
  g_autoptr (TlBlockStats) s = tl_block_stats_new (b, 64, 2, 1, -1);
  g_assert_true (tl_block_stats_uneven (s));
  g_autofree char *head = tl_block_stats_headline (s, "thread");
  g_assert_nonnull (strstr (head, "32 blocks per thread"));
  g_assert_nonnull (strstr (head, "the busiest thread ran 64 blocks"));

  /* shared 33 / 31: the mean says it */
  for (guint i = 33; i < 64; i++)
    b[i].unit = 1, b[i].start_ns -= 33000, b[i].end_ns -= 33000;
  g_autoptr (TlBlockStats) even = tl_block_stats_new (b, 64, 2, 1, -1);
  g_assert_false (tl_block_stats_uneven (even));
  g_autofree char *even_head = tl_block_stats_headline (even, "thread");
  g_assert_null (strstr (even_head, "busiest"));
}

static void
test_stats_slots_and_launches (void)
{
  /* one SM running three blocks at once, then a second launch */
  TlBlockRecord b[] = {
    { .block_x = 0, .unit = 0, .launch = 0, .start_ns = 0, .end_ns = 1000 },
    { .block_x = 1, .unit = 0, .launch = 0, .start_ns = 100, .end_ns = 900 },
    { .block_x = 2, .unit = 0, .launch = 0, .start_ns = 200, .end_ns = 1200 },
    { .block_x = 3, .unit = 0, .launch = 0, .start_ns = 950, .end_ns = 1500 },
    { .block_x = 0, .block_y = 1, .unit = 1, .launch = 1, .start_ns = 2000, .end_ns = 2500 },
  };
  g_autoptr (TlBlockStats) s = tl_block_stats_new (b, 5, 2, 0, -1);
  g_assert_cmpuint (s->n_launches, ==, 2);
  g_assert_cmpuint (s->slots, ==, 3);
  g_assert_cmpuint (s->max_slot, ==, 3);
  g_assert_cmpuint (s->slot[0], ==, 0);
  g_assert_cmpuint (s->slot[1], ==, 1);
  g_assert_cmpuint (s->slot[2], ==, 2);
  g_assert_cmpuint (s->slot[3], ==, 1); /* block 1 ended at 900 */
  g_assert_cmpuint (s->grid_x, ==, 4);
  g_assert_cmpuint (s->grid_y, ==, 2);
  /* capacity 6: launch 0 is one wave, launch 1 the next */
  g_assert_cmpuint (s->n_waves, ==, 2);
  g_assert_cmpuint (s->wave[4], ==, 1);

  g_autoptr (TlBlockStats) l1 = tl_block_stats_new (b, 5, 2, 0, 1);
  g_assert_cmpuint (l1->n_blocks, ==, 1);
  g_assert_false (tl_block_stats_selected (l1, 0));
  g_assert_true (tl_block_stats_selected (l1, 4));
  g_assert_cmpuint (l1->span_ns, ==, 500);

  gsize r0, rows, c0, cols;
  tl_block_tile_extent (3, 2, 32, 16, 70, 50, &r0, &rows, &c0, &cols);
  g_assert_cmpuint (r0, ==, 64);
  g_assert_cmpuint (rows, ==, 6);
  g_assert_cmpuint (c0, ==, 48);
  g_assert_cmpuint (cols, ==, 2);
}

static void
test_stats_for_run (void)
{
  g_autoptr (TlKernelRun) run = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_block_stats_new_for_run (NULL, run, -1, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "gemm-03-smem16"));

  double dur[12];
  tl_kernel_run_take_blocks (run, tl_test_grid_blocks (4, 3, 5, dur), 12, "sm");
  run->launch.valid = TRUE;
  run->launch.active_blocks_per_sm = 2;
  TlRunRecord rec = { 0 };
  rec.has_device = TRUE;
  rec.device.sm_count = 6;
  g_autoptr (TlBlockStats) s = tl_block_stats_new_for_run (&rec, run, -1, NULL);
  g_assert_cmpuint (s->n_units, ==, 6);
  g_assert_cmpuint (s->slots, ==, 2);
  g_assert_cmpuint (s->capacity, ==, 12);
  g_assert_cmpuint (s->n_waves, ==, 1);
  g_assert_false (s->last_wave_partial);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/block-stats/waves-tail", test_stats_waves_tail);
  g_test_add_func ("/block-stats/busiest-unit", test_stats_busiest_unit);
  g_test_add_func ("/block-stats/slots-launches", test_stats_slots_and_launches);
  g_test_add_func ("/block-stats/for-run", test_stats_for_run);
  return g_test_run ();
}
