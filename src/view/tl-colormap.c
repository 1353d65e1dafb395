/* tl-colormap.c — embedded colormap tables and value scales.
 *
 * viridis and cividis: 256-entry tables from matplotlib's _cm_listed.py,
 * rounded to 8 bits.  Both maps are released under CC0 by their authors
 * (viridis: Stéfan van der Walt and Nathaniel Smith; cividis: Jamie R.
 * Nuñez, Christopher R. Anderton and Ryan S. Renslow).
 *
 * RdBu: the 11-class diverging scheme from ColorBrewer, interpolated
 * linearly between its classes.
 *
 *   Apache-Style Software License for ColorBrewer software and ColorBrewer
 *   Color Schemes.  Copyright (c) 2002 Cynthia Brewer, Mark Harrower, and
 *   The Pennsylvania State University.  Licensed under the Apache License,
 *   Version 2.0 (the "License"); you may not use this file except in
 *   compliance with the License.  You may obtain a copy of the License at
 *   http://www.apache.org/licenses/LICENSE-2.0.  Unless required by
 *   applicable law or agreed to in writing, software distributed under the
 *   License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR
 *   CONDITIONS OF ANY KIND, either express or implied.  See the License for
 *   the specific language governing permissions and limitations under the
 *   License.  This product includes color specifications and designs
 *   developed by Cynthia Brewer (http://colorbrewer.org/).
 */
#include "view/tl-colormap.h"

#include <math.h>
#include <string.h>

static const guint8 viridis_table[256][3] = {
  {68,1,84}, {68,2,86}, {69,4,87}, {69,5,89}, {70,7,90}, {70,8,92}, {70,10,93}, {70,11,94},
  {71,13,96}, {71,14,97}, {71,16,99}, {71,17,100}, {71,19,101}, {72,20,103}, {72,22,104}, {72,23,105},
  {72,24,106}, {72,26,108}, {72,27,109}, {72,28,110}, {72,29,111}, {72,31,112}, {72,32,113}, {72,33,115},
  {72,35,116}, {72,36,117}, {72,37,118}, {72,38,119}, {72,40,120}, {72,41,121}, {71,42,122}, {71,44,122},
  {71,45,123}, {71,46,124}, {71,47,125}, {70,48,126}, {70,50,126}, {70,51,127}, {70,52,128}, {69,53,129},
  {69,55,129}, {69,56,130}, {68,57,131}, {68,58,131}, {68,59,132}, {67,61,132}, {67,62,133}, {66,63,133},
  {66,64,134}, {66,65,134}, {65,66,135}, {65,68,135}, {64,69,136}, {64,70,136}, {63,71,136}, {63,72,137},
  {62,73,137}, {62,74,137}, {62,76,138}, {61,77,138}, {61,78,138}, {60,79,138}, {60,80,139}, {59,81,139},
  {59,82,139}, {58,83,139}, {58,84,140}, {57,85,140}, {57,86,140}, {56,88,140}, {56,89,140}, {55,90,140},
  {55,91,141}, {54,92,141}, {54,93,141}, {53,94,141}, {53,95,141}, {52,96,141}, {52,97,141}, {51,98,141},
  {51,99,141}, {50,100,142}, {50,101,142}, {49,102,142}, {49,103,142}, {49,104,142}, {48,105,142}, {48,106,142},
  {47,107,142}, {47,108,142}, {46,109,142}, {46,110,142}, {46,111,142}, {45,112,142}, {45,113,142}, {44,113,142},
  {44,114,142}, {44,115,142}, {43,116,142}, {43,117,142}, {42,118,142}, {42,119,142}, {42,120,142}, {41,121,142},
  {41,122,142}, {41,123,142}, {40,124,142}, {40,125,142}, {39,126,142}, {39,127,142}, {39,128,142}, {38,129,142},
  {38,130,142}, {38,130,142}, {37,131,142}, {37,132,142}, {37,133,142}, {36,134,142}, {36,135,142}, {35,136,142},
  {35,137,142}, {35,138,141}, {34,139,141}, {34,140,141}, {34,141,141}, {33,142,141}, {33,143,141}, {33,144,141},
  {33,145,140}, {32,146,140}, {32,146,140}, {32,147,140}, {31,148,140}, {31,149,139}, {31,150,139}, {31,151,139},
  {31,152,139}, {31,153,138}, {31,154,138}, {30,155,138}, {30,156,137}, {30,157,137}, {31,158,137}, {31,159,136},
  {31,160,136}, {31,161,136}, {31,161,135}, {31,162,135}, {32,163,134}, {32,164,134}, {33,165,133}, {33,166,133},
  {34,167,133}, {34,168,132}, {35,169,131}, {36,170,131}, {37,171,130}, {37,172,130}, {38,173,129}, {39,173,129},
  {40,174,128}, {41,175,127}, {42,176,127}, {44,177,126}, {45,178,125}, {46,179,124}, {47,180,124}, {49,181,123},
  {50,182,122}, {52,182,121}, {53,183,121}, {55,184,120}, {56,185,119}, {58,186,118}, {59,187,117}, {61,188,116},
  {63,188,115}, {64,189,114}, {66,190,113}, {68,191,112}, {70,192,111}, {72,193,110}, {74,193,109}, {76,194,108},
  {78,195,107}, {80,196,106}, {82,197,105}, {84,197,104}, {86,198,103}, {88,199,101}, {90,200,100}, {92,200,99},
  {94,201,98}, {96,202,96}, {99,203,95}, {101,203,94}, {103,204,92}, {105,205,91}, {108,205,90}, {110,206,88},
  {112,207,87}, {115,208,86}, {117,208,84}, {119,209,83}, {122,209,81}, {124,210,80}, {127,211,78}, {129,211,77},
  {132,212,75}, {134,213,73}, {137,213,72}, {139,214,70}, {142,214,69}, {144,215,67}, {147,215,65}, {149,216,64},
  {152,216,62}, {155,217,60}, {157,217,59}, {160,218,57}, {162,218,55}, {165,219,54}, {168,219,52}, {170,220,50},
  {173,220,48}, {176,221,47}, {178,221,45}, {181,222,43}, {184,222,41}, {186,222,40}, {189,223,38}, {192,223,37},
  {194,223,35}, {197,224,33}, {200,224,32}, {202,225,31}, {205,225,29}, {208,225,28}, {210,226,27}, {213,226,26},
  {216,226,25}, {218,227,25}, {221,227,24}, {223,227,24}, {226,228,24}, {229,228,25}, {231,228,25}, {234,229,26},
  {236,229,27}, {239,229,28}, {241,229,29}, {244,230,30}, {246,230,32}, {248,230,33}, {251,231,35}, {253,231,37},
};

