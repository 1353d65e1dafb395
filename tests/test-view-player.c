/* test-view-player.c — the step player's logic: steps, block jumps, scrubbing,
 * play/pause at a speed, keys → actions. */
#include "view/tl-player.h"

/* GDK keyvals, as the GUI forwards them */
#define K_Left 0xff51
#define K_Right 0xff53
#define K_Up 0xff52
#define K_Down 0xff54
#define K_Page_Up 0xff55
#define K_Page_Down 0xff56
#define K_Home 0xff50
#define K_End 0xff57
#define K_space 0x20
#define SHIFT 1u
#define CTRL 4u

static void
test_steps (void)
{
  /* 65 frames (64 steps + the end), blocks of 16 */
  const guint starts[] = { 0, 16, 32, 48 };
  g_autoptr (TlPlayer) p = tl_player_new (65, starts, 4);

  g_assert_cmpuint (p->position, ==, 0);
  g_assert_false (tl_player_step (p, -1));
  g_assert_true (tl_player_step (p, 1));
  g_assert_cmpuint (p->position, ==, 1);
  g_assert_true (tl_player_step_block (p, 1));
  g_assert_cmpuint (p->position, ==, 16);
  g_assert_true (tl_player_step_block (p, 1));
  g_assert_cmpuint (p->position, ==, 32);
  g_assert_true (tl_player_step (p, 5));
  g_assert_cmpuint (p->position, ==, 37);
  /* back: first to the start of this block, then the one before */
  g_assert_true (tl_player_step_block (p, -1));
  g_assert_cmpuint (p->position, ==, 32);
  g_assert_true (tl_player_step_block (p, -1));
  g_assert_cmpuint (p->position, ==, 16);
  g_assert_true (tl_player_seek (p, 50));
  g_assert_true (tl_player_step_block (p, 1));
  g_assert_cmpuint (p->position, ==, 64);
  g_assert_false (tl_player_step_block (p, 1));
  g_assert_false (tl_player_step (p, 1));
  g_assert_true (tl_player_home (p));
  g_assert_cmpuint (p->position, ==, 0);
  g_assert_false (tl_player_step_block (p, -1));
  g_assert_true (tl_player_end (p));
  g_assert_cmpuint (p->position, ==, 64);
  /* scrubbing clamps */
  g_assert_true (tl_player_seek (p, 7));
  g_assert_true (tl_player_seek (p, 1000));
  g_assert_cmpuint (p->position, ==, 64);
  g_assert_true (tl_player_step (p, -100));
  g_assert_cmpuint (p->position, ==, 0);

  /* unblocked: a block step is one step */
  g_autoptr (TlPlayer) u = tl_player_new (5, NULL, 0);
  g_assert_true (tl_player_step_block (u, 1));
  g_assert_cmpuint (u->position, ==, 1);
  g_assert_true (tl_player_step_block (u, -1));
  g_assert_cmpuint (u->position, ==, 0);

  /* one frame: nothing moves */
  g_autoptr (TlPlayer) one = tl_player_new (1, NULL, 0);
  g_assert_false (tl_player_step (one, 1));
  g_assert_false (tl_player_end (one));
}

