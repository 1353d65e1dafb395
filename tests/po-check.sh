#!/bin/sh
# po-check.sh — checks that the translations in po/ keep up with the sources.
#
#   po-check.sh potfiles SRCDIR        every file with _(), N_(), C_(), NC_(),
#                                      g_dngettext or translatable="yes" is in
#                                      po/POTFILES.in, and every listed file exists
#   po-check.sh coverage SRCDIR LANG   po/LANG.po translates every message of
#                                      po/tilelab.pot: a missing, untranslated or
#                                      fuzzy message fails (msgcmp)
#   po-check.sh current SRCDIR         po/tilelab.pot holds every message that
#                                      xgettext extracts from the sources now
#   po-check.sh sr-latin SRCDIR        po/sr@latin.po is po/sr.po transliterated
#                                      (po/update-sr-latin.sh was run after the
#                                      last change to sr.po)
#   po-check.sh cli SRCDIR LANG CLI LOCALEDIR
#                                      `CLI --help` under LANGUAGE=LANG, with the
#                                      catalogs of LOCALEDIR (BUILD/po), prints
#                                      its usage and command summaries translated
#
# XGETTEXT and MSGCMP name the programs (meson passes the ones it found).
set -eu

mode=$1
srcdir=$2
XGETTEXT=${XGETTEXT:-xgettext}
MSGCMP=${MSGCMP:-msgcmp}
if [ "$mode" = cli ]; then
  # meson passes the program relative to the build directory
  cli=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
fi
cd "$srcdir"

case $mode in
potfiles)
  listed=$(grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in | sort -u)
  status=0
  for f in $listed; do
    if [ ! -f "$f" ]; then
      echo "po/POTFILES.in lists $f, which does not exist"
      status=1
    fi
  done
  # The same keywords as meson's glib preset (po/meson.build).
  marked=$( { grep -l -E '(^|[^A-Za-z0-9_])(N?C?_|g_dngettext|g_dpgettext2|g_dcgettext)[[:space:]]*\(' \
                src/*/*.c src/*/*.h ui/*.c ui/*.h gpu/*.c gpu/*.h 2>/dev/null || true
              grep -l 'translatable="yes"' ui/*.ui resources/*.ui 2>/dev/null || true; } | sort -u)
  for f in $marked; do
    if ! printf '%s\n' "$listed" | grep -qx "$f"; then
      echo "$f has translatable strings but is not listed in po/POTFILES.in"
      status=1
    fi
  done
  [ $status -eq 0 ] && echo "po/POTFILES.in lists all $(printf '%s\n' "$marked" | wc -l) files with translatable strings"
  exit $status
  ;;
coverage)
  lang=$3
  # Without --use-fuzzy / --use-untranslated, msgcmp counts fuzzy and empty
  # translations as missing.
  if "$MSGCMP" "po/$lang.po" po/tilelab.pot; then
    echo "po/$lang.po translates all $(grep -c '^msgid ' po/tilelab.pot) messages of po/tilelab.pot"
  else
    echo "po/$lang.po is behind po/tilelab.pot: run 'meson compile -C BUILD tilelab-update-po'"
    echo "and translate the new and fuzzy messages"
    exit 1
  fi
  ;;
current)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$tmp/files"
  # The keywords and flags of meson's glib preset (po/meson.build).
  "$XGETTEXT" --files-from="$tmp/files" --directory=. --output="$tmp/tilelab.pot" \
    --package-name=tilelab --from-code=UTF-8 --add-comments \
    --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
    --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
    --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
    --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
    --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
    --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
    --flag=g_markup_printf_escaped:1:c-format --flag=g_printerr:1:c-format \
    --flag=g_print:1:c-format --flag=g_printf:1:c-format 2>/dev/null
  if "$MSGCMP" --use-untranslated po/tilelab.pot "$tmp/tilelab.pot"; then
    echo "po/tilelab.pot holds all $(grep -c '^msgid ' "$tmp/tilelab.pot") messages of the sources"
  else
    echo "the sources have messages po/tilelab.pot lacks: run 'meson compile -C BUILD"
    echo "tilelab-pot tilelab-update-po' and translate the new and fuzzy messages"
    exit 1
  fi
  ;;
sr-latin)
  if ! command -v msgfilter >/dev/null || ! command -v recode-sr-latin >/dev/null; then
    echo "msgfilter or recode-sr-latin (gettext) is missing"
    exit 77
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  msgfilter --keep-header -i po/sr.po -o "$tmp/expected.po" recode-sr-latin
  # compare the messages, not the header
  msgattrib --no-wrap --no-location "$tmp/expected.po" | sed '1,/^$/d' > "$tmp/expected"
  msgattrib --no-wrap --no-location po/sr@latin.po | sed '1,/^$/d' > "$tmp/actual"
  if ! diff -u "$tmp/expected" "$tmp/actual" > "$tmp/diff"; then
    head -n 40 "$tmp/diff"
    echo "po/sr@latin.po is not po/sr.po transliterated: run po/update-sr-latin.sh"
    exit 1
  fi
  echo "po/sr@latin.po is po/sr.po in Latin script"
  ;;
cli)
  lang=$3
  localedir=$5
  if [ ! -f "$localedir/$lang/LC_MESSAGES/tilelab.mo" ]; then
    echo "$localedir/$lang/LC_MESSAGES/tilelab.mo was not built"
    exit 1
  fi
  english=$(LANGUAGE= LC_ALL=C "$cli" --help)
  translated=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TILELAB_LOCALEDIR=$localedir "$cli" --help)
  # the first command's summary, as printed in English ("  NAME       SUMMARY")
  summary=$(printf '%s\n' "$english" | grep -m1 '^  [a-z]' | cut -c14-)
  expected=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TEXTDOMAINDIR=$localedir gettext tilelab "$summary")
  usage_en=$(printf '%s\n' "$english" | head -n1)
  usage=$(printf '%s\n' "$translated" | head -n1)
  printf '%s\n' "$translated" | head -n8
  if [ -z "$summary" ] || [ "$expected" = "$summary" ]; then
    echo "the catalog for $lang does not translate “$summary”"
    exit 1
  fi
  if ! printf '%s\n' "$translated" | grep -qF "$expected"; then
    echo "tilelab-cli --help under LANGUAGE=$lang does not print “$expected”"
    exit 1
  fi
  if [ "$usage" = "$usage_en" ]; then
    echo "tilelab-cli --help under LANGUAGE=$lang prints its usage line in English"
    exit 1
  fi
  ;;
*)
  echo "usage: $0 potfiles SRCDIR | coverage SRCDIR LANG | current SRCDIR | sr-latin SRCDIR | cli SRCDIR LANG CLI LOCALEDIR" >&2
  exit 2
  ;;
esac
