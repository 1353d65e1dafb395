#!/bin/sh
# gpu-gui-check.sh — the desktop app on the GPU machine, end to end.
#
#   tools/gpu-gui-check.sh bundle [DEST]     here, after a CUDA + GTK build
#                                            (BUILD, default build-gpu; DEST
#                                            default /work/main/.devcarry-gpugui)
#   DEST/gpu-gui-check.sh run                on the device machine, from the
#                                            repository root (output under $OUT)
#   DEST/gpu-device-check.sh gui             the same, as a part of the device check
#
# The device machine has CUDA and nothing of a desktop, so the bundle
# brings it: the window's driver (tests/gui-gpu-probe: the real window,
# in-process) and tilelab-cli, with the CUDA module they load on the first
# GPU call (lib/tilelab); the GTK/GLib/pango/cairo/json-glib libraries
# they load (their ldd closure without glibc, libstdc++, libgcc_s and
# CUDA's libraries, which the device has); Xvfb and xkbcomp with the xkb
# data; one font and a fonts.conf; the compiled GSettings schema; the
# shared MIME database (GTK aborts on PNG icons without it); the symbolic
# icons; the SVG pixbuf loader with a loaders.cache written for where the
# bundle lands; and the GPU tests of cancelling and of a lost device.
#
# `run` starts Xvfb (it runs xkbcomp from /usr/bin, compiled in: a link is
# placed there when missing; `-extension GLX -fp built-ins` avoids its GLX
# and font-path errors), drives the window (gui-gpu-probe: every GPU rung
# at an odd shape, each page's screenshot, Escape during a ~2 s and a
# ~10 ms launch, the device chooser by ordinal, a product larger than the
# card, Escape during a GPU LU), then measures Ctrl+C on tilelab-cli (GEMM
# at both launch lengths, LU) from the runner's log (G_MESSAGES_DEBUG:
# "cancel requested" → "worker idle" → "result delivered", monotonic ms),
# and runs the GPU tests.  The screenshots come back as one tar
# ($OUT/screens.tar, and everything else in $OUT/logs.tar: a device run
# returns a limited number of files).
# GPU_GUI_SHORT=1: the float32 ladder only, no GEMM cancel in the window,
# no GPU tests.  GPU_GUI_ONLY=user: the window's checks of your own kernels
# only (gui-gpu-probe's user-* cases), nothing else.  The bundle also holds
# test-gpu-user-kernel, test-gpu-remote and bench-remote (run them with
# TL_CLI=DEST/bin/tilelab-cli after `run` has unpacked the bundle).
# Prints a short table last.
set -u
here=$(cd "$(dirname "$0")" && pwd)

