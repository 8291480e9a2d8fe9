#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/pipeline/run.sh: how close fastwc's reading pipeline comes to what
# the kernel can deliver, on one page-cached file (1 GiB by default), in one
# run of a few minutes. It measures, with hyperfine and every command's
# output checked against GNU wc first:
#   - the floor: a bare 1 MiB read() loop (read_loop.cpp), `cat FILE`, and
#     io_uring loops with 1..16 reads in flight, registered or not, with and
#     without IOSQE_ASYNC;
#   - GNU wc -l, and fastwc -l with io_uring and read(2), 1 and 2 jobs;
#   - a read-size sweep, 64 KiB to 16 MiB, of the bare loop and of fastwc;
#   - the peak RSS of GNU wc and fastwc (/usr/bin/time -v);
# and prints every time as GB/s and as ratios to the read loop and to GNU
# wc. --calibrate adds the small-file sweep that sets the serial threshold
# (pipeline forced on or off, 1 to 128 MiB) and a jobs sweep for -l and -w.
#
# Usage: bench/pipeline/run.sh [--fastwc PATH] [--read-loop PATH] [--dir DIR]
#          [--size MIB] [--runs N] [--out DIR] [--calibrate]
# Everything runs with LC_ALL=C and a hot page cache (the file is read twice
# before timing); state, versions and machine are printed first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fastwc=${FASTWC:-build/src/fastwc}
read_loop=""
dir=${TMPDIR:-/tmp}/fastwc-bench
size_mib=1024
runs=5
out=""
calibrate=0
while [ $# -gt 0 ]; do
  case $1 in
    --fastwc) fastwc=$2; shift 2 ;;
    --read-loop) read_loop=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --size) size_mib=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --calibrate) calibrate=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
export LC_ALL=C
mkdir -p "$dir"
out=${out:-$dir/results}
mkdir -p "$out"
fastwc=$(cd "$(dirname "$fastwc")" && pwd)/$(basename "$fastwc")
[ -x "$fastwc" ] || { echo "run.sh: no fastwc at $fastwc (build it, or pass --fastwc)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "run.sh: hyperfine is needed" >&2; exit 2; }

if [ -z "$read_loop" ]; then
  read_loop=$dir/read_loop
  if [ ! -x "$read_loop" ] || [ "$here/read_loop.cpp" -nt "$read_loop" ]; then
    ${CXX:-g++} -O2 -std=c++20 -o "$read_loop" "$here/read_loop.cpp" -luring
  fi
fi

# Text with words of random length and 64-byte lines: base64 of random
# bytes with '+' and '/' turned into spaces.
make_file() {  # path bytes
  if [ ! -f "$1" ] || [ "$(stat -c %s "$1")" != "$2" ]; then
    # base64 and tr end on SIGPIPE when head has enough: not a failure.
    (set +o pipefail; base64 -w 64 /dev/urandom | tr '+/' '  ' | head -c "$2" > "$1.tmp")
    [ "$(stat -c %s "$1.tmp")" = "$2" ] || { echo "run.sh: could not write $1" >&2; exit 1; }
    mv "$1.tmp" "$1"
  fi
}
file=$dir/text-${size_mib}M.txt
make_file "$file" $((size_mib * 1024 * 1024))
cat "$file" > /dev/null; cat "$file" > /dev/null   # hot page cache

cache_size() { cat "/sys/devices/system/cpu/cpu0/cache/index$1/size" 2>/dev/null || echo "?"; }
echo "== machine"
echo "date:     $(date -u +%Y-%m-%dT%H:%MZ)"
echo "kernel:   $(uname -sr)"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) usable CPUs)"
echo "caches:   L2 $(cache_size 2), L3 $(cache_size 3) (cpu0)"
echo "memory:   $(free -g | awk '/Mem:/ {print $2 " GiB, " $7 " GiB available"}')"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg)"
echo "gnu wc:   $(wc --version | head -1)"
echo "fastwc:   $("$fastwc" --version | head -1) ($fastwc)"
echo "tools:    $(hyperfine --version), $( (${CXX:-g++} --version 2>/dev/null || true) | head -1)"
echo "input:    $file, $(stat -c %s "$file") bytes, page cache hot, LC_ALL=C"
echo

