#!/bin/sh
# gui-responsiveness.sh — the desktop app's responsiveness figures (issue 10,
# item 8), measured the way a lecturer meets them:
#
#   1. first window: exec of `tilelab` to its first drawn frame, 7 launches
#      (TILELAB_PROBE=first-frame prints CLOCK_MONOTONIC and the CPU time the
#      process had used by then), under a private session bus as on a desktop
#   2. main-loop stalls while a run starts, progresses and its results
#      arrive: gui-probe gap N (a 5 ms timer on the main loop; the worst gap
#      and the main thread's own CPU time within it)
#   3. an 8192² pair: from A's arrival in the window to its first (coarse)
#      and its full heatmap: gui-probe heatmap 8192
#
#   tools/gui-responsiveness.sh [BUILD] [GAP_N]     (defaults: build, 2048)
#
# Wall-clock figures depend on what else the machine runs: the load average
# is printed before and after; the CPU figures do not.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
gap_n=${2:-2048}
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$PWD/$build/resources
export G_TEST_SRCDIR=$PWD/tests TL_SOURCE_DIR=$PWD
screen="-screen 0 1280x800x24"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== first window (7 launches): seconds from exec to the first frame, CPU seconds by then"
xvfb-run -a -s "$screen" dbus-run-session -- python3 - "$PWD/$build/ui/tilelab" <<'PY'
import os, re, subprocess, sys, time
env = dict(os.environ, TILELAB_PROBE="first-frame")
walls, cpus = [], []
for i in range(7):
    t0 = time.monotonic()
    out = subprocess.run([sys.argv[1]], env=env, capture_output=True, text=True, timeout=120).stdout
    m = re.search(r"first-frame-monotonic-us (\d+) cpu-us (\d+)", out)
    if m:
        walls.append(int(m.group(1)) / 1e6 - t0)
        cpus.append(int(m.group(2)) / 1e6)
med = lambda v: sorted(v)[len(v) // 2]
print("wall", " ".join("%.2f" % w for w in walls), "median %.2f" % med(walls))
print("cpu ", " ".join("%.2f" % c for c in cpus), "median %.2f" % med(cpus))
PY

echo "== main-loop gaps during a cpu-blocked ${gap_n}³ run (views switched and A zoomed meanwhile)"
xvfb-run -a -s "$screen" "$build/tests/gui-probe" gap "$gap_n" 2>&1 | grep 'gui-probe: gap n='

echo "== an 8192² pair: A's heatmap after A arrived"
xvfb-run -a -s "$screen" "$build/tests/gui-probe" heatmap 8192 2>&1 | grep 'gui-probe: heatmap'

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
