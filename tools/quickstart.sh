#!/usr/bin/env bash
# Installs, builds (release) and starts Tilelab with a generated problem.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
. tools/env.sh

build=${TL_BUILD:-build}
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=release
fi
ninja -C "$build"
if [ -x "$build/ui/tilelab" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec "$build/ui/tilelab" --generate "random-uniform:512" "$@"
fi
echo "tilelab: no display (or no GTK build): the same problem through tilelab-cli" >&2
"$build/src/cli/tilelab-cli" devices
exec "$build/src/cli/tilelab-cli" gemm --kernel all --size 512 --gen random-uniform
