#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Comments cite only what a reader of the repository has: GNU's sources and
# NEWS, man pages, files in the tree. A tracker's issue number or a document
# kept outside the repository means nothing to that reader.
#
# Usage: check_citations.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout: nothing to check"
  exit 77
fi
# The patterns are split so that this file does not match itself.
pattern="issue"" #[0-9]|wc-""spec|style-""anchors|\.\./""shared/|\bspec"" (section )?[0-9]|the spec""'s "
if git grep -n -I -i -E "$pattern" -- src include tests examples bench ':!bench/results' ':!bench/runs' \
  HACKING.md README.md man completions debian scripts .ci; then
  echo "error: the lines above cite a tracker's issue or a file outside the repository"
  exit 1
fi
echo "no citation of an issue number or of a file outside the repository"
