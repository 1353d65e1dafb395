#!/bin/sh
# gpu-device-check.sh — run on the device machine from the repository root:
# what the machine has, whether the bundle's binaries resolve, then the GPU
# tests, compute-sanitizer on every rung at the small odd shapes
# (test-gpu-gemm's /gpu/gemm/small: 1×1×1 … 130×136×72), and (when
# asked) the benchmark.  Output under $OUT (or ./gpu-out).
#   .gpubundle/gpu-device-check.sh [facts] [tests] [sanitize] [bench]
# `gui` drives the desktop app instead; it needs the GUI bundle
# (tools/gpu-gui-check.sh bundle), which travels apart from this one:
#   .devcarry-gpugui/gpu-device-check.sh gui
b=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-./gpu-out}
mkdir -p "$out"
if [ "${1:-}" = gui ]; then
  exec "$b/gpu-gui-check.sh" run
fi
for part in lib bin; do
  [ -d "$b/$part" ] || tar -C "$b" -xzf "$b/$part.tar.gz"
done
export LD_LIBRARY_PATH="$b/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="/usr/local/cuda/bin:$PATH"
for what in "$@"; do
  case $what in
    facts)
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
      ldd "$b"/bin/* "$b"/lib/tilelab/*.so | grep -E "not found|cudart|cublas|cusolver|openblas|lapack" | sort -u
      ldconfig -p | grep -E "openblas|lapack|libblas|glib-2|json-glib|gfortran" | head
      "$b/run.sh" tilelab-cli devices
      ;;
    tests)
      for t in "$b"/bin/test-gpu-*; do
        echo "== $(basename "$t")"
        start=$(date +%s)
        "$b/run.sh" "$(basename "$t")" > "$out/$(basename "$t").log" 2>&1
        rc=$?
        grep -vE "^ok|^# (gemm|cublas)" "$out/$(basename "$t").log" | tail -25
        echo "exit $rc after $(( $(date +%s) - start )) s"
      done
      ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        echo "== compute-sanitizer $tool"
        compute-sanitizer --tool "$tool" --error-exitcode 9 "$b/bin/test-gpu-gemm" -p /gpu/gemm/small \
          > "$out/sanitize-$tool.log" 2>&1
        echo "exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|error" "$out/sanitize-$tool.log" | sort | uniq -c | head -8
      done
      ;;
    bench)
      "$b/run.sh" bench-gpu-gemm ${BENCH_ARGS:-} > "$out/bench.md" 2>&1
      echo "bench exit $?"; cat "$out/bench.md"
      ;;
  esac
done
