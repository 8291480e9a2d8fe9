#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Thread scaling of fastwc on page-cached files: every mode with --jobs from
# 1 up to the CPUs available, side by side in one run with GNU wc and with a
# bare 1 MiB read() loop (dd), which is the ceiling for one reading thread.
# Each fastwc configuration's output is compared with GNU wc's first.
#
#   FASTWC=build/src/fastwc bench/scaling/run_scaling.sh [SIZE_MIB] > table.md
#
# Environment: FASTWC (required), WC (GNU wc, default wc), DIR (where the
# corpora go; default /dev/shm/fastwc-scaling, so they stay in memory),
# REPS (best of, default 3), WC_REPS (best of for GNU wc, default REPS),
# JOBS (list, default 1 2 4 ... nproc).
set -euo pipefail

fastwc=${FASTWC:?set FASTWC to the fastwc binary}
gnu_wc=${WC:-wc}
dir=${DIR:-/dev/shm/fastwc-scaling}
size_mib=${1:-1024}
reps=${REPS:-3}
wc_reps=${WC_REPS:-$reps}
cpus=$(nproc)
if [[ -z ${JOBS:-} ]]; then
  JOBS=1
  for ((j = 2; j <= cpus; j *= 2)); do JOBS+=" $j"; done
  if ((cpus & (cpus - 1))); then JOBS+=" $cpus"; fi
fi

mkdir -p "$dir"
ascii=$dir/ascii-$size_mib.txt
utf8=$dir/utf8-$size_mib.txt
# Deterministic text: English-like ASCII, and multilingual UTF-8 with
# accents, CJK, an emoji, a no-break space and an em dash.
# `yes` dies of SIGPIPE when head has enough: not a failure here.
repeat_line() { (yes "$1" || true) | head -c "${size_mib}M"; }
[[ -s $ascii ]] || repeat_line 'The quick brown fox jumps over the lazy dog; 0123456789 and a few more words.' >"$ascii"
[[ -s $utf8 ]] || repeat_line $'Gr\xc3\xbc\xc3\x9fe aus K\xc3\xb6ln \xe2\x80\x94 \xe6\x9d\xb1\xe4\xba\xac\xe3\x81\xae\xe5\xa4\xa9\xe6\xb0\x97 \xf0\x9f\x98\x80 na\xc3\xafve\xc2\xa0caf\xc3\xa9' >"$utf8"
bytes=$(stat -c %s "$ascii")

# Best wall time in nanoseconds of REPS runs of "$@" (output discarded).
best_ns() {
  local best=-1 start end t runs=$reps
  if [[ $1 == --runs ]]; then runs=$2; shift 2; fi
  for ((r = 0; r < runs; r++)); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    t=$((end - start))
    ((best < 0 || t < best)) && best=$t
  done
  echo "$best"
}
gbps() { awk -v b="$bytes" -v ns="$1" 'BEGIN { printf "%.2f", b / ns }'; }

echo "# fastwc thread scaling"
echo
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $cpus CPUs, kernel $(uname -r);"
echo "$(cat /proc/meminfo | awk '/MemTotal/ {printf "%.0f GiB memory", $2/1048576}'); files of $size_mib MiB in $dir (page cache), best of $reps."
echo "GNU wc: $("$gnu_wc" --version | head -n 1); fastwc: $("$fastwc" --version | head -n 1)."
echo
read_ns=$(best_ns dd if="$ascii" of=/dev/null bs=1M status=none)
echo "Bare 1 MiB read() loop (dd): $(gbps "$read_ns") GB/s."
echo

modes=("C -l $ascii" "C -w $ascii" "C -lwc $ascii" "C.UTF-8 -m $utf8" "C.UTF-8 -w $utf8" "C.UTF-8 -lwc $utf8" "C.UTF-8 -L $utf8")
header="| mode | input | GNU wc GB/s | output equal |"
rule="|---|---|---|---|"
for j in $JOBS; do header+=" jobs=$j GB/s |"; rule+="---|"; done
echo "$header"
echo "$rule"
for entry in "${modes[@]}"; do
  read -r locale option file <<<"$entry"
  want=$(LC_ALL=$locale "$gnu_wc" "$option" <"$file")
  wc_ns=$(LC_ALL=$locale best_ns --runs "$wc_reps" "$gnu_wc" "$option" "$file")
  row="| LC_ALL=$locale wc $option | $(basename "$file" | cut -d- -f1) | $(gbps "$wc_ns") |"
  equal=yes
  cells=""
  for j in $JOBS; do
    got=$(LC_ALL=$locale "$fastwc" --jobs="$j" "$option" <"$file")
    [[ $got == "$want" ]] || equal="NO ($got vs $want)"
    ns=$(LC_ALL=$locale best_ns "$fastwc" --jobs="$j" "$option" "$file")
    cells+=" $(gbps "$ns") |"
  done
  echo "$row $equal |$cells"
done

echo
echo "How fastwc read the ASCII file (--stats):"
echo
echo '```'
LC_ALL=C "$fastwc" --stats -l "$ascii" 2>&1 >/dev/null | sed "s|$dir/||"
echo '```'