static const guint8 cividis_table[256][3] = {
  {0,34,78}, {0,35,79}, {0,36,81}, {0,37,83}, {0,37,84}, {0,38,86}, {0,39,88}, {0,40,89},
  {0,40,91}, {0,41,93}, {0,42,95}, {0,42,97}, {0,43,98}, {0,44,100}, {0,44,102}, {0,45,104},
  {0,46,106}, {0,46,108}, {0,47,109}, {0,48,111}, {0,48,112}, {0,49,112}, {0,49,113}, {1,50,113},
  {5,51,113}, {8,51,112}, {12,52,112}, {15,53,112}, {18,53,112}, {20,54,112}, {22,55,112}, {24,55,111},
  {26,56,111}, {28,57,111}, {30,58,111}, {32,58,111}, {33,59,110}, {35,60,110}, {36,60,110}, {38,61,110},
  {39,62,110}, {41,63,110}, {42,63,109}, {43,64,109}, {45,65,109}, {46,65,109}, {47,66,109}, {49,67,109},
  {50,67,109}, {51,68,109}, {52,69,108}, {53,69,108}, {54,70,108}, {56,71,108}, {57,72,108}, {58,72,108},
  {59,73,108}, {60,74,108}, {61,74,108}, {62,75,108}, {63,76,108}, {64,76,108}, {65,77,108}, {66,78,108},
  {67,78,108}, {68,79,108}, {69,80,108}, {70,81,108}, {71,81,108}, {72,82,108}, {73,83,108}, {74,83,108},
  {75,84,108}, {76,85,108}, {77,85,108}, {78,86,108}, {79,87,108}, {80,87,108}, {81,88,109}, {82,89,109},
  {83,90,109}, {84,90,109}, {85,91,109}, {85,92,109}, {86,92,109}, {87,93,109}, {88,94,109}, {89,94,110},
  {90,95,110}, {91,96,110}, {92,97,110}, {93,97,110}, {94,98,110}, {94,99,111}, {95,99,111}, {96,100,111},
  {97,101,111}, {98,101,111}, {99,102,112}, {100,103,112}, {101,104,112}, {101,104,112}, {102,105,112}, {103,106,113},
  {104,106,113}, {105,107,113}, {106,108,113}, {107,109,114}, {108,109,114}, {108,110,114}, {109,111,114}, {110,111,115},
  {111,112,115}, {112,113,115}, {113,114,116}, {114,114,116}, {114,115,116}, {115,116,117}, {116,116,117}, {117,117,117},
  {118,118,118}, {119,119,118}, {119,119,119}, {120,120,119}, {121,121,119}, {122,122,120}, {123,122,120}, {124,123,120},
  {125,124,120}, {126,124,120}, {126,125,120}, {127,126,120}, {128,127,120}, {129,127,120}, {130,128,121}, {131,129,121},
  {132,130,121}, {133,130,121}, {134,131,121}, {135,132,120}, {136,133,120}, {137,133,120}, {138,134,120}, {139,135,120},
  {140,136,120}, {141,136,120}, {142,137,120}, {143,138,120}, {144,139,120}, {145,139,120}, {146,140,120}, {146,141,120},
  {147,142,120}, {148,142,119}, {149,143,119}, {150,144,119}, {151,145,119}, {152,146,119}, {153,146,119}, {154,147,118},
  {155,148,118}, {156,149,118}, {157,149,118}, {158,150,118}, {159,151,117}, {160,152,117}, {161,153,117}, {162,153,117},
  {163,154,116}, {164,155,116}, {165,156,116}, {166,156,116}, {167,157,115}, {168,158,115}, {169,159,115}, {170,160,115},
  {171,160,114}, {172,161,114}, {173,162,114}, {174,163,113}, {175,164,113}, {176,165,113}, {177,165,112}, {179,166,112},
  {180,167,111}, {181,168,111}, {182,169,111}, {183,169,110}, {184,170,110}, {185,171,109}, {186,172,109}, {187,173,109},
  {188,174,108}, {189,174,108}, {190,175,107}, {191,176,107}, {192,177,106}, {193,178,106}, {194,179,105}, {195,179,105},
  {196,180,104}, {197,181,104}, {198,182,103}, {199,183,103}, {200,184,102}, {201,185,101}, {203,185,101}, {204,186,100},
  {205,187,99}, {206,188,99}, {207,189,98}, {208,190,98}, {209,191,97}, {210,192,96}, {211,192,95}, {212,193,95},
  {213,194,94}, {214,195,93}, {215,196,92}, {217,197,92}, {218,198,91}, {219,199,90}, {220,200,89}, {221,200,88},
  {222,201,88}, {223,202,87}, {224,203,86}, {225,204,85}, {226,205,84}, {228,206,83}, {229,207,82}, {230,208,81},
  {231,209,80}, {232,210,79}, {233,211,78}, {234,211,76}, {235,212,75}, {237,213,74}, {238,214,73}, {239,215,72},
  {240,216,70}, {241,217,69}, {242,218,68}, {243,219,66}, {245,220,65}, {246,221,63}, {247,222,62}, {248,223,60},
  {249,224,58}, {251,225,56}, {252,226,54}, {253,227,52}, {254,228,52}, {254,229,53}, {254,230,54}, {254,232,56},
};
/* ColorBrewer RdBu, 11 classes, from dark red to dark blue. */
static const guint8 rdbu_classes[11][3] = {
  {103, 0, 31}, {178, 24, 43}, {214, 96, 77}, {244, 165, 130}, {253, 219, 199},
  {247, 247, 247},
  {209, 229, 240}, {146, 197, 222}, {67, 147, 195}, {33, 102, 172}, {5, 48, 97},
};

