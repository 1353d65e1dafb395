#!/bin/sh
# Prints the gresource entries for the kernels' source files, so the app can
# show each rung's code beside its numbers.  Run by meson at configure time.
cd "$1" || exit 1
for f in gpu/gemm/*.cu gpu/gemm/*.cuh gpu/lu/*.cu gpu/lu/*.cuh gpu/tl-gpu-cublas.cu src/gemm/tl-cpu-gemm.c src/lu/tl-lu-cpu-*.c src/lu/tl-lu-lapack.c; do
  [ -f "$f" ] && printf '    <file alias="source/%s">%s</file>\n' "$f" "$f"
done
exit 0
