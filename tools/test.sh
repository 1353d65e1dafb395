#!/usr/bin/env bash
# Installs, builds and runs Tilelab's whole test suite (README quick start).
# GPU tests skip (exit 77) without a device; GUI tests run under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
. tools/env.sh

build=${TL_TEST_BUILD:-build-test}
# one GPU architecture is enough for tests without a GPU and keeps CI's
# compile time small; see meson_options.txt for the full default list
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=release -Dcuda-arch=90
fi
ninja -C "$build"
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory
xvfb-run -a -s "-screen 0 1600x1000x24" meson test -C "$build" --print-errorlogs "$@"
