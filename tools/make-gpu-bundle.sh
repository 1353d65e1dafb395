#!/bin/sh
# make-gpu-bundle.sh — build tilelab-cli and the GPU tests for a lent
# H100/H200 machine and pack them, with the shared libraries that machine
# lacks, into one folder that travels with a device run.
#
#   tools/make-gpu-bundle.sh [DEST]          (default /work/main/.gpubundle)
#
# On the device machine:  .gpubundle/run.sh tilelab-cli devices
#                         .gpubundle/run.sh test-gpu-gemm -p /gpu/gemm/small
#   what the worker costs a GPU job (tests/bench-remote.c):
#     TL_CLI=$PWD/.gpubundle/bin/tilelab-cli .gpubundle/run.sh bench-remote \
#         --kernels gemm-08-vectorized,cublas-fp32
# run.sh sets LD_LIBRARY_PATH to the bundle's lib/ plus the CUDA toolkit's.
# The CUDA module (libtilelab-gpu-cuda.so: every kernel, linked with
# cudart, cuBLAS, cuSOLVER) travels in lib/tilelab/, where the programs in
# bin/ look for it (gpu/tl-gpu-loader.c: PREFIX/lib/tilelab beside
# PREFIX/bin); the programs themselves link no CUDA.
#
# What is NOT copied (the device image has it, checked with ldd there on
# the first run): glibc, libstdc++, libgcc_s, and CUDA's libcudart,
# libcublas, libcublasLt, libcusolver, libcusparse, libnvJitLink (libcublasLt alone is 540 MB, over the 64 MiB a
# device run may carry).  OpenBLAS (used by the tests' float64 reference)
# and its Fortran runtime are copied unless WITH_BLAS=0.
#
# Environment: BUILD (build dir, default build-gpubundle), CUDA_ARCH
# (default "90"; the wgmma rungs' files — 11, 13, 14 — always get sm_90a as well).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-/work/main/.gpubundle}
build=${BUILD:-$src/build-gpubundle}
with_blas=${WITH_BLAS:-1}
. "$src/tools/env.sh"

# sm_90 for everything; gpu/meson.build adds sm_90a to the wgmma rungs' files.
arch=${CUDA_ARCH:-90}

if [ -d "$build" ]; then
  meson configure "$build" -Dbuildtype=release -Dgui=disabled -Dcuda=enabled -Dcuda-arch="$arch" >/dev/null
else
  meson setup "$build" "$src" -Dbuildtype=release -Dgui=disabled -Dcuda=enabled -Dcuda-arch="$arch" >/dev/null
fi
# Everything; if that fails (a half-merged area elsewhere), at least the
# GPU tests and the benchmark, so the device run can still check the ladder.
# Meson 1.0 does not tell nvcc to write dependency files, so ninja does not
# know which headers a .cu includes: a header that changed since the last
# bundle (a struct in gpu/tl-gpu.h that grew a field) would leave stale
# objects that crash on the device.  The bundle always compiles gpu/ afresh.
rm -rf "$build"/gpu/*.p
if ! ninja -C "$build"; then
  echo "make-gpu-bundle: full build failed; bundling the GPU tests only" >&2
  ninja -C "$build" gpu/libtilelab-gpu-cuda.so tests/test-gpu-device tests/test-gpu-gemm \
    tests/bench-gpu-gemm tests/test-lu-gpu
fi

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib/tilelab"
module=$build/gpu/libtilelab-gpu-cuda.so
cp "$module" "$dest/lib/tilelab/"
bins=""
[ -x "$build/src/cli/tilelab-cli" ] && bins="$build/src/cli/tilelab-cli"
for t in "$build"/tests/test-gpu-* "$build"/tests/bench-gpu-* "$build"/tests/test-lu-gpu "$build"/tests/bench-remote; do
  [ -f "$t" ] && [ -x "$t" ] && bins="$bins $t"
done
cp $bins "$dest/bin/"

# Copy every resolved library except the ones the device image provides.
ldd $bins "$module" | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
  base=$(basename "$lib")
  case "$base" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) continue ;;
    libcuda.so*|libcudart.so*|libcublas.so*|libcublasLt.so*|libcusolver*|libcusparse*|libnvJitLink*) continue ;;
    libopenblas*|libgfortran*|libquadmath*|liblapack*|libblas*)
      [ "$with_blas" = 1 ] || continue ;;
  esac
  cp -L "$lib" "$dest/lib/$base"
done

# A device run carries at most 64 MiB: the libraries and the programs
# travel compressed (the module holds the whole ladder's device code,
# which packs about 5:1) and are unpacked on the device machine at the
# first run.sh.
tar -C "$dest" -czf "$dest/lib.tar.gz" lib
tar -C "$dest" -czf "$dest/bin.tar.gz" bin
rm -rf "$dest/lib" "$dest/bin"

cat > "$dest/run.sh" <<'RUN'
#!/bin/sh
# Runs a bundled program with the bundle's libraries.
here=$(cd "$(dirname "$0")" && pwd)
for part in lib bin; do
  if [ ! -d "$here/$part" ]; then
    tar -C "$here" -xzf "$here/$part.tar.gz" || exit 1
  fi
done
cuda_lib=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$d" ] && cuda_lib="$cuda_lib:$d"
done
export LD_LIBRARY_PATH="$here/lib$cuda_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TL_SOURCE_DIR="${TL_SOURCE_DIR:-$here/..}"
prog=$1; shift
exec "$here/bin/$prog" "$@"
RUN
chmod +x "$dest/run.sh"
cp "$src/tools/gpu-device-check.sh" "$dest/" 2>/dev/null || true
du -sh "$dest"
