#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# libfastwc as an embedder gets it: from a `meson install --destdir STAGE`,
# compile examples/wc_lines_words.cpp with nothing but what
# `pkg-config --cflags --libs fastwc` says, once against the shared library
# and once --static, and run both against the staged fastwc.
#
# Usage: check_installed.sh STAGE PREFIX   (PREFIX: the build's, /usr/local)
set -euo pipefail
stage=$1 prefix=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pc=$(find "$stage$prefix" -name fastwc.pc -print -quit)
[[ -n $pc ]] || { echo "error: no fastwc.pc under $stage$prefix" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
pkg=(pkg-config --define-variable=prefix="$stage$prefix")
libdir=$("${pkg[@]}" --variable=libdir fastwc)
soname=$(objdump -p "$libdir/libfastwc.so" | awk '$1 == "SONAME" {print $2}')
echo "fastwc.pc: $pc; $("${pkg[@]}" --modversion fastwc); SONAME $soname"
[[ $soname == libfastwc.so.0 ]] || { echo "error: unexpected SONAME $soname" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2046 # pkg-config's words are separate arguments
{
  set -x
  c++ -std=c++20 -Wall -Wextra -Werror "$root/examples/wc_lines_words.cpp" -o "$work/shared" \
    $("${pkg[@]}" --cflags --libs fastwc)
  c++ -std=c++20 -Wall -Wextra -Werror "$root/examples/wc_lines_words.cpp" -o "$work/static" \
    -static-libstdc++ $("${pkg[@]}" --static --cflags fastwc) -Wl,-Bstatic \
    $("${pkg[@]}" --static --libs-only-l fastwc | sed 's/-pthread//') -Wl,-Bdynamic \
    $("${pkg[@]}" --static --libs-only-L fastwc) -ldl -pthread
  set +x
} 2>&1
if ldd "$work/static" | grep -q libfastwc; then
  echo "error: the --static example still loads libfastwc.so" >&2
  exit 1
fi
for variant in shared static; do
  LD_LIBRARY_PATH=$libdir "$work/$variant" --version
  LD_LIBRARY_PATH=$libdir "$root/tests/headers/check_example.sh" "$work/$variant" "$stage$prefix/bin/fastwc"
done
