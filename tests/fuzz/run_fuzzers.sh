#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs each libFuzzer target for a bounded time (CI runs it).
#
#   tests/fuzz/run_fuzzers.sh BUILDDIR [SECONDS] [TARGET]...
#
# BUILDDIR was configured with -Dfuzzing=true (CXX=clang++). Each target
# (default: kernels split gnu_reads) starts from its committed seed corpus,
# tests/fuzz/corpus/NAME/, read-only, and writes what it discovers to a
# temporary corpus, so a run never changes the tree. A crash, a sanitizer
# report, a failed check or a timeout fails the script; the input that did
# it is kept under BUILDDIR/fuzz-artifacts/NAME/ and named on stderr.
# Reproduce with: BUILDDIR/tests/fuzz/fuzz_NAME FILE
set -euo pipefail

if (($# < 1)); then
  echo "usage: $0 BUILDDIR [SECONDS] [TARGET]..." >&2
  exit 2
fi
builddir=$1
seconds=${2:-60}
shift $(($# >= 2 ? 2 : 1))
targets=("$@")
((${#targets[@]})) || targets=(kernels split gnu_reads)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/fastwc-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

status=0
for name in "${targets[@]}"; do
  fuzzer=$builddir/tests/fuzz/fuzz_$name
  if [[ ! -x $fuzzer ]]; then
    echo "error: $fuzzer is missing: meson compile -C $builddir fuzz_$name" >&2
    exit 2
  fi
  artifacts=$builddir/fuzz-artifacts/$name
  mkdir -p "$artifacts" "$work/$name"
  echo "=== fuzz_$name for $seconds s"
  # -timeout: one input running over 10 s counts as a hang. -rss_limit_mb
  # stays at libFuzzer's 2 GiB. The first corpus directory receives new
  # inputs; the committed one is only read.
  if ! "$fuzzer" -max_total_time="$seconds" -timeout=10 -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work/$name" "$here/corpus/$name" >"$work/$name.log" 2>&1; then
    status=1
    echo "FAIL fuzz_$name:" >&2
    grep -E '^(fuzz:|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' "$work/$name.log" >&2 || tail -n 30 "$work/$name.log" >&2
  else
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units)' "$work/$name.log" || true
    echo "PASS fuzz_$name: $(find "$work/$name" -type f | wc -l) new corpus inputs"
  fi
done
exit "$status"
