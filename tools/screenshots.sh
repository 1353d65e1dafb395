#!/bin/sh
# screenshots.sh — the whole screenshot matrix (issue 10, item 9): every
# view × {window, presentation} × {default, dark, high contrast, high
# contrast inverse} × {the H200 records, a live CPU run, messages: stale
# results and an error bar} at 1024×768,
# 1280×800 and 1920×1080, each size on its own Xvfb screen, in each
# language of LANGS (default "en de sr": the app translated from the build
# tree's catalogues, as it runs from there).  Every picture is checked
# (tests/gui-screens.c says how); the pictures go to OUTDIR/LANG/SIZE and
# one contact sheet per size (imagemagick's montage, English only) to
# docs/screenshots/.
#
#   [LANGS="en de"] [SIZES=1024x768] tools/screenshots.sh [BUILD] [OUTDIR]
#                                               (defaults: build, /tmp/tilelab-screens)
#
# Exit status: 1 when any picture had a problem (they are listed).
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-/tmp/tilelab-screens}
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$PWD/$build/resources
export TL_SOURCE_DIR=$PWD XDG_DATA_HOME=$out/xdg-data LC_ALL=C.UTF-8
rm -rf "$out"
mkdir -p "$out"
status=0
for lang in ${LANGS:-en de sr}; do
for size in ${SIZES:-1024x768 1280x800 1920x1080}; do
  dir=$out/$lang/$size
  mkdir -p "$dir"
  # "en": the messages as written (no catalogue)
  LANGUAGE=$([ "$lang" = en ] || echo "$lang") xvfb-run -a -s "-screen 0 ${size}x24" \
    "$build/tests/gui-screens" --out "$dir" \
    --themes default,dark,hc,hci --modes window,presentation --scenarios records,live,messages \
    > "$dir.log" 2>&1 || status=1
  echo "$lang $size:"
  grep -E '^screens: (FAIL|[0-9]+ pictures)' "$dir.log"
  if [ "$lang" = en ] && command -v montage > /dev/null; then
    # thumbnails first (montage would hold 144 full pictures at once), then
    # one row per scenario × mode × theme, one column per view (eight; the names
    # sort so); JPEG keeps a sheet under a megabyte
    mkdir -p "$dir/thumbs"
    for f in "$dir"/*.png; do
      convert "$f" -thumbnail 240x "$dir/thumbs/$(basename "$f")"
    done
    montage "$dir"/thumbs/records-*.png "$dir"/thumbs/live-*.png \
      "$dir"/thumbs/messages-*.png -geometry +2+2 -tile 8x \
      -background '#808080' -quality 82 "docs/screenshots/matrix-$size.jpg"
  fi
done
done
exit $status
