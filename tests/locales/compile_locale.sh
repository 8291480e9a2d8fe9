#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compile_locale.sh DIR NAME...: makes each named test locale loadable with
# LOCPATH=DIR, compiling it with localedef (Debian's `locales` package has
# the sources and charmaps) unless DIR already holds it. Safe to run from
# several tests at once: each locale is compiled aside and renamed into DIR.
# Exit status: 0 when every locale is there, 77 (a skipped test) otherwise,
# with the reason on stderr; 2 for bad usage.
set -u

[ $# -ge 2 ] || { echo "usage: compile_locale.sh DIR NAME..." >&2; exit 2; }
dir=$1; shift
mkdir -p "$dir" || exit 77

# The multibyte locales other than UTF-8 that GNU wc decodes with mbrtowc:
# double-byte (Shift_JIS, GBK, Big5), up to four bytes (GB18030), and the
# stateful ones whose converters return two characters for one sequence
# (BIG5-HKSCS, JIS X 0213, TCVN's combining marks).
source_and_charmap() {
  case $1 in
    ja_JP.SJIS) echo "ja_JP SHIFT_JIS" ;;
    zh_CN.GBK) echo "zh_CN GBK" ;;
    zh_CN.GB18030) echo "zh_CN GB18030" ;;
    zh_TW.BIG5) echo "zh_TW BIG5" ;;
    zh_HK.BIG5-HKSCS) echo "zh_HK BIG5-HKSCS" ;;
    ja_JP.EUC-JISX0213) echo "ja_JP EUC-JISX0213" ;;
    ja_JP.SHIFT_JISX0213) echo "ja_JP SHIFT_JISX0213" ;;
    vi_VN.TCVN) echo "vi_VN TCVN5712-1" ;;
    *) return 1 ;;
  esac
}

status=0
for name in "$@"; do
  [ -e "$dir/$name/LC_CTYPE" ] && continue
  if ! spec=$(source_and_charmap "$name"); then
    echo "compile_locale.sh: unknown test locale $name" >&2
    exit 2
  fi
  read -r source charmap <<<"$spec"
  if ! command -v localedef >/dev/null; then
    echo "compile_locale.sh: no localedef to compile $name" >&2
    status=77
    continue
  fi
  tmp=$(mktemp -d "$dir/.$name.XXXXXX") || exit 77
  # Shift_JIS is not ASCII-compatible (0x5C is YEN SIGN), which localedef
  # warns about and reports in its exit status; the locale is fine.
  if localedef --no-warnings=ascii -i "$source" -f "$charmap" "$tmp/$name" 2>"$tmp/log" &&
     [ -e "$tmp/$name/LC_CTYPE" ]; then
    mv -T "$tmp/$name" "$dir/$name" 2>/dev/null || [ -e "$dir/$name/LC_CTYPE" ] || status=77
  else
    echo "compile_locale.sh: localedef could not compile $name: $(head -c 300 "$tmp/log")" >&2
    status=77
  fi
  rm -rf "$tmp"
done
exit $status
