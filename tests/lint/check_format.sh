#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every C++ file git tracks must match .clang-format, as clang-format 14
# (Debian 12's) formats it: other versions format some constructs
# differently, so with no clang-format 14 the check skips (77), unless
# FASTWC_REQUIRE_LINT=1 (CI) makes that an error.
#
# Usage: check_format.sh SOURCE_ROOT
set -euo pipefail
cd "$1"

clang_format=
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null && [[ $("$candidate" --version) == *"version 14."* ]]; then
    clang_format=$candidate
    break
  fi
done
if [[ -z $clang_format ]]; then
  echo "no clang-format 14 found"
  [[ ${FASTWC_REQUIRE_LINT:-0} == 1 ]] && exit 1
  exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout: nothing to check"
  exit 77
fi

status=0
while IFS= read -r -d '' file; do
  if ! "$clang_format" --style=file "$file" | cmp -s - "$file"; then
    echo "not formatted: $file (clang-format -i $file)"
    "$clang_format" --style=file "$file" | diff -u "$file" - | head -n 20 || true
    status=1
  fi
done < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cc')
[[ $status == 0 ]] && echo "every C++ file matches .clang-format ($("$clang_format" --version))"
exit "$status"
