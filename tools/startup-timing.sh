#!/bin/sh
# startup-timing.sh — how long Tilelab takes to start (issue 10, item 8):
#
#   1. the window: exec of `tilelab` to its first drawn frame (TILELAB_PROBE=
#      first-frame prints CLOCK_MONOTONIC and the CPU time used by then),
#      under Xvfb and a private session bus, as tools/gui-responsiveness.sh;
#   2. `tilelab-cli --help` and `tilelab-cli info FILE` (a 64×64 .npy), exec
#      to exit: wall and CPU (user + system) seconds;
#   3. which CUDA libraries each executable has as DT_NEEDED (ldd).
#
# Each is launched N times (default 9); the medians are printed last.
#   tools/startup-timing.sh [BUILD] [N]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-9}
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$PWD/$build/resources
export TL_SOURCE_DIR=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/src/cli/tilelab-cli" generate random-uniform --size 64 --seed 1 -o "$tmp/a.npy" \
  > /dev/null

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), build: $build"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for exe in "$build/ui/tilelab" "$build/src/cli/tilelab-cli"; do
  [ -x "$exe" ] || continue
  libs=$(ldd "$exe" | awk '/libcu|libnvJit/ { print $1 }' | tr '\n' ' ')
  echo "ldd $exe: ${libs:-no CUDA library}"
done

python3 - "$PWD/$build" "$runs" "$tmp/a.npy" <<'PY'
import os, re, resource, subprocess, sys, time
build, runs, npy = sys.argv[1], int(sys.argv[2]), sys.argv[3]
med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")

def timed(argv, env=None):
    """wall and CPU seconds of one child, exec to exit"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def report(name, pairs):
    walls = [w for w, _ in pairs]
    cpus = [c for _, c in pairs]
    print("%-22s wall %s  median %.3f s" % (name, " ".join("%.2f" % w for w in walls), med(walls)))
    print("%-22s cpu  %s  median %.3f s" % ("", " ".join("%.2f" % c for c in cpus), med(cpus)))

cli = os.path.join(build, "src/cli/tilelab-cli")
report("tilelab-cli --help", [timed([cli, "--help"]) for _ in range(runs)])
report("tilelab-cli info", [timed([cli, "info", npy]) for _ in range(runs)])

window = os.path.join(build, "ui/tilelab")
if os.path.exists(window) and os.environ.get("DISPLAY"):
    env = dict(os.environ, TILELAB_PROBE="first-frame")
    pairs = []
    for i in range(runs):
        t0 = time.monotonic()
        out = subprocess.run([window], env=env, capture_output=True, text=True, timeout=120).stdout
        m = re.search(r"first-frame-monotonic-us (\d+) cpu-us (\d+)", out)
        if m:
            pairs.append((int(m.group(1)) / 1e6 - t0, int(m.group(2)) / 1e6))
    report("tilelab first frame", pairs)
else:
    print("tilelab first frame: no display (run under xvfb-run) or no GUI build")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
