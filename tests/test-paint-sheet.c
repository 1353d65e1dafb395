/* test-paint-sheet.c — the Source and Device exports' painter as the back
 * row sees it: listings and tables at the export's default size, a
 * lecture screen's and a small one, window and presentation type, high
 * contrast, each drawn
 *
 *   - on an unbounded recording surface: nothing is drawn off the page;
 *   - on an image surface with its texts collected: every text is at
 *     least the size the painter promises (TL_PAINT_SHEET_LEAST of the
 *     style's), none overlaps another, runs off or is cut without "…";
 *     every line and row is drawn, whole or cut with "…", or counted in
 *     the "… N more" line; a short line is drawn to its end and no
 *     further (an ink reaching past its end once read past it), a long
 *     one ends in "…" inside the page; non-ASCII text (ß, ×, →, 日本)
 *     keeps its characters; a value with a single space ("2 cores") is
 *     one text beside its label; a line the compiler found wrong is on
 *     a red band;
 *   - an empty sheet (no rows, no title) draws its background and no
 *     text out of place.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "paint/tl-paint-sheet.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-render.h"
#include "view/tl-device-facts.h"
#include "paint-test-util.h"

static const int sizes[][2] = { { 1600, 900 }, { 1024, 768 }, { 640, 360 } };

typedef struct
{
  int width, height;
  int presenting; /* 0: window type, 1: presentation, 2: high contrast */
  char *where;
} Page;

static void
page_style (const Page *p, TlPaintStyle *style)
{
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.presentation = p->presenting == 1;
  o.high_contrast = p->presenting == 2;
  tl_render_style_init (style, &o, p->width, p->height, 1.0);
}

/* everything the painter inks lies on the page */
static void
check_inside (const TlSheet *sheet, const Page *p, const TlPaintStyle *style)
{
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (rec);
  tl_paint_sheet (cr, sheet, style, p->width, p->height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  double x, y, w, h;
  cairo_recording_surface_ink_extents (rec, &x, &y, &w, &h);
  if (x < -0.5 || y < -0.5 || x + w > p->width + 0.5 || y + h > p->height + 0.5)
    g_error ("%s: ink at %.1f,%.1f %.1f×%.1f, off the page", p->where, x, y, w, h);
  cairo_surface_destroy (rec);
}

/* The boxes of the texts drawn, on an image surface (kept in *surface). */
static TlPaintTextBoxes *
draw_boxes (const TlSheet *sheet, const Page *p, const TlPaintStyle *style, cairo_surface_t **surface)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, p->width, p->height);
  cairo_t *cr = cairo_create (s);
  TlPaintTextBoxes *boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_sheet (cr, sheet, style, p->width, p->height);
  tl_paint_text_boxes_attach (cr, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  g_autoptr (GString) report = g_string_new (NULL);
  if (tl_paint_text_boxes_check (boxes, p->width, p->height, report) > 0)
    g_error ("%s: problems with the text:\n%s", p->where, report->str);
  double least = TL_PX (style, style->font_size * TL_PAINT_SHEET_LEAST);
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
      if (b->h < least - 0.01)
        g_error ("%s: “%s” is %.1f px high, under the %.1f px asked", p->where, b->text, b->h, least);
      if (b->x < 0 || b->y < 0 || b->x + b->w > p->width || b->y + b->h > p->height)
        g_error ("%s: “%s” runs off the page", p->where, b->text);
    }
  *surface = s;
  return boxes;
}

/* the box whose text is text exactly, or NULL */
static const TlPaintTextBox *
box_of (const TlPaintTextBoxes *boxes, const char *text)
{
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    if (strcmp (tl_paint_text_boxes_index (boxes, k)->text, text) == 0)
      return tl_paint_text_boxes_index (boxes, k);
  return NULL;
}

/* text drawn whole, or its start cut with "…"; FALSE: not drawn */
static gboolean
drawn_or_cut (const TlPaintTextBoxes *boxes, const char *text)
{
  if (*text == '\0' || box_of (boxes, text) != NULL)
    return TRUE;
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    {
      const char *t = tl_paint_text_boxes_index (boxes, k)->text;
      gsize len = strlen (t);
      if (g_str_has_suffix (t, "…") && len > strlen ("…") && strncmp (t, text, len - strlen ("…")) == 0)
        return TRUE;
    }
  return FALSE;
}

