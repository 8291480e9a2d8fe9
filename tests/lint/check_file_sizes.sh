#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Files stay small enough to read: a source file of more than 500 lines
# must say, in its first 20 lines, why it is not split ("Longer than 500
# lines: ...").
#
# Usage: check_file_sizes.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout: nothing to check"
  exit 77
fi
limit=500
status=0
checked=0
while IFS= read -r -d '' file; do
  checked=$((checked + 1))
  lines=$(wc -l <"$file")
  ((lines > limit)) || continue
  if ! head -n 20 "$file" | grep -q "Longer than $limit lines: "; then
    echo "$file: $lines lines, and its header does not say why it is not split"
    status=1
  fi
done < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.py' '*.sh' 'bench/run')
[[ $status == 0 ]] && echo "$checked files, none over $limit lines without a reason"
exit "$status"
