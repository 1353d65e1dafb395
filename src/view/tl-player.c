/* tl-player.c — stepping, block jumps, play/pause with a speed, keys → actions. */
#include "view/tl-player.h"

#include <math.h>

/* GDK keyvals (gdk/gdkkeysyms.h), by number so no toolkit is needed here */
enum
{
  KEY_space = 0x020, KEY_plus = 0x02b, KEY_minus = 0x02d, KEY_equal = 0x03d,
  KEY_Home = 0xff50, KEY_Left = 0xff51, KEY_Up = 0xff52, KEY_Right = 0xff53,
  KEY_Down = 0xff54, KEY_Page_Up = 0xff55, KEY_Page_Down = 0xff56, KEY_End = 0xff57,
  KEY_KP_Home = 0xff95, KEY_KP_Left = 0xff96, KEY_KP_Up = 0xff97, KEY_KP_Right = 0xff98,
  KEY_KP_Down = 0xff99, KEY_KP_Page_Up = 0xff9a, KEY_KP_Page_Down = 0xff9b, KEY_KP_End = 0xff9c,
  KEY_KP_Add = 0xffab, KEY_KP_Subtract = 0xffad,
};

#define MOD_SHIFT 1u
#define MOD_OTHERS ((1u << 2) | (1u << 3) | (1u << 26) | (1u << 27) | (1u << 28)) /* Ctrl, Alt, Super, Hyper, Meta */

static const TlPlayerKey keys[] = {
  { KEY_Right, TL_PLAYER_NEXT, "→" },
  { KEY_KP_Right, TL_PLAYER_NEXT, "→" },
  { KEY_Page_Down, TL_PLAYER_NEXT, "Page Down" },
  { KEY_KP_Page_Down, TL_PLAYER_NEXT, "Page Down" },
  { KEY_Left, TL_PLAYER_PREV, "←" },
  { KEY_KP_Left, TL_PLAYER_PREV, "←" },
  { KEY_Page_Up, TL_PLAYER_PREV, "Page Up" },
  { KEY_KP_Page_Up, TL_PLAYER_PREV, "Page Up" },
  { KEY_Down, TL_PLAYER_NEXT_BLOCK, "↓" },
  { KEY_KP_Down, TL_PLAYER_NEXT_BLOCK, "↓" },
  { KEY_Up, TL_PLAYER_PREV_BLOCK, "↑" },
  { KEY_KP_Up, TL_PLAYER_PREV_BLOCK, "↑" },
  { KEY_Home, TL_PLAYER_HOME, "Home" },
  { KEY_KP_Home, TL_PLAYER_HOME, "Home" },
  { KEY_End, TL_PLAYER_END, "End" },
  { KEY_KP_End, TL_PLAYER_END, "End" },
  { KEY_space, TL_PLAYER_TOGGLE_PLAY, "Space" },
  { KEY_plus, TL_PLAYER_FASTER, "+" },
  { KEY_equal, TL_PLAYER_FASTER, "+" },
  { KEY_KP_Add, TL_PLAYER_FASTER, "+" },
  { KEY_minus, TL_PLAYER_SLOWER, "−" },
  { KEY_KP_Subtract, TL_PLAYER_SLOWER, "−" },
};

TlPlayer *
tl_player_new (guint n_frames, const guint *block_starts, guint n_block_starts)
{
  TlPlayer *self = g_new0 (TlPlayer, 1);
  self->n_frames = MAX (n_frames, 1);
  self->speed = TL_PLAYER_DEFAULT_SPEED;
  if (block_starts != NULL && n_block_starts > 0)
    {
      self->block_starts = g_new (guint, n_block_starts);
      for (guint i = 0; i < n_block_starts; i++)
        {
          guint s = MIN (block_starts[i], self->n_frames - 1);
          /* keep them ascending and distinct */
          if (self->n_block_starts > 0 && s <= self->block_starts[self->n_block_starts - 1])
            continue;
          self->block_starts[self->n_block_starts++] = s;
        }
    }
  return self;
}

void
tl_player_free (TlPlayer *self)
{
  if (self == NULL)
    return;
  g_free (self->block_starts);
  g_free (self);
}

gboolean
tl_player_seek (TlPlayer *self, guint position)
{
  g_return_val_if_fail (self != NULL, FALSE);
  position = MIN (position, self->n_frames - 1);
  if (position == self->position)
    return FALSE;
  self->position = position;
  return TRUE;
}

gboolean
tl_player_step (TlPlayer *self, int delta)
{
  g_return_val_if_fail (self != NULL, FALSE);
  gint64 p = (gint64) self->position + delta;
  return tl_player_seek (self, (guint) CLAMP (p, 0, (gint64) self->n_frames - 1));
}

gboolean
tl_player_step_block (TlPlayer *self, int direction)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (self->n_block_starts == 0)
    return tl_player_step (self, direction > 0 ? 1 : direction < 0 ? -1 : 0);

  if (direction > 0)
    {
      for (guint i = 0; i < self->n_block_starts; i++)
        if (self->block_starts[i] > self->position)
          return tl_player_seek (self, self->block_starts[i]);
      return tl_player_end (self);
    }
  if (direction < 0)
    {
      for (guint i = self->n_block_starts; i > 0; i--)
        if (self->block_starts[i - 1] < self->position)
          return tl_player_seek (self, self->block_starts[i - 1]);
      return tl_player_home (self);
    }
  return FALSE;
}

