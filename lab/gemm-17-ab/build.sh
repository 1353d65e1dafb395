#!/bin/sh
# build.sh — builds the rung 17 A/B lab (gemm-17-ab.cu) and the cubins of
# the variants it compares, into OUT (default /work/main/.gpubundle-r17ab,
# git-ignored there, so a device run can carry it).  Run from a checkout:
#
#   lab/gemm-17-ab/build.sh [OUT]
#
# The variants (rung 17's 128×256 kernel, sm_90a, the project's nvcc flags):
#   old          5b2d258 (before the plans): 95.4% of cuBLAS at 4096³ then
#   old-nofill   5b2d258 without its non-TMA producer path: the consumers'
#                main loop is then byte-for-byte the one of the plans
#   plans        da8b8a5 (the plans landed): 91.6% then
#   head         this checkout's HEAD
# On the device: OUT/run.sh (prints the table; see gemm-17-ab.cu).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/work/main/.gpubundle-r17ab}
. "$src/tools/env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

build_cubin () {   # NAME REV [PATCH-SCRIPT]
  mkdir -p "$tmp/$1"
  git -C "$src" archive "$2" gpu | tar -x -C "$tmp/$1"
  [ -n "${3:-}" ] && python3 -c "$3" "$tmp/$1/gpu/gemm/gemm-17-simt-tma.cu"
  nice nvcc -O3 -std=c++17 --expt-relaxed-constexpr -lineinfo \
    -I"$tmp/$1/gpu/gemm" -I"$tmp/$1/gpu" -gencode=arch=compute_90a,code=sm_90a -cubin \
    -o "$out/$1.cubin" "$tmp/$1/gpu/gemm/gemm-17-simt-tma.cu"
}

# 5b2d258's producer with the TMA path only (what the plans kept of it)
nofill='
import sys
p = sys.argv[1]; s = open(p).read()
a = s.index("      if (tma)\n        {")
b = s.index("  else\n    {\n      tl_setmaxnreg_inc<232> ();")
s = s[:a] + """      if (threadIdx.x == 0)
        for (int kt = 0; kt < KT; kt++)
          {
            const int s = kt % STAGES;
            tl_mbar_wait (&empty[s], ((kt / STAGES) & 1) ^ 1);
            tma_fill_stage (st, s, &full[s], &map_a, &map_b, row0, col0, kt);
          }
    }
""" + s[b:]
open(p, "w").write(s)
'
build_cubin old 5b2d258
build_cubin old-nofill 5b2d258 "$nofill"
build_cubin plans da8b8a5
build_cubin head HEAD

# the kernels' mangled names, from the cubins' section names
name_of () {   # CUBIN PATTERN
  python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', d, 0x28)
entsize, num, strndx = struct.unpack_from('<HHH', d, 0x3a)
hdr = lambda i: struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * entsize)
stro = hdr(strndx)[4]
for i in range(num):
    o = stro + hdr(i)[0]
    name = d[o:d.index(b'\0', o)].decode()
    if name.startswith('.text.') and sys.argv[2] in name:
        print(name[len('.text.'):])
        break
PY
}
{
  echo "old old.cubin $(name_of "$out/old.cubin" gemm_17_kernel) old"
  echo "old-nofill old-nofill.cubin $(name_of "$out/old-nofill.cubin" gemm_17_kernel) old"
  echo "plans plans.cubin $(name_of "$out/plans.cubin" ILi128ELi256) plan"
  echo "head head.cubin $(name_of "$out/head.cubin" ILi128ELi256) plan"
} > "$out/manifest"

nice nvcc -O3 -std=c++17 -o "$out/gemm-17-ab" "$src/lab/gemm-17-ab/gemm-17-ab.cu" \
  -L/usr/local/cuda/lib64/stubs -lcuda -lcublas
cat > "$out/run.sh" <<'RUN'
#!/bin/sh
# gemm-17-ab on the device machine: the table of the variants in manifest.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" && LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ./gemm-17-ab manifest "$@"
RUN
chmod +x "$out/run.sh"
cp "$src/lab/sass-diff.sh" "$out/" 2>/dev/null || true
du -sh "$out"