static const char *const colormap_names[TL_COLORMAP_COUNT] = {
  "viridis", "cividis", "rdbu", "gray",
};

static const char *const scale_names[TL_SCALE_COUNT] = {
  "linear", "log", "symlog",
};

const char *
tl_colormap_name (TlColormap map)
{
  g_return_val_if_fail (map < TL_COLORMAP_COUNT, "?");
  return colormap_names[map];
}

gboolean
tl_colormap_from_name (const char *name, TlColormap *out_map)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < TL_COLORMAP_COUNT; i++)
    if (g_ascii_strcasecmp (name, colormap_names[i]) == 0)
      {
        if (out_map)
          *out_map = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tl_colormap_is_diverging (TlColormap map)
{
  return map == TL_COLORMAP_RDBU;
}

const char *
tl_scale_name (TlScale scale)
{
  g_return_val_if_fail (scale < TL_SCALE_COUNT, "?");
  return scale_names[scale];
}

gboolean
tl_scale_from_name (const char *name, TlScale *out_scale)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < TL_SCALE_COUNT; i++)
    if (g_ascii_strcasecmp (name, scale_names[i]) == 0)
      {
        if (out_scale)
          *out_scale = i;
        return TRUE;
      }
  return FALSE;
}

static void
interpolate (const guint8 (*table)[3], guint n, double t, guint8 out_rgb[3])
{
  double x = t * (n - 1);
  guint i = (guint) floor (x);
  if (i >= n - 1)
    i = n - 2;
  double f = x - i;
  for (int c = 0; c < 3; c++)
    out_rgb[c] = (guint8) lround (table[i][c] + f * (table[i + 1][c] - table[i][c]));
}