gboolean
tl_player_home (TlPlayer *self)
{
  return tl_player_seek (self, 0);
}

gboolean
tl_player_end (TlPlayer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return tl_player_seek (self, self->n_frames - 1);
}

gboolean
tl_player_set_playing (TlPlayer *self, gboolean playing)
{
  g_return_val_if_fail (self != NULL, FALSE);
  playing = !!playing;
  if (playing == self->playing)
    return FALSE;
  self->playing = playing;
  self->last_us = 0;
  self->carry = 0;
  if (playing && self->position == self->n_frames - 1)
    self->position = 0;
  return TRUE;
}

void
tl_player_set_speed (TlPlayer *self, double fps)
{
  g_return_if_fail (self != NULL);
  if (!isfinite (fps))
    return;
  self->speed = CLAMP (fps, TL_PLAYER_MIN_SPEED, TL_PLAYER_MAX_SPEED);
}

gboolean
tl_player_activate (TlPlayer *self, TlPlayerAction action)
{
  g_return_val_if_fail (self != NULL, FALSE);
  gboolean stepped = FALSE;

  switch (action)
    {
    case TL_PLAYER_NEXT:
      stepped = tl_player_step (self, 1);
      break;
    case TL_PLAYER_PREV:
      stepped = tl_player_step (self, -1);
      break;
    case TL_PLAYER_NEXT_BLOCK:
      stepped = tl_player_step_block (self, 1);
      break;
    case TL_PLAYER_PREV_BLOCK:
      stepped = tl_player_step_block (self, -1);
      break;
    case TL_PLAYER_HOME:
      stepped = tl_player_home (self);
      break;
    case TL_PLAYER_END:
      stepped = tl_player_end (self);
      break;
    case TL_PLAYER_TOGGLE_PLAY:
      return tl_player_set_playing (self, !self->playing);
    case TL_PLAYER_FASTER:
      tl_player_set_speed (self, self->speed * 2);
      return TRUE;
    case TL_PLAYER_SLOWER:
      tl_player_set_speed (self, self->speed / 2);
      return TRUE;
    case TL_PLAYER_NONE:
    default:
      return FALSE;
    }
  /* a manual step while playing restarts the clock from here */
  if (stepped && self->playing)
    {
      self->last_us = 0;
      self->carry = 0;
    }
  return stepped;
}

gboolean
tl_player_tick (TlPlayer *self, gint64 now_us)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (!self->playing)
    return FALSE;
  if (self->last_us == 0 || now_us < self->last_us)
    {
      self->last_us = now_us;
      return FALSE;
    }

  double due = self->carry + (now_us - self->last_us) * 1e-6 * self->speed;
  guint whole = (guint) MIN (floor (due), (double) self->n_frames);
  self->carry = due - whole;
  self->last_us = now_us;
  if (whole == 0)
    return FALSE;

  guint old = self->position;
  guint target = (guint) MIN ((guint64) self->position + whole, (guint64) self->n_frames - 1);
  self->position = target;
  if (target == self->n_frames - 1)
    {
      self->playing = FALSE;
      self->carry = 0;
      self->last_us = 0;
      return TRUE;
    }
  return target != old;
}

gint64
tl_player_next_due_us (const TlPlayer *self, gint64 now_us)
{
  g_return_val_if_fail (self != NULL, -1);
  if (!self->playing)
    return -1;
  if (self->last_us == 0)
    return 0;
  double remaining = (1.0 - self->carry) / self->speed * 1e6 - (now_us - self->last_us);
  return (gint64) MAX (ceil (remaining - 1e-3), 0);
}

TlPlayerAction
tl_player_action_for_key (guint keyval, guint modifiers)
{
  if (modifiers & MOD_OTHERS)
    return TL_PLAYER_NONE;
  gboolean shift = (modifiers & MOD_SHIFT) != 0;
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (keys[i].keyval == keyval)
      {
        /* Shift turns a step into a block step */
        if (shift && keys[i].action == TL_PLAYER_NEXT)
          return TL_PLAYER_NEXT_BLOCK;
        if (shift && keys[i].action == TL_PLAYER_PREV)
          return TL_PLAYER_PREV_BLOCK;
        return keys[i].action;
      }
  return TL_PLAYER_NONE;
}

const char *
tl_player_action_name (TlPlayerAction action)
{
  static const char *const names[] = {
    "none", "next", "previous", "next-block", "previous-block",
    "home", "end", "toggle-play", "faster", "slower",
  };
  return (guint) action < G_N_ELEMENTS (names) ? names[action] : "none";
}

const TlPlayerKey *
tl_player_keys (guint *n_keys)
{
  if (n_keys)
    *n_keys = G_N_ELEMENTS (keys);
  return keys;
}