/* the number n in "… n more lines/rows", 0 when there is none */
static guint
counted_more (const TlPaintTextBoxes *boxes)
{
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    {
      const char *t = tl_paint_text_boxes_index (boxes, k)->text;
      if (g_str_has_prefix (t, "… ") && strstr (t, "more") != NULL)
        return (guint) g_ascii_strtoull (t + strlen ("… "), NULL, 10);
    }
  return 0;
}

static gboolean
cut_somewhere (const TlPaintTextBoxes *boxes)
{
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    if (g_str_has_suffix (tl_paint_text_boxes_index (boxes, k)->text, "…"))
      return TRUE;
  return FALSE;
}

/* ---- listings ------------------------------------------------------------ */

static const char *const code[] = {
  "// tile.cu — Größe × Breite → ü",
  "__global__ void tile (const float *A, const float *B, float *C)",
  "{",
  "}",
  "",
  "x",
  "  const char *s = \"日本語\"; // non-ASCII in a string",
  "  float acc = 0.0f; // a line far longer than any picture is wide: it goes on and on past the right "
  "edge of a projector's picture, the lecture's slide and the back row's patience, and ends cut",
};

static TlSheet *
listing (guint n_lines, guint marked)
{
  TlSheet *sheet = tl_sheet_new ("source", "05 shared-memory tiles — Größe", TRUE);
  sheet->subtitle = g_strdup_printf ("lines 1–%u of %u", n_lines, n_lines);
  for (guint i = 0; i < n_lines; i++)
    {
      const char *line = code[i % G_N_ELEMENTS (code)];
      /* long lines differ in their starts, as in a kernel */
      g_autofree char *numbered = g_strdup_printf ("  float acc%u%s", i, line + strlen ("  float acc"));
      tl_sheet_add_line (sheet, strlen (line) > 80 ? numbered : line, i == marked);
      /* a keyword's colour, and an ink past a short line's end */
      TlSheetInk keyword = { .row = i, .start = 0, .end = 2, .rgb = { 0.6, 0.1, 0.5 } };
      TlSheetInk beyond = { .row = i, .start = 1, .end = 400, .rgb = { 0.1, 0.4, 0.1 } };
      tl_sheet_add_ink (sheet, i % 3 ? &keyword : &beyond);
    }
  return sheet;
}

/* Each line of the listing is drawn from its start: its texts on one
 * row joined give the line whole or its start and "…". */
static void
check_listing_lines (const TlSheet *sheet, const TlPaintTextBoxes *boxes, const Page *p)
{
  guint n = tl_sheet_get_n_rows (sheet), shown = 0;
  for (guint i = 0; i < n; i++)
    {
      const char *line = tl_sheet_get_row (sheet, i)->value;
      g_autofree char *number = g_strdup_printf ("%u", sheet->first_number + i);
      const TlPaintTextBox *nb = box_of (boxes, number);
      if (nb == NULL)
        continue;
      shown++;
      /* the texts that start on the number's line, left to right */
      GString *joined = g_string_new (NULL);
      for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
        {
          const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
          if (fabs (b->y - nb->y) < 0.5 && b->x > nb->x + nb->w)
            g_string_append (joined, b->text);
        }
      gboolean whole = strcmp (joined->str, line) == 0;
      gboolean cut = g_str_has_suffix (joined->str, "…")
                     && strncmp (joined->str, line, joined->len - strlen ("…")) == 0
                     && joined->len > strlen ("…");
      if (!whole && !cut)
        g_error ("%s: line %u drawn as “%s”, not “%s”", p->where, i + 1, joined->str, line);
      g_string_free (joined, TRUE);
    }
  g_assert_cmpuint (shown + counted_more (boxes), ==, n);
}

static void
check_listing (guint n_lines, const Page *p)
{
  g_autoptr (TlSheet) sheet = listing (n_lines, 1);
  TlPaintStyle style;
  page_style (p, &style);
  check_inside (sheet, p, &style);
  cairo_surface_t *s;
  TlPaintTextBoxes *boxes = draw_boxes (sheet, p, &style, &s);
  check_listing_lines (sheet, boxes, p);
  /* the long line is cut, the short ones are not */
  if (n_lines > 7 && box_of (boxes, "8") != NULL && !cut_somewhere (boxes))
    g_error ("%s: the long line is not cut with “…”", p->where);
  /* the marked line (2) on a red band: left of its number, where no text is */
  const TlPaintTextBox *two = box_of (boxes, "2"), *three = box_of (boxes, "3");
  if (two != NULL && three != NULL)
    {
      guint32 marked = tl_test_pixel (s, two->x - 2, two->y + two->h / 2);
      guint32 plain = tl_test_pixel (s, three->x - 2, three->y + three->h / 2);
      guint red = (marked >> 16) & 0xff, green = (marked >> 8) & 0xff;
      if (red < green + 20 || marked == plain)
        g_error ("%s: the marked line is #%06x beside it, plain #%06x", p->where, marked & 0xffffff,
                 plain & 0xffffff);
    }
  tl_paint_text_boxes_free (boxes);
  cairo_surface_destroy (s);
}