bundle () {
  src=$(cd "$here/.." && pwd)
  dest=${1:-/work/main/.devcarry-gpugui}
  build=${BUILD:-$src/build-gpu}
  ninja -C "$build" tests/gui-gpu-probe src/cli/tilelab-cli tests/test-gpu-lost resources/gschemas.compiled \
    tests/test-gpu-gemm tests/test-lu-gpu tests/test-gpu-user-kernel tests/test-gpu-remote \
    tests/bench-remote gpu/libtilelab-gpu-cuda.so || exit 1
  rm -rf "$dest"
  mkdir -p "$dest/bin" "$dest/lib/loaders" "$dest/lib/tilelab" "$dest/etc" "$dest/share/fonts" \
    "$dest/share/glib-2.0/schemas" "$dest/share/mime" "$dest/share/X11" \
    "$dest/share/icons/Adwaita" "$dest/share/icons/hicolor"
  for p in tests/gui-gpu-probe src/cli/tilelab-cli tests/test-gpu-lost tests/test-gpu-gemm \
           tests/test-lu-gpu tests/test-gpu-user-kernel tests/test-gpu-remote tests/bench-remote; do
    cp "$build/$p" "$dest/bin/"
  done
  strip "$dest"/bin/* 2>/dev/null
  # the CUDA module, where the programs in bin/ look for it (../lib/tilelab)
  cp "$build/gpu/libtilelab-gpu-cuda.so" "$dest/lib/tilelab/"
  cp /usr/bin/Xvfb /usr/bin/xkbcomp "$dest/bin/"
  pixbuf=$(pkg-config --variable=gdk_pixbuf_moduledir gdk-pixbuf-2.0)
  cp "$pixbuf/libpixbufloader-svg.so" "$dest/lib/loaders/"

  # the libraries all of them load, but what the device has
  ldd "$dest"/bin/* "$dest"/lib/loaders/*.so "$dest"/lib/tilelab/*.so | awk '/=> \// { print $3 }' | sort -u |
    while read -r lib; do
      case $(basename "$lib") in
        libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;;
        libcuda.so*|libcudart.so*|libcublas*|libcusolver*|libcusparse*|libnvJitLink*) ;;
        *) cp -L "$lib" "$dest/lib/" ;;
      esac
    done

  # the loader's cache names the module by path: written for the bundle's
  # place on the device machine at `run`
  GDK_PIXBUF_MODULEDIR="$dest/lib/loaders" \
    "$(pkg-config --variable=gdk_pixbuf_query_loaders gdk-pixbuf-2.0)" \
    | sed "s|$dest|@BUNDLE@|g" > "$dest/lib/loaders.cache.in"

  cp -r /usr/share/X11/xkb "$dest/share/X11/"
  for f in mime.cache globs globs2 magic aliases subclasses types icons generic-icons \
           treemagic XMLnamespaces version; do
    [ -f "/usr/share/mime/$f" ] && cp "/usr/share/mime/$f" "$dest/share/mime/"
  done
  cp /usr/share/icons/hicolor/index.theme "$dest/share/icons/hicolor/"
  cp /usr/share/icons/Adwaita/index.theme "$dest/share/icons/Adwaita/"
  (cd /usr/share/icons/Adwaita && find scalable -name '*-symbolic.svg' \
     -exec cp --parents {} "$dest/share/icons/Adwaita/" \;)
  cp "$(fc-match -f '%{file}' 'DejaVu Sans')" "$dest/share/fonts/"
  cp "$(fc-match -f '%{file}' 'DejaVu Sans Mono')" "$dest/share/fonts/"
  cp "$build/resources/gschemas.compiled" "$dest/share/glib-2.0/schemas/" 2>/dev/null \
    || glib-compile-schemas --targetdir="$dest/share/glib-2.0/schemas" "$src/resources"
  cat > "$dest/etc/fonts.conf.in" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>@BUNDLE@/share/fonts</dir>
  <cachedir>/tmp/tilelab-fontconfig</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
</fontconfig>
CONF

  # at most 64 MiB travel with a device run (the tree included): packed
  # with xz, 29 MB where gzip makes 47 (OpenBLAS and ICU's data are most)
  for part in bin lib share etc; do
    XZ_OPT=-6 tar -C "$dest" -cJf "$dest/$part.tar.xz" "$part" && rm -rf "${dest:?}/$part"
  done
  cp "$src/tools/gpu-gui-check.sh" "$src/tools/gpu-device-check.sh" "$dest/"
  du -sh "$dest"
}

# ms between the runner's log lines "… A at X ms" and "… B at Y ms" in a log
between () {
  awk -v a="$2" -v b="$3" '
    index($0, a) && !ta { sub(/.* at /, ""); ta = $1 + 0 }
    index($0, b) && !tb { sub(/.* at /, ""); tb = $1 + 0 }
    END { if (ta && tb) printf "%.1f", tb - ta; else printf "n/a" }' "$1"
}

# tilelab-cli with Ctrl+C after `wait` seconds; prints its latencies
cli_cancel () {
  name=$1 wait=$2; shift 2
  G_MESSAGES_DEBUG=Tilelab "$b/bin/tilelab-cli" "$@" > "$out/$name.out" 2> "$out/$name.log" &
  pid=$!
  sleep "$wait"
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  echo "| $name | exit $rc | started→cancel $(between "$out/$name.log" ": started at" "cancel requested") ms" \
       "| cancel→worker idle $(between "$out/$name.log" "cancel requested" "worker idle") ms" \
       "| cancel→result $(between "$out/$name.log" "cancel requested" "result delivered") ms |" \
       "$(grep -c '"cancelled"' "$out/$name.json" 2>/dev/null || echo 0) cancelled record(s) |"
}

run () {
  b=$here
  out=${OUT:-./gpu-out}
  mkdir -p "$out"
  for part in bin lib share etc; do
    [ -d "$b/$part" ] || tar -C "$b" -xJf "$b/$part.tar.xz" \
      || python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
           "$b/$part.tar.xz" "$b" || exit 1
  done
  sed "s|@BUNDLE@|$b|g" "$b/lib/loaders.cache.in" > "$b/lib/loaders.cache"
  sed "s|@BUNDLE@|$b|g" "$b/etc/fonts.conf.in" > "$b/etc/fonts.conf"
  export LD_LIBRARY_PATH="$b/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export GDK_PIXBUF_MODULE_FILE="$b/lib/loaders.cache" FONTCONFIG_FILE="$b/etc/fonts.conf"
  export XDG_DATA_DIRS="$b/share" GSETTINGS_SCHEMA_DIR="$b/share/glib-2.0/schemas"
  export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GDK_BACKEND=x11 GIO_USE_VFS=local
  export TL_SOURCE_DIR="${TL_SOURCE_DIR:-$(pwd)}"

  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  [ -e /usr/bin/xkbcomp ] || ln -s "$b/bin/xkbcomp" /usr/bin/xkbcomp \
    || echo "gpu-gui-check: cannot place xkbcomp in /usr/bin; Xvfb may fail"
  "$b/bin/Xvfb" :77 -screen 0 1280x800x24 -extension GLX -fp built-ins -nolisten tcp \
    -xkbdir "$b/share/X11/xkb" > "$out/xvfb.log" 2>&1 &
  xvfb=$!
  for i in $(seq 50); do [ -e /tmp/.X11-unix/X77 ] && break; sleep 0.2; done
  export DISPLAY=:77

  start=$(date +%s)
  only=${GPU_GUI_ONLY:-}
  TL_GPU_PROBE_SHORT=${GPU_GUI_SHORT:-0} TL_GPU_PROBE_ONLY=$only G_MESSAGES_DEBUG=Tilelab \
    timeout "${GPU_GUI_PROBE_S:-200}" "$b/bin/gui-gpu-probe" "$out/screens" > "$out/gui.log" 2>&1
  gui_rc=$?
  echo "gui-gpu-probe exit $gui_rc after $(( $(date +%s) - start )) s"
  kill "$xvfb" 2>/dev/null
  tar -C "$out" -cf "$out/screens.tar" screens && rm -rf "$out/screens"
  if [ "$only" = user ]; then
    grep "gui-gpu:" "$out/gui.log" | grep -v "^gui-gpu:   "
    return "$gui_rc"
  fi

  echo "| CLI Ctrl+C | exit | started → SIGINT | latency (runner log, monotonic) | | record |"
  # SIGINT 4 s in: the inputs are made, the float64 reference (8192³ twice,
  # ~14 s whole) is being computed, in row panels that poll the cancel
  cli_cancel cli-gemm-reference 4 gemm --kernel gemm-01-naive --size 8192 --repeats 10 \
    --record "$out/cli-gemm-reference.json"
  [ "${GPU_GUI_SHORT:-0}" = 1 ] ||
  cli_cancel cli-gemm-10ms 2 gemm --kernel gemm-03-smem16,gemm-01-naive --size 1344 \
    --repeats 1000 --record "$out/cli-gemm-10ms.json"
  cli_cancel cli-lu 6 lu --gen random-uniform --size 16384 --kernel lu-01-percolumn \
    --output "$out/cli-lu.mtx"
  [ -e "$out/cli-lu.mtx" ] && echo "cli-lu: WRONG, a cancelled LU wrote its output"

  # the product larger than the card, as the CLI says it
  "$b/bin/tilelab-cli" gemm --kernel cublas-fp32 --size 156342x1x156342 --repeats 1 \
    > "$out/cli-too-big.out" 2>&1
  echo "cli too big: exit $?: $(tail -3 "$out/cli-too-big.out" | tr '\n' ' ')"

  # GPU_GUI_SHORT=1 leaves them out (a short device call)
  [ "${GPU_GUI_SHORT:-0}" = 1 ] ||
  for t in "test-gpu-gemm -p /gpu/gemm/cancel" "test-lu-gpu -p /lu-gpu/cancel" "test-gpu-lost"; do
    # shellcheck disable=SC2086
    timeout 40 "$b"/bin/$t > "$out/$(echo "$t" | cut -d' ' -f1).log" 2>&1
    echo "$t: exit $?"
  done
  grep "gui-gpu:" "$out/gui.log" | grep -v "^gui-gpu:   "
  grep -E "Escape|window idle" "$out/gui.log" | head -8

  # a device run returns at most 8 files: the logs, outputs and records
  # travel as one tar beside the screenshots' (the shots were lost once)
  (cd "$out" && tar -cf logs.tar --exclude=./screens.tar --exclude=./logs.tar .) &&
    find "$out" -mindepth 1 -maxdepth 1 ! -name screens.tar ! -name logs.tar -exec rm -rf {} +
}

case ${1:-} in
  bundle) shift; bundle "$@" ;;
  run) run ;;
  *) echo "usage: $0 bundle [DEST] | run" >&2; exit 2 ;;
esac