# Every command is checked before it is timed: each fastwc must print what
# GNU wc prints.
echo "== correctness"
expected=$(wc -l < "$file")
check() {  # label command...
  local label=$1; shift
  local got
  got=$("$@" < "$file" | tr -s ' ' | sed 's/^ //')
  printf '%-34s %s\n' "$label" "$got"
  if [ "$got" != "$expected" ]; then echo "run.sh: $label printed '$got', GNU wc '$expected'" >&2; exit 1; fi
}
check "GNU wc -l" wc -l
check "fastwc -l (auto)" "$fastwc" -l
check "fastwc -l --io=uring --jobs=1" "$fastwc" -l --io=uring --jobs=1
check "fastwc -l --io=read --jobs=2" "$fastwc" -l --io=read --jobs=2
check "fastwc -l --read-size=16M" "$fastwc" -l --read-size=16M
check "fastwc -l --read-size=64K" "$fastwc" -l --read-size=64K
"$fastwc" -l --stats "$file" 2>&1 >/dev/null | sed 's/^/  /'
echo

# One hyperfine run per table; results in $out/*.json.
bench() {  # name command-spec...  (each spec: "label=command")
  local name=$1; shift
  local args=()
  local spec
  for spec in "$@"; do args+=(-n "${spec%%=*}" "${spec#*=}"); done
  hyperfine -N --warmup 1 --runs "$runs" --style none --export-json "$out/$name.json" "${args[@]}" > "$out/$name.txt"
}

f=$file
echo "== timing the floor and the main configurations ($runs runs each)"
bench main \
  "read loop 1M=$read_loop --size=1M $f" \
  "cat=cat $f" \
  "uring loop 4x1M=$read_loop --uring --depth=4 --size=1M $f" \
  "GNU wc -l=wc -l $f" \
  "fastwc -l=$fastwc -l $f" \
  "fastwc -l uring j1=$fastwc -l --io=uring --jobs=1 $f" \
  "fastwc -l uring j2=$fastwc -l --io=uring --jobs=2 $f" \
  "fastwc -l read j1=$fastwc -l --io=read --jobs=1 $f" \
  "fastwc -l read j2=$fastwc -l --io=read --jobs=2 $f" \
  "fastwc -l uring async=env FASTWC_URING_ASYNC=1 $fastwc -l $f" \
  "fastwc -l uring async j1=env FASTWC_URING_ASYNC=1 $fastwc -l --jobs=1 $f" \
  "fastwc (-lwc)=$fastwc $f" \
  "fastwc (-lwc) async=env FASTWC_URING_ASYNC=1 $fastwc $f" \
  "fastwc -w=$fastwc -w $f"

echo "== the slow GNU loops (2 runs)"
runs_saved=$runs; runs=2
bench slow \
  "GNU wc (-lwc)=wc $f" \
  "GNU wc -w=wc -w $f" \
  "fastwc (-lwc) j1=$fastwc --jobs=1 $f"
runs=$runs_saved

echo "== io_uring depth, registration and IOSQE_ASYNC (bare loops)"
specs=()
for depth in 1 2 4 8 16; do
  specs+=("uring ${depth}x1M=$read_loop --uring --depth=$depth --size=1M $f")
  specs+=("uring ${depth}x1M fixed=$read_loop --uring --fixed --depth=$depth --size=1M $f")
done
specs+=("uring 4x1M async=$read_loop --uring --async --depth=4 --size=1M $f")
specs+=("uring 4x1M fixed async=$read_loop --uring --fixed --async --depth=4 --size=1M $f")
specs+=("uring 4x256K=$read_loop --uring --depth=4 --size=256K $f")
specs+=("uring 16x256K=$read_loop --uring --depth=16 --size=256K $f")
specs+=("read loop 1M=$read_loop --size=1M $f")
bench uring "${specs[@]}"

