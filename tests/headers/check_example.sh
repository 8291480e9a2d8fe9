#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# examples/wc_lines_words, linked with libfastwc, prints what fastwc -lwc
# prints for the same files, in C and C.UTF-8.
#
# Usage: check_example.sh EXAMPLE FASTWC
set -euo pipefail
example=$1 fastwc=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'one two\nthree\n' >"$dir/ascii"
printf 'caf\303\251 \342\200\202na\303\257ve\n\377\376 x\n' >"$dir/utf8"
head -c 3000000 /dev/urandom >"$dir/binary"
: >"$dir/empty"
status=0
for locale in C C.UTF-8; do
  for file in ascii utf8 binary empty; do
    got=$(LC_ALL=$locale "$example" "$dir/$file")
    want=$(LC_ALL=$locale FASTWC_COMPAT=9.5 "$fastwc" -lwc "$dir/$file" | awk '{print $1, $2, $3, $4}')
    if [[ $got != "$want" ]]; then
      echo "LC_ALL=$locale $file: example printed '$got', fastwc '$want'"
      status=1
    fi
  done
done
[[ $status == 0 ]] && echo "the example agrees with fastwc on every file"
exit "$status"