void
tl_colormap_rgb (TlColormap map, double t, guint8 out_rgb[3])
{
  if (!(t > 0.0)) /* also NaN */
    t = 0.0;
  if (t > 1.0)
    t = 1.0;

  switch (map)
    {
    case TL_COLORMAP_VIRIDIS:
      memcpy (out_rgb, viridis_table[(int) lround (t * 255)], 3);
      break;
    case TL_COLORMAP_CIVIDIS:
      memcpy (out_rgb, cividis_table[(int) lround (t * 255)], 3);
      break;
    case TL_COLORMAP_RDBU:
      interpolate (rdbu_classes, 11, t, out_rgb);
      break;
    case TL_COLORMAP_GRAY:
    default:
      out_rgb[0] = out_rgb[1] = out_rgb[2] = (guint8) lround (t * 255);
      break;
    }
}

static double
symlog (double v, double linthresh)
{
  return copysign (log10 (1.0 + fabs (v) / linthresh), v);
}

static double
symlog_inverse (double y, double linthresh)
{
  return copysign ((pow (10.0, fabs (y)) - 1.0) * linthresh, y);
}

void
tl_value_range_init (TlValueRange *self)
{
  g_return_if_fail (self != NULL);
  *self = (TlValueRange) {0};
}

void
tl_value_range_add (TlValueRange *self, double v)
{
  if (isnan (v))
    {
      self->n_nan++;
      return;
    }
  if (isinf (v))
    {
      self->n_inf++;
      return;
    }
  if (self->n_finite == 0)
    self->min = self->max = v;
  else if (v < self->min)
    self->min = v;
  else if (v > self->max)
    self->max = v;
  if (v > 0 && (self->min_positive == 0 || v < self->min_positive))
    self->min_positive = v;
  if (fabs (v) > self->max_abs)
    self->max_abs = fabs (v);
  self->n_finite++;
}

void
tl_value_range_merge (TlValueRange *self, const TlValueRange *other)
{
  g_return_if_fail (self != NULL && other != NULL);
  if (other->n_finite > 0)
    {
      if (self->n_finite == 0)
        {
          self->min = other->min;
          self->max = other->max;
        }
      else
        {
          self->min = MIN (self->min, other->min);
          self->max = MAX (self->max, other->max);
        }
      if (other->min_positive > 0
          && (self->min_positive == 0 || other->min_positive < self->min_positive))
        self->min_positive = other->min_positive;
      self->max_abs = MAX (self->max_abs, other->max_abs);
    }
  self->n_finite += other->n_finite;
  self->n_nan += other->n_nan;
  self->n_inf += other->n_inf;
}

gboolean
tl_value_range_is_empty (const TlValueRange *self)
{
  return self->n_finite + self->n_nan + self->n_inf == 0;
}

/* a log scale shows at most this many decades below its top */
#define LOG_MAX_DECADES 12

void
tl_color_scale_init (TlColorScale *self, TlColormap map, TlScale scale,
                     double min, double max)
{
  g_return_if_fail (self != NULL);

  if (!isfinite (min) || !isfinite (max) || min > max)
    min = max = 0.0;

  self->map = map;
  self->scale = scale;
  self->linthresh = 1.0;

  if (scale == TL_SCALE_LOG)
    {
      /* LogNorm: from the smallest positive value the range holds (its
       * lower end when positive, else a floor below its top) to the top */
      double hi = max > 0 ? max : 1.0;
      double lo = min > 0 ? min : hi * 1e-6;
      lo = MAX (lo, hi * pow (10.0, -LOG_MAX_DECADES));
      if (!(lo < hi))
        {
          lo = hi / 10;
          hi = hi * 10;
        }
      self->vmin = lo;
      self->vmax = hi;
      return;
    }

  if (tl_colormap_is_diverging (map))
    {
      double m = MAX (fabs (min), fabs (max));
      if (!(m > 0))
        m = 1.0;
      min = -m;
      max = m;
    }
  else if (min == max)
    {
      min -= 0.5;
      max += 0.5;
    }

  self->vmin = min;
  self->vmax = max;
  if (scale == TL_SCALE_SYMLOG)
    {
      /* linear within 1/1000 of the largest magnitude */
      double m = MAX (fabs (min), fabs (max));
      self->linthresh = m > 0 ? m * 1e-3 : 1.0;
    }
}