/* ---- tables -------------------------------------------------------------- */

static TlSheet *
table (guint n_groups)
{
  TlSheet *sheet = tl_sheet_new ("device", "Device and launch facts", FALSE);
  for (guint g = 0; g < n_groups; g++)
    {
      /* the rows of a group differ from the other groups' where they may be cut */
      g_autofree char *heading = g_strdup_printf ("%s %u", g == 0 ? "NVIDIA H200" : "Hardware counters", g);
      g_autofree char *cpu = g_strdup_printf ("%u Intel(R) Xeon(R)  2  ×  Größe → 日本", g);
      g_autofree char *smem = g_strdup_printf ("%u KiB per block (227 KiB opt-in), 228 KiB per SM", g);
      g_autofree char *note = g_strdup_printf ("← the last wave %u is mostly idle (tail effect)", g);
      g_autofree char *sentence = g_strdup_printf ("From the run record (a host with a long name %u)", g);
      g_autofree char *label = g_strdup_printf ("%u a label far longer than any label column could hold", g);
      tl_sheet_add_heading (sheet, heading);
      tl_sheet_add_row (sheet, "cores", "2 cores");
      tl_sheet_add_row (sheet, "CPU", cpu);
      tl_sheet_add_row (sheet, "shared memory", smem);
      tl_sheet_add_note (sheet, note);
      tl_sheet_add_sentence (sheet, sentence);
      tl_sheet_add_row (sheet, label, "1");
    }
  return sheet;
}

static void
check_table (guint n_groups, const Page *p)
{
  g_autoptr (TlSheet) sheet = table (n_groups);
  TlPaintStyle style;
  page_style (p, &style);
  check_inside (sheet, p, &style);
  cairo_surface_t *s;
  TlPaintTextBoxes *boxes = draw_boxes (sheet, p, &style, &s);
  guint n = tl_sheet_get_n_rows (sheet), drawn = 0;
  for (guint i = 0; i < n; i++)
    {
      const TlSheetRow *row = tl_sheet_get_row (sheet, i);
      const char *main = row->kind == TL_SHEET_HEADING ? row->label : row->value;
      drawn += drawn_or_cut (boxes, main);
    }
  /* every row drawn, or counted; the first rows always drawn */
  if (drawn + counted_more (boxes) < n)
    g_error ("%s: %u of %u rows drawn, %u counted", p->where, drawn, n, counted_more (boxes));
  const TlPaintTextBox *value = box_of (boxes, "2 cores"), *label = box_of (boxes, "cores");
  if (value == NULL || label == NULL || fabs (value->y - label->y) > 0.5 || value->x <= label->x + label->w)
    g_error ("%s: “cores” and “2 cores” are not one row, label then value", p->where);
  tl_paint_text_boxes_free (boxes);
  cairo_surface_destroy (s);
}

/* ---- the pages ------------------------------------------------------------ */

typedef void (*CheckFunc) (guint n, const Page *p);

static void
each_page (CheckFunc check, const guint *counts, guint n_counts, const char *what)
{
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int presenting = 0; presenting < 3; presenting++)
      for (guint c = 0; c < n_counts; c++)
        {
          Page p = { sizes[k][0], sizes[k][1], presenting, NULL };
          p.where = g_strdup_printf ("%s of %u at %d×%d%s", what, counts[c], p.width, p.height,
                                     presenting == 2 ? " high contrast" : presenting ? " presenting" : "");
          check (counts[c], &p);
          g_free (p.where);
        }
}

static void
test_listing (void)
{
  /* a few lines, a screenful, more than fit */
  static const guint counts[] = { 3, 8, 40, 300 };
  each_page (check_listing, counts, G_N_ELEMENTS (counts), "a listing");
}

static void
test_table (void)
{
  static const guint counts[] = { 1, 3, 20 };
  each_page (check_table, counts, G_N_ELEMENTS (counts), "a table");
}

