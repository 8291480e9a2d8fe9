#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cold-cache wall times on one CPU (taskset -c 0), the page cache dropped
# before every run (root): two fastwc builds and GNU wc, -l and the default
# count, three rounds in turn.
#   cold.sh BEFORE/src/fastwc AFTER/src/fastwc FILE
set -euo pipefail
before=$1 after=$2 file=$3
for round in 1 2 3; do
  for flags in -l ""; do
    for name in before after gnu; do
      case $name in
        before) cmd=("$before") ;;
        after) cmd=("$after") ;;
        gnu) cmd=(wc) ;;
      esac
      sync
      echo 3 >/proc/sys/vm/drop_caches
      start=$(date +%s%N)
      LC_ALL=C.UTF-8 taskset -c 0 "${cmd[@]}" $flags "$file" >/dev/null
      end=$(date +%s%N)
      echo "$round ${flags:-default} $name $(((end - start) / 1000000)) ms"
    done
  done
done
