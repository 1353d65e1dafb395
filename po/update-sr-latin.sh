#!/bin/sh
# update-sr-latin.sh — writes po/sr@latin.po from po/sr.po: the Serbian
# translation is kept in Cyrillic (sr.po) and transliterated to Latin with
# gettext's recode-sr-latin.  Run it after every change to sr.po.
set -eu
cd "$(dirname "$0")"
msgfilter --keep-header -i sr.po -o sr@latin.po recode-sr-latin
sed -i \
  -e '1s/.*/# Serbian (Latin script) translations for Tilelab: generated from sr.po by update-sr-latin.sh./' \
  -e 's/^"Language: sr\\n"$/"Language: sr@latin\\n"/' \
  -e 's/^"Language-Team: Serbian\\n"$/"Language-Team: Serbian (Latin script)\\n"/' \
  sr@latin.po