static void
test_empty (void)
{
  for (int listing_kind = 0; listing_kind < 2; listing_kind++)
    {
      g_autoptr (TlSheet) sheet = tl_sheet_new (NULL, NULL, listing_kind);
      Page p = { 1024, 768, 0, (char *) "an empty sheet" };
      TlPaintStyle style;
      page_style (&p, &style);
      check_inside (sheet, &p, &style);
      cairo_surface_t *s;
      TlPaintTextBoxes *boxes = draw_boxes (sheet, &p, &style, &s);
      g_assert_cmpuint (counted_more (boxes), ==, 0);
      for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
        g_assert_cmpstr (tl_paint_text_boxes_index (boxes, k)->text, ==, "");
      tl_paint_text_boxes_free (boxes);
      cairo_surface_destroy (s);
    }
}

/* the row of sheet labelled label: its value */
static const char *
value_of (const TlSheet *sheet, const char *label)
{
  for (guint i = 0; i < tl_sheet_get_n_rows (sheet); i++)
    if (tl_sheet_get_row (sheet, i)->kind == TL_SHEET_ROW && strcmp (tl_sheet_get_row (sheet, i)->label, label) == 0)
      return tl_sheet_get_row (sheet, i)->value;
  g_error ("no row “%s”", label);
}

/* The Device page's facts are rows made from the facts, not text split
 * at double spaces: values with spaces ("AMD EPYC  9654", "lab pc 2")
 * stay whole beside their labels; a record's facts, every rung's launch
 * facts and counters fit the page. */
static void
test_device_facts (void)
{
  TlMachineFacts machine = { .host_name = (char *) "lab pc 2", .os = (char *) "Debian  12",
                             .cpu_model = (char *) "AMD EPYC  9654  96-Core", .cores = 2 };
  g_autoptr (TlSheet) sheet = tl_sheet_new ("device", "Device and launch facts", FALSE);
  tl_device_facts_no_gpu (sheet, &machine, "no CUDA here");
  g_assert_cmpstr (value_of (sheet, _("cores")), ==, "2");
  g_assert_cmpstr (value_of (sheet, _("CPU")), ==, "AMD EPYC  9654  96-Core");
  g_assert_cmpstr (value_of (sheet, _("host")), ==, "lab pc 2");
  g_assert_cmpint (tl_sheet_get_row (sheet, 0)->kind, ==, TL_SHEET_HEADING);

  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "records",
                                                 "h200-gemm-4096-fp32-counters.json", NULL);
  TlRenderInput input;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (&input, path, &error));
  g_assert_no_error (error);
  for (guint r = 0; r < input.record->runs->len; r++)
    {
      g_autoptr (TlSheet) facts = tl_sheet_new ("device", "Device and launch facts", FALSE);
      tl_device_facts_record (facts, input.record);
      tl_device_facts_kernel (facts, input.record, input.record->runs->pdata[r]);
      g_assert_cmpstr (value_of (facts, _("SMs")), ==, "132");
      for (guint k = 0; k < G_N_ELEMENTS (sizes) - 1; k++)
        for (int presenting = 0; presenting < 3; presenting++)
          {
            Page p = { sizes[k][0], sizes[k][1], presenting, NULL };
            p.where = g_strdup_printf ("the facts of run %u at %d×%d, %d", r, p.width, p.height, presenting);
            TlPaintStyle style;
            page_style (&p, &style);
            check_inside (facts, &p, &style);
            cairo_surface_t *s;
            TlPaintTextBoxes *boxes = draw_boxes (facts, &p, &style, &s);
            guint drawn = 0;
            for (guint i = 0; i < tl_sheet_get_n_rows (facts); i++)
              {
                const TlSheetRow *row = tl_sheet_get_row (facts, i);
                drawn += drawn_or_cut (boxes, row->kind == TL_SHEET_HEADING ? row->label : row->value);
              }
            if (drawn + counted_more (boxes) < tl_sheet_get_n_rows (facts))
              g_error ("%s: rows missing", p.where);
            tl_paint_text_boxes_free (boxes);
            cairo_surface_destroy (s);
            g_free (p.where);
          }
    }
  tl_render_input_clear (&input);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paint/sheet/listing", test_listing);
  g_test_add_func ("/paint/sheet/table", test_table);
  g_test_add_func ("/paint/sheet/empty", test_empty);
  g_test_add_func ("/paint/sheet/device-facts", test_device_facts);
  return g_test_run ();
}
