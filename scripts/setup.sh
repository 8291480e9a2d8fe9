#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Prepares a Debian 12 machine for fastwc and builds it: installs the Debian
# packages that are missing (and only then runs apt-get), configures the Meson
# build directory (or reconfigures it when it already exists) and compiles.
# With --test it also runs the test suites. Safe to run again at any time.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/setup.sh [OPTION]...
Install fastwc's build dependencies (Debian 12), configure and build it.

  --builddir DIR          build directory (default: build in the source tree,
                            or build-SANITIZERS with --sanitize, for example
                            build-address-undefined)
  --buildtype TYPE        Meson build type (default: the project's, release;
                            debugoptimized with --sanitize); an existing build
                            directory keeps its type unless this is given
  --werror                treat compiler warnings as errors (as CI does)
  --sanitize LIST         build with -Db_sanitize=LIST: address,undefined or thread
  --test                  also install the test dependencies and run
                            'meson test --print-errorlogs'
  -h, --help              display this help and exit

Packages are installed with apt-get as root, or through sudo otherwise.
USAGE
}

die() {
  printf 'setup.sh: %s\n' "$*" >&2
  exit 1
}

# Prints a command, then runs it.
run() {
  printf '+ %s\n' "$*"
  "$@"
}

# --- Waiting for another apt or dpkg -----------------------------------------
# On a fresh machine unattended-upgrades may hold the package locks for
# minutes. apt-get waits for the dpkg locks up to DPkg::Lock::Timeout seconds
# (silently without a terminal); apt-get update's lock on the package lists
# is not covered by it (apt 2.6), so update is retried here.
lock_timeout=600

# Names the process holding a package lock, if any, before apt-get waits.
say_if_locked() {
  local holders
  holders=$(lslocks --noheadings --output COMMAND,PID,PATH 2>/dev/null |
    awk '$3 ~ "^/var/(lib/dpkg|lib/apt/lists|cache/apt/archives)/lock" {print $1 " (pid " $2 ") holds " $3}' |
    sort -u) || true
  if [[ -n $holders ]]; then
    printf 'setup.sh: %s; waiting up to %d s for it\n' "${holders//$'\n'/, }" "$lock_timeout"
  fi
}

# apt-get update, retried every 5 s while another process holds the lists lock.
apt_update() {
  local waited=0 status output
  while :; do
    say_if_locked
    status=0
    printf '+ %s\n' "${apt[*]} update"
    output=$("${apt[@]}" -o "DPkg::Lock::Timeout=$lock_timeout" update 2>&1) || status=$?
    printf '%s\n' "$output"
    ((status != 0)) || return 0
    if ! grep -q 'lists/lock' <<<"$output" || ((waited >= lock_timeout)); then
      die "apt-get update failed"
    fi
    if ((waited % 30 == 0)); then
      echo "setup.sh: another apt holds the package lists' lock; waiting (${waited} s so far)"
    fi
    sleep 5
    waited=$((waited + 5))
  done
}

builddir=
buildtype=
werror=false
sanitize=
run_tests=false
while (($#)); do
  case $1 in
    --builddir) (($# >= 2)) || die "option '$1' requires an argument"; builddir=$2; shift ;;
    --builddir=*) builddir=${1#*=} ;;
    --buildtype) (($# >= 2)) || die "option '$1' requires an argument"; buildtype=$2; shift ;;
    --buildtype=*) buildtype=${1#*=} ;;
    --sanitize) (($# >= 2)) || die "option '$1' requires an argument"; sanitize=$2; shift ;;
    --sanitize=*) sanitize=${1#*=} ;;
    --werror) werror=true ;;
    --test) run_tests=true ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unrecognized argument '$1'" ;;
  esac
  shift
done

case $sanitize in
  '' | none) sanitize= ;;
  address | undefined | address,undefined | thread | leak | memory) ;;
  *) die "invalid --sanitize '$sanitize' (use address,undefined or thread)" ;;
esac
if [[ -z $builddir ]]; then
  builddir=build${sanitize:+-${sanitize//,/-}}
elif [[ $builddir != /* ]]; then
  builddir=$PWD/$builddir  # relative to where the script was started
fi
if [[ -n $sanitize && -z $buildtype ]]; then
  buildtype=debugoptimized  # keep assertions and usable stack traces
fi

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# --- Debian packages ---------------------------------------------------------
# doctest-dev ships only a CMake package, which Meson finds through cmake.
packages=(g++ meson ninja-build pkg-config python3 libtbb-dev liburing-dev libxsimd-dev)
if $run_tests; then
  # groff-base provides groff and the man macros for the man page check;
  # clang and libclang-rt-14-dev (libFuzzer, only recommended by clang, so
  # not pulled in by --no-install-recommends) build the fuzz targets;
  # dpkg-dev (dpkg-source) unpacks the coreutils sources whose wc tests the
  # gnu suite runs, and locales has the sources of the locales they use;
  # bash-completion and zsh let the completion test run both completions;
  # clang-format is the lint suite's formatter (Debian 12's is version 14).
  packages+=(doctest-dev cmake groff-base clang libclang-rt-14-dev dpkg-dev locales bash-completion zsh
    clang-format)
fi

missing=()
for pkg in "${packages[@]}"; do
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != 'install ok installed' ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup.sh: installing missing packages: ${missing[*]}"
  # env passes DEBIAN_FRONTEND through sudo, which resets the environment.
  apt=(env DEBIAN_FRONTEND=noninteractive apt-get)
  if ((EUID != 0)); then
    command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]} as root"
    apt=(sudo "${apt[@]}")
  fi
  apt_update
  say_if_locked
  run "${apt[@]}" -o "DPkg::Lock::Timeout=$lock_timeout" install -y --no-install-recommends "${missing[@]}"
else
  echo "setup.sh: all required packages are installed"
fi

# --- Configure and build -----------------------------------------------------
options=("-Dwerror=$werror")
if [[ -n $buildtype ]]; then
  options+=("--buildtype=$buildtype")
fi
if $run_tests; then
  # Without doctest the test suites would silently be left out: make it an error.
  options+=(-Dtests=enabled)
fi
if [[ -n $sanitize ]]; then
  options+=("-Db_sanitize=$sanitize")
  # Clang cannot link its sanitizer runtimes with -Wl,--no-undefined.
  # shellcheck disable=SC2086 # CXX may hold a command with arguments (ccache clang++)
  if ${CXX:-c++} --version 2>/dev/null | grep -q clang; then
    options+=(-Db_lundef=false)
  fi
fi

if [[ -f $builddir/meson-private/coredata.dat ]]; then
  run meson setup --reconfigure "${options[@]}" "$builddir"
else
  run meson setup "${options[@]}" "$builddir"
fi
run meson compile -C "$builddir"

# --- Tests -------------------------------------------------------------------
if $run_tests; then
  if [[ -n $sanitize ]]; then
    # Make every sanitizer report fail the test that triggered it; values
    # already in the environment win.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:halt_on_error=1:detect_leaks=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
  fi
  run meson test -C "$builddir" --print-errorlogs
fi