void
tl_color_scale_init_for_range (TlColorScale *self, gint map, TlScale scale,
                               const TlValueRange *range)
{
  g_return_if_fail (self != NULL && range != NULL);

  double min = range->n_finite ? range->min : 0.0, max = range->n_finite ? range->max : 1.0;
  /* auto: a diverging map for signed data — but a log scale shows only
   * the positive values, on a sequential map */
  TlColormap m = map >= 0 && map < TL_COLORMAP_COUNT ? (TlColormap) map
                 : min >= 0 || scale == TL_SCALE_LOG ? TL_COLORMAP_VIRIDIS : TL_COLORMAP_RDBU;

  if (scale == TL_SCALE_LOG)
    tl_color_scale_init (self, m, scale, range->min_positive, max);
  else
    tl_color_scale_init (self, m, scale, min, max);
}

gboolean
tl_color_scale_masks (const TlColorScale *self, double v)
{
  return self->scale == TL_SCALE_LOG && v <= 0;
}

void
tl_colormap_mask_rgb (TlColormap map, guint8 out_rgb[3])
{
  /* sequential maps run dark to bright without grey-white: a pale grey;
   * RdBu is white in the middle: a dark grey; grey itself: amber */
  static const guint8 mask[TL_COLORMAP_COUNT][3] = {
    { 225, 225, 225 }, { 225, 225, 225 }, { 80, 80, 80 }, { 230, 160, 0 },
  };
  memcpy (out_rgb, mask[map < TL_COLORMAP_COUNT ? map : 0], 3);
}

void
tl_color_scale_init_auto (TlColorScale *self, double min, double max)
{
  g_return_if_fail (self != NULL);
  tl_color_scale_init (self, min >= 0 ? TL_COLORMAP_VIRIDIS : TL_COLORMAP_RDBU,
                       TL_SCALE_LINEAR, min, max);
}

double
tl_color_scale_normalize (const TlColorScale *self, double v)
{
  double lo, hi, x;

  if (isnan (v))
    return NAN;

  switch (self->scale)
    {
    case TL_SCALE_LOG:
      if (!(v > 0))
        return NAN; /* masked */
      lo = log10 (self->vmin);
      hi = log10 (self->vmax);
      x = log10 (v);
      break;
    case TL_SCALE_SYMLOG:
      lo = symlog (self->vmin, self->linthresh);
      hi = symlog (self->vmax, self->linthresh);
      x = symlog (v, self->linthresh);
      break;
    case TL_SCALE_LINEAR:
    default:
      lo = self->vmin;
      hi = self->vmax;
      x = v;
      break;
    }

  if (!(hi > lo))
    return 0.5;
  x = (x - lo) / (hi - lo);
  return CLAMP (x, 0.0, 1.0);
}

double
tl_color_scale_value_at (const TlColorScale *self, double t)
{
  double lo, hi;

  switch (self->scale)
    {
    case TL_SCALE_LOG:
      lo = log10 (self->vmin);
      hi = log10 (self->vmax);
      return pow (10.0, lo + t * (hi - lo));
    case TL_SCALE_SYMLOG:
      lo = symlog (self->vmin, self->linthresh);
      hi = symlog (self->vmax, self->linthresh);
      return symlog_inverse (lo + t * (hi - lo), self->linthresh);
    case TL_SCALE_LINEAR:
    default:
      return self->vmin + t * (self->vmax - self->vmin);
    }
}

void
tl_color_scale_rgb (const TlColorScale *self, double v, guint8 out_rgb[3])
{
  if (tl_color_scale_masks (self, v))
    {
      tl_colormap_mask_rgb (self->map, out_rgb);
      return;
    }
  double t = tl_color_scale_normalize (self, v);
  if (isnan (t))
    {
      out_rgb[0] = 255;
      out_rgb[1] = 0;
      out_rgb[2] = 255;
      return;
    }
  tl_colormap_rgb (self->map, t, out_rgb);
}

guint32
tl_color_scale_argb (const TlColorScale *self, double v)
{
  guint8 rgb[3];
  tl_color_scale_rgb (self, v, rgb);
  return 0xff000000u | ((guint32) rgb[0] << 16) | ((guint32) rgb[1] << 8) | rgb[2];
}
