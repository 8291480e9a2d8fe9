#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real-environment tests: fastwc where the system gets in the way,
# compared with the system's GNU wc wherever that is meaningful.
#
#   tests/env/run_env_tests.sh FASTWC_BINARY        (meson test --suite env)
#
# Both programs run as `wc` (symlinks in private bin directories), so that
# diagnostics carry the same program name, with FASTWC_COMPAT set to the
# system wc's version. Every command runs under `timeout`: a hang is a
# failure. A case that needs a privilege or a tool this machine lacks is
# skipped with a message; the script exits 0 when every case that ran
# passed, 1 when one failed, 77 (Meson's "skipped") when none could run.
#
# Cases: io_uring disabled by sysctl (restored on exit, whatever happens);
# an unprivileged user with RLIMIT_MEMLOCK of 64 KiB; stdout closed; stdout
# on /dev/full; SIGPIPE (default and ignored); a file truncated and a file
# growing while it is read; a FIFO fed one byte at a time; a sparse file
# (10 GiB, FASTWC_ENV_SPARSE_GIB to change); a 100,000-name --files0-from
# list; names with newlines and invalid UTF-8.
set -uo pipefail

if (($# != 1)) || [[ ! -x $1 ]]; then
  echo "usage: $0 FASTWC_BINARY" >&2
  exit 2
fi
fastwc=$(realpath "$1")
# Reading a hole fills the page cache with zeroed pages: 10 GiB only where
# that much memory is free, else 2 GiB (said in the output).
available_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
if [[ -n ${FASTWC_ENV_SPARSE_GIB:-} ]]; then
  sparse_gib=$FASTWC_ENV_SPARSE_GIB
elif ((${available_kib:-0} >= 16 * 1024 * 1024)); then
  sparse_gib=10
else
  sparse_gib=2
  echo "note: less than 16 GiB of memory available: the sparse file is 2 GiB, not 10"
fi

gnu_wc=$(command -v wc || true)
# Not `wc --version | head -n 1 | grep -q`: under pipefail, wc killed by
# SIGPIPE when head leaves first would make the whole suite skip, at random.
gnu_wc_says=$([[ -n $gnu_wc ]] && "$gnu_wc" --version 2>/dev/null || true)
if [[ $gnu_wc_says != *'(GNU coreutils)'* ]]; then
  echo "SKIP all: no GNU wc on PATH to compare with"
  exit 77
fi
gnu_wc=$(realpath "$gnu_wc")
gnu_version=$("$gnu_wc" --version | head -n 1 | awk '{print $NF}')

work=$(mktemp -d "${TMPDIR:-/tmp}/fastwc-env.XXXXXX")
chmod 755 "$work"  # the unprivileged case reads from it
saved_uring_disabled=
# shellcheck disable=SC2317 # invoked by the traps
cleanup() {
  # Runs on every exit, a failure or a signal included: the sysctl first.
  if [[ -n $saved_uring_disabled ]]; then
    echo "$saved_uring_disabled" >/proc/sys/kernel/io_uring_disabled 2>/dev/null ||
      echo "WARNING: could not restore kernel.io_uring_disabled=$saved_uring_disabled" >&2
  fi
  jobs -p | xargs -r kill 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$work/gnu" "$work/fast" "$work/data"
ln -s "$gnu_wc" "$work/gnu/wc"
ln -s "$fastwc" "$work/fast/wc"
export FASTWC_COMPAT=$gnu_version
export LC_ALL=C
unset POSIXLY_CORRECT LANGUAGE
cd "$work/data" || exit 2

passed=0 failed=0 skipped=0
last=$(date +%s%N)
# Sets $took to the milliseconds since the previous verdict: what each case
# costs.
took=
lap() {
  local now
  now=$(date +%s%N)
  took="$(((now - last) / 1000000)) ms"
  last=$now
}
pass() {
  lap
  echo "PASS $1 ($took)"
  passed=$((passed + 1))
}
fail() {
  lap
  echo "FAIL $1: $2 ($took)"
  failed=$((failed + 1))
}
skip() {
  lap
  echo "SKIP $1: $2"
  skipped=$((skipped + 1))
}

# run_as IMPL SCRIPT: runs a bash script with IMPL's wc first on PATH, under
# a time limit, leaving stdout, stderr and the status in $work/IMPL.{out,err,rc}.
run_as() {
  local impl=$1 script=$2 limit=${3:-60}
  PATH="$work/$impl:$PATH" timeout -k 5 "$limit" bash -c "$script" \
    >"$work/$impl.out" 2>"$work/$impl.err"
  echo $? >"$work/$impl.rc"
}

# same NAME SCRIPT [LIMIT]: GNU wc and fastwc give identical stdout, stderr
# and exit status.
same() {
  local name=$1 script=$2 limit=${3:-60}
  run_as gnu "$script" "$limit"
  run_as fast "$script" "$limit"
  if [[ $(<"$work/fast.rc") == 124 || $(<"$work/fast.rc") == 137 ]]; then
    fail "$name" "fastwc did not finish within $limit s"
    return 1
  fi
  local what
  for what in out err rc; do
    if ! cmp -s "$work/gnu.$what" "$work/fast.$what"; then
      fail "$name" "$what differs from GNU wc's"
      diff <(od -c "$work/gnu.$what" | head -n 20) <(od -c "$work/fast.$what" | head -n 20) | head -n 20 | sed 's/^/    /'
      return 1
    fi
  done
  pass "$name"
}

# Input files. uniform: 64-byte lines, so that any prefix of b bytes holds
# exactly b / 64 lines (the truncation and growth cases rely on it).
printf '%063d\n' 0 | head -c 64 >line64
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do cat line64 line64 >l2 && mv l2 line64; done  # 256 KiB
for _ in $(seq 1 256); do cat line64; done >uniform                                   # 64 MiB
printf 'Grüße, 世界! \xff\xfe invalid\tand\u00a0nbsp\n%.0s' $(seq 1 200000) >text    # ~7 MiB UTF-8
printf 'a b\nc\n' >small1
printf '\xce\xb1\xce\xb2 \xff\n' >small2
: >empty

# ---------------------------------------------------------------------------
# The counting threads' module (fastwc-workers.so, oneTBB) cannot be loaded:
# the calling thread counts alone, with the same output; --debug says so.
same "no workers module: counts" \
  'export FASTWC_WORKERS_MODULE=/nonexistent/fastwc-workers.so FASTWC_SERIAL_THRESHOLD=0 FASTWC_JOBS=4 LC_ALL=C.UTF-8; wc -lwmcL text uniform; wc -w <text'
# Workers are asked for only by the reader thread's pipeline (a regular
# file is read by threads of its own unless --io says otherwise), once
# chunks wait (counting slower than reading): -L on UTF-8 text in 4 KiB
# chunks, a few tries.
for _ in 1 2 3; do
  FASTWC_WORKERS_MODULE=/nonexistent/fastwc-workers.so FASTWC_SERIAL_THRESHOLD=0 FASTWC_JOBS=4 \
    FASTWC_READ_SIZE=4096 LC_ALL=C.UTF-8 timeout 60 "$fastwc" --io=uring --debug -L text >/dev/null 2>"$work/fast.err"
  grep -q "no counting threads" "$work/fast.err" && break
done
if grep -q "no counting threads" "$work/fast.err"; then
  pass "no workers module: named under --debug"
else
  fail "no workers module: named under --debug" "$(head -c 300 "$work/fast.err")"
fi

# ---------------------------------------------------------------------------
# io_uring disabled system-wide: fastwc falls back to read(2) silently
# (named under --debug) and counts the same.
if [[ ! -w /proc/sys/kernel/io_uring_disabled ]]; then
  skip "io_uring disabled by sysctl" "kernel.io_uring_disabled missing or not writable (needs root, Linux >= 6.6)"
else
  saved_uring_disabled=$(</proc/sys/kernel/io_uring_disabled)
  if echo 2 >/proc/sys/kernel/io_uring_disabled; then
    # Keep the window short: io_uring is off for the whole machine.
    # FASTWC_IO, not --io: GNU wc would refuse the option.
    same "io_uring disabled by sysctl: counts" \
      'export FASTWC_SERIAL_THRESHOLD=0 FASTWC_IO=uring; wc -lwm text uniform; wc -c text' &&
      {
        FASTWC_SERIAL_THRESHOLD=0 timeout 60 "$fastwc" --io=uring --debug -l text >/dev/null 2>"$work/debug"
        if grep -q 'io_uring unavailable' "$work/debug"; then
          pass "io_uring disabled by sysctl: the fallback is named under --debug"
        else
          fail "io_uring disabled by sysctl" "--debug does not say io_uring is unavailable: $(cat "$work/debug")"
        fi
      }
    echo "$saved_uring_disabled" >/proc/sys/kernel/io_uring_disabled
    saved_uring_disabled=
  else
    skip "io_uring disabled by sysctl" "cannot write kernel.io_uring_disabled"
    saved_uring_disabled=
  fi
fi

# ---------------------------------------------------------------------------
# An unprivileged user whose RLIMIT_MEMLOCK (64 KiB) cannot pin the pool:
# buffer registration is refused, reading goes on into plain buffers.
if ((EUID != 0)) || ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null ||
  ! id nobody >/dev/null 2>&1; then
  skip "RLIMIT_MEMLOCK 64 KiB as nobody" "needs root, setpriv, prlimit and the user nobody"
else
  # nobody must reach the binary: copy it (and its name) next to the data.
  mkdir -p "$work/nobody"
  cp "$fastwc" "$work/nobody/wc"
  chmod 755 "$work/nobody" "$work/nobody/wc"
  chmod 644 uniform text
  as_nobody=(prlimit --memlock=65536:65536 setpriv --reuid=nobody --regid=nogroup --clear-groups)
  FASTWC_SERIAL_THRESHOLD=0 timeout 120 "${as_nobody[@]}" "$work/nobody/wc" --io=uring --read-size=64K \
    --debug -lwc uniform text >"$work/fast.out" 2>"$work/fast.err"
  rc=$?
  timeout 120 "$gnu_wc" -lwc uniform text >"$work/gnu.out" 2>&1
  if ((rc != 0)); then
    fail "RLIMIT_MEMLOCK 64 KiB as nobody" "exit status $rc: $(head -c 500 "$work/fast.err")"
  elif ! cmp -s "$work/gnu.out" "$work/fast.out"; then
    fail "RLIMIT_MEMLOCK 64 KiB as nobody" "counts differ from GNU wc's"
  elif grep -q 'io_uring unavailable' "$work/fast.err"; then
    skip "RLIMIT_MEMLOCK 64 KiB as nobody" "io_uring is not available to unprivileged users here (counts equal GNU wc's)"
  elif ! grep -q 'registration refused' "$work/fast.err"; then
    fail "RLIMIT_MEMLOCK 64 KiB as nobody" "registration was not refused, so the case did not happen: $(head -c 500 "$work/fast.err")"
  else
    pass "RLIMIT_MEMLOCK 64 KiB as nobody: registration refused, counts equal GNU wc's"
  fi
fi

# ---------------------------------------------------------------------------
# Standard output unusable: GNU's write error message and exit status.
same "stdout closed" 'wc -l text >&-'
if [[ -w /dev/full ]]; then
  same "stdout on /dev/full" 'wc -lwc text uniform >/dev/full'
  same "stdout on /dev/full, many lines" 'for i in $(seq 1 3000); do printf "small1\0"; done | wc --files0-from=- >/dev/full'
else
  skip "stdout on /dev/full" "/dev/full is missing"
fi

# SIGPIPE: one short line fits the pipe (status 0 for both); thousands of
# lines after the reader has gone end with SIGPIPE (141), or with EPIPE and
# GNU's message when SIGPIPE is ignored.
same "SIGPIPE: wc big | head -c1" 'wc -l uniform | head -c1 >/dev/null; echo "${PIPESTATUS[*]}"'
same "SIGPIPE: many lines | head -c1" \
  'for i in $(seq 1 20000); do printf "small2\0"; done >names; wc --files0-from=names | head -c1 >/dev/null; echo "${PIPESTATUS[*]}"'
same "SIGPIPE ignored: write error" \
  'trap "" PIPE; wc --files0-from=names | head -c1 >/dev/null; echo "${PIPESTATUS[*]}"'

# ---------------------------------------------------------------------------
# A file truncated while it is read: no crash, no hang; whatever was read is
# a prefix of the file, so lines == bytes / 64 and bytes lie between the
# new and the old size. Small reads make the read last long enough for the
# truncation to land in it most of the time (the count says how often).
for backend in uring read pread; do
  ok=1 inside=0
  for delay in 0.002 0.01 0.03; do
    cp uniform shrinking
    FASTWC_SERIAL_THRESHOLD=0 timeout 60 "$fastwc" --io=$backend --read-size=4K --jobs=2 -lc shrinking \
      >"$work/fast.out" 2>"$work/fast.err" &
    reader=$!
    sleep "$delay"
    truncate -s 1M shrinking
    wait "$reader"
    rc=$?
    read -r lines bytes _ <"$work/fast.out"
    if ((rc != 0)); then
      fail "file truncated while read ($backend)" "exit status $rc: $(head -c 300 "$work/fast.err")"
      ok=0
      break
    elif ((bytes < 1048576 || bytes > 64 * 1048576 || lines != bytes / 64)); then
      fail "file truncated while read ($backend)" "insane counts: $lines lines, $bytes bytes"
      ok=0
      break
    fi
    ((bytes > 1048576 && bytes < 64 * 1048576)) && inside=$((inside + 1))
  done
  ((ok)) && pass "file truncated while read ($backend): sane counts, 3 times; $inside truncations landed inside the read"
done

# A file that grows while it is read (64-byte lines appended in bursts).
for backend in uring read pread; do
  cp uniform growing
  (for _ in $(seq 1 40); do cat line64 >>growing; done) &
  writer=$!
  FASTWC_SERIAL_THRESHOLD=0 timeout 60 "$fastwc" --io=$backend --read-size=64K -lc growing \
    >"$work/fast.out" 2>"$work/fast.err"
  rc=$?
  wait "$writer"
  read -r lines bytes _ <"$work/fast.out"
  final=$(stat -c %s growing)
  if ((rc != 0)); then
    fail "file growing while read ($backend)" "exit status $rc: $(head -c 300 "$work/fast.err")"
  elif ((bytes < 64 * 1048576 || bytes > final || lines != bytes / 64)); then
    fail "file growing while read ($backend)" "insane counts: $lines lines, $bytes bytes of $final"
  else
    pass "file growing while read ($backend): $bytes of the final $final bytes"
  fi
done

# ---------------------------------------------------------------------------
# A FIFO whose writer sends one byte at a time, slowly: every read returns
# one byte, cutting every multibyte character (C.UTF-8).
if ! command -v mkfifo >/dev/null || ! command -v python3 >/dev/null; then
  skip "FIFO, slow 1-byte writes" "no mkfifo or no python3"
else
  head -c 300 text >fifo_text
  mkfifo fifo
  # One write(2) per byte, 2 ms apart.
  slow_writer='python3 -c "
import os, time
data = open(\"fifo_text\", \"rb\").read()
fd = os.open(\"fifo\", os.O_WRONLY)
for i in range(len(data)):
    os.write(fd, data[i:i + 1])
    time.sleep(0.002)
"'
  for threshold in default 0; do
    env=()
    [[ $threshold == 0 ]] && env=(FASTWC_SERIAL_THRESHOLD=0)
    same "FIFO, slow 1-byte writes (serial threshold $threshold)" \
      "export LC_ALL=C.UTF-8 ${env[*]}; ($slow_writer) & wc -lwmcL <fifo; wait"
  done
fi

# ---------------------------------------------------------------------------
# A sparse file: -c from st_size at once, -l reads the holes to the end.
truncate -s "${sparse_gib}G" sparse
# -c: both from st_size, at once (a 10 s limit for the two together).
same "sparse ${sparse_gib} GiB: -c" 'wc -c sparse' 10
# -l: fastwc through the pipeline first (the first reader also pays for
# filling the page cache), then both.
FASTWC_SERIAL_THRESHOLD=0 timeout 300 "$fastwc" -l sparse >"$work/fast.out" 2>&1
rc=$?
if ((rc != 0)) || [[ $(<"$work/fast.out") != "0 sparse" ]]; then
  fail "sparse ${sparse_gib} GiB: -l through the pipeline" "status $rc, output: $(head -c 300 "$work/fast.out")"
else
  pass "sparse ${sparse_gib} GiB: -l through the pipeline"
fi
same "sparse ${sparse_gib} GiB: -l" 'wc -l sparse' 300
rm -f sparse
# GNU's per-byte loop takes about 15 s per GiB for -w: a smaller hole.
truncate -s 256M sparse
same "sparse 256 MiB: -lwmcL" 'wc -lwmcL sparse' 300
rm -f sparse

# ---------------------------------------------------------------------------
# A 100,000-name --files0-from list (a few small files, one missing).
for _ in $(seq 1 25000); do printf 'small1\0small2\0empty\0missing\0'; done >list
same "100,000-name --files0-from" 'wc --files0-from=list | tail -n 3; wc -c --files0-from=list | md5sum' 300
same "100,000-name --files0-from on stdin, C.UTF-8" \
  'LC_ALL=C.UTF-8 wc -lwm --files0-from=- <list | md5sum' 300

# Names with newlines, other control characters and invalid UTF-8, as
# operands and in a list, in both locales.
touch $'new\nline' $'tab\there' $'bad\xff\xfename' $'mixed \xc3\xa9\n\xe2\x80' ' lead' "quote'd"
printf 'x\n' >$'new\nline'
printf '\0' >names0
printf 'new\nline\0bad\xff\xfename\0nope\nnope\0mixed \xc3\xa9\n\xe2\x80\0\0' >names1
for loc in C C.UTF-8; do
  same "odd names as operands ($loc)" \
    "export LC_ALL=$loc; wc \$'new\\nline' \$'tab\\there' \$'bad\\xff\\xfename' \$'mixed \\xc3\\xa9\\n\\xe2\\x80' ' lead' \"quote'd\" \$'miss\\ning'"
  same "odd names in --files0-from ($loc)" "export LC_ALL=$loc; wc --files0-from=names1; wc --files0-from=names0"
done

echo "env: $passed passed, $failed failed, $skipped skipped"
if ((failed > 0)); then exit 1; fi
if ((passed == 0)); then exit 77; fi
exit 0
