#!/bin/sh
# check-layers-test.sh — tools/check-layers.sh sees what it must.
#
#   check-layers-test.sh SRCDIR
#
# Copies src/, gpu/, ui/ and tools/ of SRCDIR to a scratch folder, checks
# that the copy passes, then plants one violation at a time and checks
# that the script fails on it, naming it:
#   - a rung's header included from src/ (only gpu/tl-gpu.h is the door);
#   - GTK included from src/core;
#   - a tl_gpu_* call from ui/;
#   - two files of one area that call each other;
# and, beyond the four the issue named: Cairo in src/view, a file of
# src/paint that never touches Cairo, an area including one above it.
set -eu
src=$1
scratch=$(mktemp -d "${TMPDIR:-/tmp}/check-layers-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
for d in src gpu ui tools; do
  cp -R "$src/$d" "$scratch/$d"
done
check="$scratch/tools/check-layers.sh"
failures=0

# expect_fail NAME PATTERN: the script fails and prints PATTERN
expect_fail () {
  if out=$(sh "$check" "$scratch" 2>&1); then
    echo "not ok: $1: check-layers passed"
    failures=$((failures + 1))
  elif ! printf '%s\n' "$out" | grep -q -- "$2"; then
    echo "not ok: $1: check-layers failed without saying “$2”:"
    printf '%s\n' "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}

# plant FILE TEXT: appends TEXT to FILE (restored by restore)
plant () {
  cp "$scratch/$1" "$scratch/$1.orig"
  printf '%s\n' "$2" >> "$scratch/$1"
  planted=$1
}
restore () {
  mv "$scratch/$planted.orig" "$scratch/$planted"
}

if out=$(sh "$check" "$scratch" 2>&1); then
  echo "ok: the tree passes"
else
  echo "not ok: the tree itself fails:"
  printf '%s\n' "$out" | sed 's/^/    /'
  exit 1
fi

plant src/gemm/tl-kernels.c '#include "gemm/tl-gemm-rung.h"'
expect_fail "a rung's header from src/" "only the door gpu/tl-gpu.h"
restore

plant src/core/tl-matrix.c '#include <gtk/gtk.h>'
expect_fail "GTK in src/core" "core may not include GTK"
restore

plant ui/tl-window.c '
int
tl_window_planted_gpu_count (void)
{
  return tl_gpu_kernel_count ();
}'
expect_fail "a tl_gpu_* call from ui/" "ui may not call gpu (tl_gpu_kernel_count)"
restore

cat > "$scratch/src/core/tl-ping.h" <<'EOF'
#pragma once
int tl_ping (int n);
EOF
cat > "$scratch/src/core/tl-pong.h" <<'EOF'
#pragma once
int tl_pong (int n);
EOF
cat > "$scratch/src/core/tl-ping.c" <<'EOF'
#include "core/tl-ping.h"
#include "core/tl-pong.h"

int
tl_ping (int n)
{
  return n > 0 ? tl_pong (n - 1) : 0;
}
EOF
cat > "$scratch/src/core/tl-pong.c" <<'EOF'
#include "core/tl-pong.h"
#include "core/tl-ping.h"

int
tl_pong (int n)
{
  return n > 0 ? tl_ping (n - 1) : 1;
}
EOF
expect_fail "two files of one area calling each other" "circle: src/core/tl-ping -> src/core/tl-pong -> src/core/tl-ping"
# the same through one shared header: the definitions decide, not the declarations
rm "$scratch/src/core/tl-pong.h"
sed -i 's|#include "core/tl-pong.h"|#include "core/tl-ping.h"|' "$scratch/src/core/tl-pong.c" "$scratch/src/core/tl-ping.c"
printf 'int tl_pong (int n);\n' >> "$scratch/src/core/tl-ping.h"
expect_fail "a circle through one shared header" "circle: src/core/tl-ping -> src/core/tl-pong -> src/core/tl-ping"
rm "$scratch/src/core/tl-ping.h" "$scratch/src/core/tl-ping.c" "$scratch/src/core/tl-pong.c"

plant src/view/tl-player.c '#include <cairo.h>'
expect_fail "Cairo in src/view" "view may not include Cairo"
restore

cat > "$scratch/src/paint/tl-paint-planted.c" <<'EOF'
#include <glib.h>

int
tl_paint_planted_count (void)
{
  return 3;
}
EOF
expect_fail "a Cairo-free file in src/paint" "src/paint/tl-paint-planted.c: paint holds painters"
rm "$scratch/src/paint/tl-paint-planted.c"

plant src/core/tl-stats.c '#include "record/tl-record.h"'
expect_fail "core including record" "core may not include record"
restore

if out=$(sh "$check" "$scratch" 2>&1); then
  echo "ok: the tree passes again"
else
  echo "not ok: the restored tree fails:"
  printf '%s\n' "$out" | sed 's/^/    /'
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
