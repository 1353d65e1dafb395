/* tl-player.h — the Gauss step player's logic, without a toolkit.
 *
 * Positions are frames 0…n_frames−1 (tl-gauss-frame.h: frame N is the
 * moment before step N; the last frame is the finished L\U).  Block starts
 * (the first step of each block step) let the player jump a block at a
 * time.  Playing advances `speed` frames per second: the UI calls
 * tl_player_tick with the monotonic time of each frame clock tick (or a
 * timeout) and redraws when it returns TRUE; playing stops at the end.
 *
 * Keys map to actions through one table, so a widget forwards its key
 * presses and presentation clickers (which send Page Up / Page Down) work
 * like the arrow keys.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TL_PLAYER_NONE = 0,
  TL_PLAYER_NEXT,        /* step +1 */
  TL_PLAYER_PREV,        /* step −1 */
  TL_PLAYER_NEXT_BLOCK,  /* to the start of the next block step */
  TL_PLAYER_PREV_BLOCK,  /* to the start of this block step, or the one before */
  TL_PLAYER_HOME,
  TL_PLAYER_END,
  TL_PLAYER_TOGGLE_PLAY,
  TL_PLAYER_FASTER,
  TL_PLAYER_SLOWER,
} TlPlayerAction;

typedef struct
{
  guint n_frames;        /* ≥ 1 */
  guint position;        /* 0 … n_frames − 1 */
  guint *block_starts;   /* ascending frame numbers where block steps begin */
  guint n_block_starts;
  gboolean playing;
  double speed;          /* frames per second, > 0 */

  /*< private >*/
  gint64 last_us;        /* time of the last advance; 0: not started */
  double carry;          /* fractional frames owed */
} TlPlayer;

#define TL_PLAYER_DEFAULT_SPEED 4.0
#define TL_PLAYER_MIN_SPEED 0.25
#define TL_PLAYER_MAX_SPEED 64.0

/* block_starts may be NULL (unblocked: a "block" is then one step). */
TlPlayer *tl_player_new        (guint n_frames, const guint *block_starts, guint n_block_starts);
void      tl_player_free       (TlPlayer *self);

/* All return TRUE when the position (or play state) changed. */
gboolean  tl_player_seek       (TlPlayer *self, guint position);  /* clamped; the scrub slider */
gboolean  tl_player_step       (TlPlayer *self, int delta);        /* ±N frames, clamped */
gboolean  tl_player_step_block (TlPlayer *self, int direction);    /* ±1 block step */
gboolean  tl_player_home       (TlPlayer *self);
gboolean  tl_player_end        (TlPlayer *self);
/* Playing from the last frame starts again at 0. */
gboolean  tl_player_set_playing (TlPlayer *self, gboolean playing);
void      tl_player_set_speed   (TlPlayer *self, double frames_per_second); /* clamped */
gboolean  tl_player_activate    (TlPlayer *self, TlPlayerAction action);

/* Advances by the frames due at now_us (g_get_monotonic_time); TRUE when
 * the position moved.  Stops playing at the last frame. */
gboolean  tl_player_tick        (TlPlayer *self, gint64 now_us);
/* Microseconds until the next frame is due (for a timeout), -1 when paused. */
gint64    tl_player_next_due_us (const TlPlayer *self, gint64 now_us);

/* The action for a key (GDK keyvals: the table only uses their numbers,
 * so this file needs no GTK): Left/Right, KP_Left/KP_Right, Page_Up/
 * Page_Down, Up/Down (blocks), Home, End, space, plus/minus.  Keys with
 * modifiers other than Shift are not the player's (TL_PLAYER_NONE). */
TlPlayerAction tl_player_action_for_key (guint keyval, guint modifiers);
const char    *tl_player_action_name    (TlPlayerAction action);

typedef struct
{
  guint keyval;
  TlPlayerAction action;
  const char *key_name;  /* for help overlays: "Page Down" */
} TlPlayerKey;

/* The table, for help overlays. */
const TlPlayerKey *tl_player_keys (guint *n_keys);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlPlayer, tl_player_free)

G_END_DECLS
