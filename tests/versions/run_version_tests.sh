#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Behaviours of GNU wc versions other than the system's, checked against
# the output those versions print (each case names the GNU behaviour; the
# expected text was printed by the real GNU wc of that version):
#
#   tests/versions/run_version_tests.sh FASTWC_BINARY   (meson test --suite versions)
#
# fastwc runs as `wc` (a symlink, so that diagnostics say "wc") with
# FASTWC_COMPAT set per case. Translated messages are taken from the
# system's coreutils catalog at run time (gettext(1)), never written here:
# what is checked is which text domain each version uses. A case that needs
# something this machine lacks (a file system with 4 EiB sparse files,
# localedef, a catalog, python3) is skipped with a message. Exit status: 0
# when every case that ran passed, 1 when one failed, 77 when none ran.
set -uo pipefail

if (($# != 1)) || [[ ! -x $1 ]]; then
  echo "usage: $0 FASTWC_BINARY" >&2
  exit 2
fi
fastwc=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/fastwc-versions.XXXXXX")
sparse_dir=
# shellcheck disable=SC2317 # invoked by the trap
cleanup() {
  rm -rf "$work"
  [[ -n $sparse_dir ]] && rm -rf "$sparse_dir"
}
trap cleanup EXIT
mkdir -p "$work/bin" "$work/data" "$work/locales"
ln -s "$fastwc" "$work/bin/wc"
cd "$work/data" || exit 2
printf 'a\n' >f
unset POSIXLY_CORRECT LANGUAGE LANG LC_ALL LC_CTYPE LC_MESSAGES

passed=0 failed=0 skipped=0
pass() {
  echo "PASS $1"
  passed=$((passed + 1))
}
skip() {
  echo "SKIP $1: $2"
  skipped=$((skipped + 1))
}

# expect NAME VERSION SCRIPT EXPECTED: SCRIPT (bash, stdout and stderr
# together) under FASTWC_COMPAT=VERSION prints EXPECTED and then its exit
# status as "rc=N".
expect() {
  local name=$1 version=$2 script=$3 expected=$4 actual
  actual=$(FASTWC_COMPAT=$version PATH="$work/bin:$PATH" LOCPATH="$work/locales" \
    timeout -k 5 60 bash -c "$script" 2>&1)
  actual+=$'\n'"rc=$?"
  if [[ $actual == "$expected" ]]; then
    pass "$name"
  else
    echo "FAIL $name (FASTWC_COMPAT=$version): $script"
    diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") | sed 's/^/  /'
    failed=$((failed + 1))
  fi
}

# --- 9.3+: every sum GNU keeps is diagnosed when it overflows -------------
# Four 4 EiB sparse files (tmpfs takes them; ext4 does not).
for dir in "$work" /dev/shm; do
  candidate=$(mktemp -d "$dir/fastwc-sparse.XXXXXX" 2>/dev/null) || continue
  if truncate -s 4E "$candidate/s1" 2>/dev/null; then
    sparse_dir=$candidate
    break
  fi
  rm -rf "$candidate"
done
if [[ -z $sparse_dir ]]; then
  skip overflow "no file system here takes 4 EiB sparse files"
else
  for i in 2 3 4; do truncate -s 4E "$sparse_dir/s$i"; done
  size=4611686018427387904
  lines=" $size s1"$'\n'" $size s2"$'\n'" $size s3"$'\n'" $size s4"
  # GNU 9.7/9.10/9.12: -m in the C locale counts bytes too, and both sums
  # overflow; -c alone has only the byte sum.
  expect overflow-m-9.7 9.7 "cd $sparse_dir && LC_ALL=C wc -m s1 s2 s3 s4" "$lines
wc: total characters: Value too large for defined data type
wc: total bytes: Value too large for defined data type
18446744073709551615 total
rc=1"
  expect overflow-c-9.10 9.10 "cd $sparse_dir && LC_ALL=C.UTF-8 wc -c s1 s2 s3 s4" "$lines
wc: total bytes: Value too large for defined data type
18446744073709551615 total
rc=1"
  # GNU 8.32 and 9.1 wrap the sums silently (and their width sum wraps too).
  expect overflow-m-8.32 8.32 "cd $sparse_dir && LC_ALL=C wc -m s1 s2 s3 s4" "$size s1
$size s2
$size s3
$size s4
0 total
rc=0"
fi

# --- 9.0-9.4: wc_lines drops its counts on a read error -------------------
# Standard input is a non-blocking pipe that holds one line and stays open:
# the second read fails with EAGAIN.
if command -v python3 >/dev/null; then
  nonblocking="{ printf 'ab cd\n'; sleep 3; } | python3 -c 'import os,sys,time; os.set_blocking(0,False); time.sleep(0.3); os.execvp(\"wc\",[\"wc\"]+sys.argv[1:])'"
  eagain="wc: 'standard input': Resource temporarily unavailable"
  # 9.1 prints 0 (its wc_lines returns before storing); the diagnostic
  # comes before the count line until 9.4.
  expect lines-eagain-9.1 9.1 "export LC_ALL=C; $nonblocking -lc" "$eagain
      0       0
rc=1"
  # 9.7: the partial count, after the count line.
  expect lines-eagain-9.7 9.7 "export LC_ALL=C; $nonblocking -l" "1
$eagain
rc=1"
  # 8.32's loop keeps the partial count too.
  expect lines-eagain-8.32 8.32 "export LC_ALL=C; $nonblocking -l" "$eagain
1
rc=1"
else
  skip lines-eagain "no python3 to make a non-blocking pipe"
fi

# --- --total=WHEN: gnulib's locale quoting style --------------------------
valid_c="Valid arguments are:
  - 'auto'
  - 'always'
  - 'only'
  - 'never'
Try 'wc --help' for more information.
rc=1"
expect total-quoting-c-9.10 9.10 "LC_ALL=C wc --total=\"\$(printf 'a\\nb\\\\c\\001it'\\''s')\" f" \
  "wc: invalid argument 'a\\nb\\\\c\\001it\\'s' for '--total'
$valid_c"
expect total-quoting-utf8-9.7 9.7 "LC_ALL=C.UTF-8 wc --total=\"\$(printf 'é\\377\\342\\200\\231x')\" f" \
  "wc: invalid argument ‘é\\377\\’x’ for ‘--total’
Valid arguments are:
  - ‘auto’
  - ‘always’
  - ‘only’
  - ‘never’
Try 'wc --help' for more information.
rc=1"

# --- gnulib's quotes in GB18030 locales: 9.7 has them, 9.8+ not -----------
if localedef -i zh_CN -f GB18030 "$work/locales/zh_CN.GB18030" >/dev/null 2>&1; then
  # 9.7: gnulib's "\xa1\ae" (A1 07 65) and A1 AF; 9.10: apostrophes.
  expect gb18030-quotes-9.7 9.7 "LC_CTYPE=zh_CN.GB18030 LC_MESSAGES=C wc --total=x f 2>&1 | head -n 1" \
    $'wc: invalid argument \xa1\x07ex\xa1\xaf for \xa1\x07e--total\xa1\xaf\nrc=0'
  expect gb18030-quotes-9.10 9.10 "LC_CTYPE=zh_CN.GB18030 LC_MESSAGES=C wc --total=x f 2>&1 | head -n 1" \
    "wc: invalid argument 'x' for '--total'
rc=0"
else
  skip gb18030-quotes "localedef cannot compile zh_CN.GB18030"
fi

# --- which text domain gnulib's messages come from ------------------------
# 9.6 to 9.11: the "gnulib" domain, which has no catalog: English, with
# U+2018/U+2019 quotes; 9.12: the coreutils catalog, quotes included.
if ! localedef -i de_DE -f UTF-8 "$work/locales/de_DE.UTF-8" >/dev/null 2>&1; then
  skip gnulib-domain "localedef cannot compile de_DE.UTF-8"
elif ! command -v gettext >/dev/null; then
  skip gnulib-domain "no gettext(1) to read the system's catalog"
else
  catalog() { LOCPATH="$work/locales" LC_ALL=de_DE.UTF-8 gettext -d coreutils "$1"; }
  invalid=$(catalog 'invalid argument %s for %s')
  if [[ $invalid == 'invalid argument %s for %s' ]]; then
    skip gnulib-domain "the system's coreutils catalog has no German"
  else
    open=$(catalog '`') close=$(catalog "'")
    try=$(catalog "Try '%s --help' for more information.
")
    try=${try//%s/wc}
    valid_de=$(catalog 'Valid arguments are:')
    message=${invalid/\%s/$open\x$close}
    message=${message/\%s/$open--total$close}
    expect gnulib-domain-9.12 9.12 "LANG=de_DE.UTF-8 wc --total=x f 2>&1 | head -n 2" "wc: $message
$valid_de
rc=0"
    expect gnulib-domain-9.10 9.10 "LANG=de_DE.UTF-8 wc --total=x f" "wc: invalid argument ‘x’ for ‘--total’
Valid arguments are:
  - ‘auto’
  - ‘always’
  - ‘only’
  - ‘never’
$try
rc=1"
    # close_stdout's "write error" is gnulib's (English in 9.7); 9.10's
    # write_error() is coreutils' own (translated).
    expect gnulib-domain-write-9.7 9.7 "LANG=de_DE.UTF-8 wc f >/dev/full" "wc: write error
rc=1"
    expect gnulib-domain-write-9.10 9.10 "LANG=de_DE.UTF-8 wc f 2>&1 >/dev/full | cut -d: -f2" " $(catalog 'write error')
rc=0"
  fi
fi

# --- a catalog that reorders the arguments (%2$s before %1$s) -------------
if ! localedef -i zh_CN -f UTF-8 "$work/locales/zh_CN.UTF-8" >/dev/null 2>&1; then
  skip positional-arguments "localedef cannot compile zh_CN.UTF-8"
elif ! command -v gettext >/dev/null; then
  skip positional-arguments "no gettext(1) to read the system's catalog"
else
  zh() { LOCPATH="$work/locales" LC_ALL=zh_CN.UTF-8 gettext -d coreutils "$1"; }
  invalid=$(zh 'invalid argument %s for %s')
  if [[ $invalid != *'%2$s'*'%1$s'* ]]; then
    skip positional-arguments "the system's zh_CN catalog does not reorder this message"
  else
    open=$(zh '`') close=$(zh "'")
    message=${invalid/\%1\$s/$open\x$close}
    message=${message/\%2\$s/$open--total$close}
    expect positional-arguments-9.12 9.12 "LANG=zh_CN.UTF-8 wc --total=x f 2>&1 | head -n 1" "wc: $message
rc=0"
  fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
((failed > 0)) && exit 1
((passed == 0)) && exit 77
exit 0