static void
test_play (void)
{
  g_autoptr (TlPlayer) p = tl_player_new (10, NULL, 0);
  gint64 t = 1000000000;

  g_assert_false (tl_player_tick (p, t)); /* paused */
  g_assert_cmpint (tl_player_next_due_us (p, t), ==, -1);
  tl_player_set_speed (p, 4.0);
  g_assert_true (tl_player_set_playing (p, TRUE));
  g_assert_false (tl_player_tick (p, t));         /* starts the clock */
  g_assert_false (tl_player_tick (p, t + 100000)); /* 0.4 frames due */
  g_assert_cmpint (tl_player_next_due_us (p, t + 100000), ==, 150000);
  g_assert_true (tl_player_tick (p, t + 250000));  /* 1.0 */
  g_assert_cmpuint (p->position, ==, 1);
  g_assert_true (tl_player_tick (p, t + 750000));  /* 2 more */
  g_assert_cmpuint (p->position, ==, 3);
  /* a manual step while playing */
  g_assert_true (tl_player_activate (p, TL_PLAYER_NEXT));
  g_assert_cmpuint (p->position, ==, 4);
  g_assert_false (tl_player_tick (p, t + 800000));
  g_assert_true (tl_player_tick (p, t + 1300000));
  g_assert_cmpuint (p->position, ==, 6);
  /* faster; then it stops at the end */
  g_assert_true (tl_player_activate (p, TL_PLAYER_FASTER));
  g_assert_cmpfloat (p->speed, ==, 8.0);
  g_assert_true (tl_player_tick (p, t + 5000000));
  g_assert_cmpuint (p->position, ==, 9);
  g_assert_false (p->playing);
  /* play again from the end starts over */
  g_assert_true (tl_player_activate (p, TL_PLAYER_TOGGLE_PLAY));
  g_assert_true (p->playing);
  g_assert_cmpuint (p->position, ==, 0);
  g_assert_true (tl_player_activate (p, TL_PLAYER_TOGGLE_PLAY));
  g_assert_false (p->playing);

  tl_player_set_speed (p, 1e9);
  g_assert_cmpfloat (p->speed, ==, TL_PLAYER_MAX_SPEED);
  tl_player_set_speed (p, 0);
  g_assert_cmpfloat (p->speed, ==, TL_PLAYER_MIN_SPEED);
  g_assert_true (tl_player_activate (p, TL_PLAYER_SLOWER));
  g_assert_cmpfloat (p->speed, ==, TL_PLAYER_MIN_SPEED);
}

static void
test_keys (void)
{
  g_assert_cmpint (tl_player_action_for_key (K_Right, 0), ==, TL_PLAYER_NEXT);
  g_assert_cmpint (tl_player_action_for_key (K_Left, 0), ==, TL_PLAYER_PREV);
  g_assert_cmpint (tl_player_action_for_key (K_Page_Down, 0), ==, TL_PLAYER_NEXT);
  g_assert_cmpint (tl_player_action_for_key (K_Page_Up, 0), ==, TL_PLAYER_PREV);
  g_assert_cmpint (tl_player_action_for_key (K_Down, 0), ==, TL_PLAYER_NEXT_BLOCK);
  g_assert_cmpint (tl_player_action_for_key (K_Up, 0), ==, TL_PLAYER_PREV_BLOCK);
  g_assert_cmpint (tl_player_action_for_key (K_Right, SHIFT), ==, TL_PLAYER_NEXT_BLOCK);
  g_assert_cmpint (tl_player_action_for_key (K_Page_Up, SHIFT), ==, TL_PLAYER_PREV_BLOCK);
  g_assert_cmpint (tl_player_action_for_key (K_Home, 0), ==, TL_PLAYER_HOME);
  g_assert_cmpint (tl_player_action_for_key (K_End, 0), ==, TL_PLAYER_END);
  g_assert_cmpint (tl_player_action_for_key (K_space, 0), ==, TL_PLAYER_TOGGLE_PLAY);
  g_assert_cmpint (tl_player_action_for_key (K_Right, CTRL), ==, TL_PLAYER_NONE);
  g_assert_cmpint (tl_player_action_for_key ('a', 0), ==, TL_PLAYER_NONE);
  g_assert_cmpstr (tl_player_action_name (TL_PLAYER_NEXT_BLOCK), ==, "next-block");

  guint n;
  const TlPlayerKey *keys = tl_player_keys (&n);
  g_assert_cmpuint (n, >=, 10);
  for (guint i = 0; i < n; i++)
    {
      g_assert_nonnull (keys[i].key_name);
      g_assert_cmpint (tl_player_action_for_key (keys[i].keyval, 0), ==, keys[i].action);
    }

  /* driving a player with keys, as the GUI forwards them */
  const guint starts[] = { 0, 4, 8 };
  g_autoptr (TlPlayer) p = tl_player_new (11, starts, 3);
  const guint seq[] = { K_Right, K_Right, K_Page_Down, K_Down, K_Left, K_Up, K_End, K_Page_Up, K_Home };
  const guint want[] = { 1, 2, 3, 4, 3, 0, 10, 9, 0 };
  for (guint i = 0; i < G_N_ELEMENTS (seq); i++)
    {
      tl_player_activate (p, tl_player_action_for_key (seq[i], 0));
      g_assert_cmpuint (p->position, ==, want[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/player/steps", test_steps);
  g_test_add_func ("/player/play", test_play);
  g_test_add_func ("/player/keys", test_keys);
  return g_test_run ();
}
