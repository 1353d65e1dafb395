#!/bin/sh
# mime-check.sh — the desktop knows Tilelab's files by resources/org.tilelab.Tilelab.mime.xml:
# built into a private MIME database (beside freedesktop.org's), GIO names
# a .npy, a .mtx and a run record by their types; other JSON stays JSON.
#
#   mime-check.sh SRCDIR
set -eu
srcdir=$1
for tool in update-mime-database gio; do
  command -v "$tool" >/dev/null || { echo "$tool is missing"; exit 77; }
done
base=/usr/share/mime/packages/freedesktop.org.xml
[ -f "$base" ] || { echo "no $base (shared-mime-info)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data/mime/packages"
cp "$base" "$tmp/data/mime/packages/"
cp "$srcdir/resources/org.tilelab.Tilelab.mime.xml" "$tmp/data/mime/packages/org.tilelab.Tilelab.xml"
XDG_DATA_HOME="$tmp/data" XDG_DATA_DIRS="$tmp/data" update-mime-database "$tmp/data/mime"

printf '\223NUMPY\001\000v\000{'"'"'descr'"'"': '"'"'<f8'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1, 1), }' > "$tmp/a.npy"
printf '{ "name": "not a record" }\n' > "$tmp/other.json"

status=0
check () {
  type=$(XDG_DATA_HOME="$tmp/data" XDG_DATA_DIRS="$tmp/data" gio info -a standard::content-type "$1" \
         | sed -n 's/.*standard::content-type: //p')
  if [ "$type" = "$2" ]; then
    echo "ok    $2 ← $1"
  else
    echo "FAIL  $1 is $type, expected $2"
    status=1
  fi
}
check "$tmp/a.npy" application/x-npy
check "$srcdir/resources/samples/seed-002-ones-8x8.mtx" text/x-matrix-market
check "$srcdir/docs/records/h200-gemm-1000x500x1000.json" application/x-tilelab-record+json
check "$srcdir/docs/records/h200-lu-02-blocked-96.json" application/x-tilelab-record+json
check "$tmp/other.json" application/json
exit $status