echo "== read-size sweep"
specs=()
for rs in 64K 128K 256K 512K 1M 2M 4M 8M 16M; do
  specs+=("read loop $rs=$read_loop --size=$rs $f")
  specs+=("fastwc -l rs $rs=$fastwc -l --read-size=$rs $f")
done
specs+=("GNU wc -l=wc -l $f")
bench sweep "${specs[@]}"

if [ "$calibrate" = 1 ]; then
  echo "== serial threshold: pipeline forced on (threshold 0) or off, by file size"
  specs=()
  for mib in 1 2 4 8 16 32 64 128; do
    small=$dir/text-${mib}M.txt
    make_file "$small" $((mib * 1024 * 1024))
    cat "$small" > /dev/null
    for sel in -l -w; do
      specs+=("${mib}M $sel serial=env FASTWC_SERIAL_THRESHOLD=1024G $fastwc $sel $small")
      specs+=("${mib}M $sel pipeline=env FASTWC_SERIAL_THRESHOLD=0 $fastwc $sel $small")
    done
  done
  runs_saved=$runs; runs=$((runs * 4))
  bench threshold "${specs[@]}"
  runs=$runs_saved
  echo "== jobs sweep"
  specs=()
  for jobs in 1 2 4 8 16; do
    specs+=("fastwc -l j$jobs=$fastwc -l --jobs=$jobs $f")
    specs+=("fastwc -w j$jobs=$fastwc -w --jobs=$jobs $f")
    specs+=("fastwc -L j$jobs=$fastwc -L --jobs=$jobs $f")
    specs+=("fastwc -w async j$jobs=env FASTWC_URING_ASYNC=1 $fastwc -w --jobs=$jobs $f")
  done
  bench jobs "${specs[@]}"
fi

echo
python3 - "$out" "$(stat -c %s "$f")" <<'EOF'
import json, os, sys
out, size = sys.argv[1], int(sys.argv[2])
results = {}
order = []
for name in ["main", "slow", "uring", "sweep", "threshold", "jobs"]:
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        continue
    table = json.load(open(path))["results"]
    results[name] = table
floor = next(r["mean"] for r in results["main"] if r["command"] == "read loop 1M")
gnu = next(r["mean"] for r in results["main"] if r["command"] == "GNU wc -l")
for name, table in results.items():
    print(f"== {name}")
    if name == "threshold":
        print(f"{'command':34} {'mean ms':>9} {'± ms':>7} {'min ms':>8}")
        for r in table:
            print(f"{r['command']:34} {r['mean']*1e3:9.2f} {r['stddev']*1e3:7.2f} {r['min']*1e3:8.2f}")
        print()
        continue
    # Ratios of means; on a shared machine the min column is the steadier one.
    print(f"{'command':34} {'mean s':>8} {'± s':>7} {'min s':>7} {'GB/s':>7} {'x read loop':>11} {'x GNU wc -l':>11}")
    for r in table:
        print(f"{r['command']:34} {r['mean']:8.4f} {r['stddev']:7.4f} {r['min']:7.4f} {size / r['mean'] / 1e9:7.2f} "
              f"{floor / r['mean']:11.2f} {gnu / r['mean']:11.2f}")
    print()
EOF

echo "== peak RSS (KiB)"
rss() {  # label command...
  local label=$1; shift
  local kib
  if [ -x /usr/bin/time ]; then
    kib=$(/usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}')
  else
    kib=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@")
  fi
  printf '%-34s %s\n' "$label" "$kib"
}
rss "GNU wc -l" wc -l "$f"
rss "fastwc -l" "$fastwc" -l "$f"
rss "fastwc -l --read-size=16M" "$fastwc" -l --read-size=16M "$f"
rss "fastwc -l --io=read --jobs=1" "$fastwc" -l --io=read --jobs=1 "$f"
rss "fastwc (-lwc) --jobs=16" "$fastwc" --jobs=16 "$f"
echo
echo "raw results: $out"
