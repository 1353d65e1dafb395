#!/usr/bin/env bash
# Installs what Tilelab needs on Debian 12 (bookworm).  Idempotent; as root
# or through sudo.  CUDA (nvcc, cuBLAS, cuSOLVER) is not a Debian package:
# when /usr/local/cuda exists it is used, otherwise Tilelab builds without
# CUDA and runs everything on the CPU.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc g++ gettext
  libglib2.0-dev libglib2.0-bin libjson-glib-dev libgtk-3-dev libcairo2-dev
  libopenblas-dev liblapacke-dev libfast-float-dev
  # the fuzz step of CI (tools/fuzz-all.sh): clang with libFuzzer
  clang
  xvfb xauth imagemagick desktop-file-utils appstream python3 poppler-utils
  # a private session bus for test-gui-launch-twice (GTestDBus)
  dbus-daemon
  # the worker through ssh and Slurm: the client, and the real services the
  # remote tests start on 127.0.0.1 (tools/test-services.sh)
  openssh-client openssh-server slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "tilelab: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
