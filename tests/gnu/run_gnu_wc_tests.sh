#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs GNU coreutils' own wc tests against fastwc: for each Debian release
# asked for, the coreutils source package of that release (Debian's patches
# applied), its tests/wc/* and tests/misc/wc* (whatever that version has) and
# the tests that check every program's options and --help (for wc alone),
# with fastwc standing in for wc and FASTWC_COMPAT set to that source's
# version. The environment is the one the source's tests/local.mk gives its
# tests (TESTS_ENVIRONMENT), with the source tree as srcdir and a build
# directory whose src/ holds wc (a symlink to fastwc, so that argv[0] is wc);
# the other programs the tests use are the system's.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: tests/gnu/run_gnu_wc_tests.sh [OPTION]... FASTWC
Run GNU coreutils' wc tests against the fastwc binary FASTWC.

  --release R        bullseye (8.32), bookworm (9.1), trixie (9.7), sid (9.10);
                       may be repeated; default: all four
  --source DIR       also run the tests of an unpacked coreutils source tree
  --cache DIR        where sources are kept (default: $FASTWC_GNU_TESTS_CACHE,
                       else ${XDG_CACHE_HOME:-~/.cache}/fastwc-gnu-tests)
  --offline          do not contact the archive; use cached sources only
  --skip-unavailable a release whose source cannot be had is skipped, not an
                       error; exit 77 if nothing could be run
  --keep             keep every test's log (default: only failures')
  -h, --help         display this help and exit

Sources come from deb.debian.org through apt-get, with a private apt state
in the cache directory (no root needed); dpkg-source (dpkg-dev) unpacks them.
Exit status: 0 all passed (skips and expected failures allowed), 1 a test
failed, 2 usage or set-up error, 77 nothing run (--skip-unavailable).
USAGE
}

die() { printf 'run_gnu_wc_tests.sh: %s\n' "$*" >&2; exit 2; }

fastwc=
releases=()
sources=()
cache=${FASTWC_GNU_TESTS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/fastwc-gnu-tests}
offline=false
skip_unavailable=false
keep=false
while (($#)); do
  case $1 in
    --release) (($# >= 2)) || die "option '$1' requires an argument"; releases+=("$2"); shift ;;
    --release=*) releases+=("${1#*=}") ;;
    --source) (($# >= 2)) || die "option '$1' requires an argument"; sources+=("$2"); shift ;;
    --source=*) sources+=("${1#*=}") ;;
    --cache) (($# >= 2)) || die "option '$1' requires an argument"; cache=$2; shift ;;
    --cache=*) cache=${1#*=} ;;
    --offline) offline=true ;;
    --skip-unavailable) skip_unavailable=true ;;
    --keep) keep=true ;;
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; die "unrecognized option '$1'" ;;
    *) [[ -z $fastwc ]] || die "extra operand '$1'"; fastwc=$1 ;;
  esac
  shift
done
[[ -n $fastwc ]] || { usage >&2; exit 2; }
[[ -x $fastwc && -f $fastwc ]] || die "not an executable: $fastwc"
fastwc=$(realpath "$fastwc")
if ((${#releases[@]} == 0 && ${#sources[@]} == 0)); then
  releases=(bullseye bookworm trixie sid)
fi
for r in "${releases[@]}"; do
  case $r in
    bullseye | bookworm | trixie | sid) ;;
    *) die "unknown release '$r' (use bullseye, bookworm, trixie or sid)" ;;
  esac
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$cache"
cache=$(realpath "$cache")

# The tests run in the build directory under $tmp. wc-total.sh checks the
# overflow of totals only where 'truncate -s 2E' works (not on ext4, whose
# files end at 16 TiB): prefer a file system that has such files (tmpfs).
can_2e() {
  local f
  f=$(mktemp "$1/fastwc-gnu-tests-2e.XXXXXX" 2>/dev/null) || return 1
  truncate -s 2E "$f" 2>/dev/null && rm -f "$f" && return 0
  rm -f "$f"
  return 1
}
tmp_root=${TMPDIR:-/tmp}
if ! can_2e "$tmp_root"; then
  if [[ -d /dev/shm && -w /dev/shm ]] && can_2e /dev/shm; then
    tmp_root=/dev/shm
  else
    echo "note: truncate -s 2E fails in $tmp_root: wc-total.sh leaves its overflow checks out"
  fi
fi
tmp=$(mktemp -d "$tmp_root/fastwc-gnu-tests.XXXXXX")
keep_tmp=false
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  if $keep_tmp; then
    echo "logs kept in $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

# --- Sources -------------------------------------------------------------------

# A private apt state per release under the cache: its own sources list (deb-src
# of that suite only), lists and an empty dpkg status, so that neither root nor
# the system's apt configuration is needed. The timeouts make an unreachable
# archive fail in seconds rather than minutes.
apt_opts() {
  local dir=$1
  printf '%s\n' -o "Dir::Etc::SourceList=$dir/coreutils.sources" -o "Dir::Etc::SourceParts=/dev/null" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status" \
    -o "Dir::Cache=$dir/cache" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root" \
    -o "Acquire::Retries=1" -o "Acquire::http::Timeout=20" -o "Acquire::Languages=none"
}

# Sets fetched_tree to the unpacked coreutils source of release $1 (downloading
# and unpacking it when the archive has a version not in the cache), or
# returns 1 with the reason on stderr.
fetched_tree=
fetch_release() {
  local release=$1 dir=$cache/apt/$1 opts version tree work
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  if ! $offline; then
    cat >"$dir/coreutils.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $release
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    : >"$dir/status"
    mapfile -t opts < <(apt_opts "$dir")
    if apt-get "${opts[@]}" -qq --error-on=any update >"$tmp/apt-$release.log" 2>&1; then
      version=$(apt-cache "${opts[@]}" showsrc --only-source coreutils 2>/dev/null |
        sed -n 's/^Version: //p' | sort -V | tail -n 1)
      if [[ -n $version ]]; then
        echo "$version" >"$dir/version"
      fi
    else
      echo "apt-get update for $release failed:" >&2
      sed 's/^/  /' "$tmp/apt-$release.log" >&2
      # An archive that cannot be reached costs its timeouts once, not per release.
      echo "the releases after $release use the cache only" >&2
      offline=true
    fi
  fi
  [[ -s $dir/version ]] || { echo "no coreutils source of $release known (offline or unreachable)" >&2; return 1; }
  version=$(<"$dir/version")
  tree=$cache/src/coreutils_${version#*:}
  if [[ ! -f $tree/.fastwc-complete ]]; then
    $offline && { echo "coreutils $version of $release is not in the cache" >&2; return 1; }
    command -v dpkg-source >/dev/null || { echo "dpkg-source not found (install dpkg-dev)" >&2; return 1; }
    mapfile -t opts < <(apt_opts "$dir")
    work=$tmp/download-$release
    mkdir -p "$work"
    if ! (cd "$work" && apt-get "${opts[@]}" -qq source --download-only "coreutils=$version") \
      >"$tmp/apt-$release.log" 2>&1; then
      echo "cannot download coreutils $version from $release:" >&2
      sed 's/^/  /' "$tmp/apt-$release.log" >&2
      return 1
    fi
    # dpkg-source checks the files against the .dsc (whose hashes apt checked
    # against the signed release file) and applies Debian's patches.
    if ! (cd "$work" && dpkg-source -x ./*.dsc tree) >"$tmp/dpkg-source-$release.log" 2>&1; then
      echo "dpkg-source -x failed for coreutils $version:" >&2
      sed 's/^/  /' "$tmp/dpkg-source-$release.log" >&2
      return 1
    fi
    touch "$work/tree/.fastwc-complete"
    mkdir -p "$cache/src"
    rm -rf "$tree"
    mv "$work/tree" "$tree"
    rm -rf "$work"
  fi
  fetched_tree=$tree
}

# --- Locales -------------------------------------------------------------------

# tests/*/wc-nbsp.sh checks only the locales it finds (en_US.ISO-8859-1,
# en_US.UTF-8, ru_RU.KOI8-R) and passes vacuously without them: compile them
# into a private LOCPATH when the locales package's sources are there.
locpath=
setup_locales() {
  local dir=$cache/locales spec src charmap name
  command -v localedef >/dev/null && [[ -d /usr/share/i18n/locales ]] || return 0
  mkdir -p "$dir"
  for spec in en_US:UTF-8:en_US.utf8 en_US:ISO-8859-1:en_US.iso88591 ru_RU:KOI8-R:ru_RU.koi8r; do
    IFS=: read -r src charmap name <<<"$spec"
    if [[ ! -f $dir/$name/LC_CTYPE ]]; then
      localedef -i "$src" -f "$charmap" "$dir/$name" >/dev/null 2>&1 || { rm -rf "${dir:?}/$name"; return 0; }
    fi
  done
  # The system's own compiled locales (C.utf8) stay reachable after ours.
  locpath=$dir:/usr/lib/locale
}

# --- Running the tests -----------------------------------------------------------

# GNU's tests that check every program's options and --help, run for wc
# alone (built_programs=wc); whichever the version has.
program_tests=(tests/misc/help-version.sh tests/help/help-version.sh tests/misc/usage_vs_getopt.sh
  tests/misc/getopt_vs_usage.sh tests/misc/usage_vs_refs.sh)

# usage_vs_refs.sh looks up every option of --help in GNU's manual
# (doc/coreutils.texi): fastwc's own options cannot be there. It is an
# expected failure when those are all it reports.
fastwc_own_options='--jobs|--io|--read-size|--stats|--progress'
is_expected_failure() {
  local test=$1 log=$2 complaints
  [[ $test == */usage_vs_refs.sh ]] || return 1
  complaints=$(grep -E '^wc -.* reference missing in texi$' "$log" || true)
  [[ -n $complaints ]] || return 1
  ! grep -Evq "^wc ($fastwc_own_options) reference missing in texi\$" <<<"$complaints"
}

total_pass=0 total_skip=0 total_xfail=0 total_fail=0 total_releases=0
failed_names=()

# run_tree LABEL SRCDIR: runs the wc tests of one unpacked coreutils tree.
run_tree() {
  local label=$1 src=$2 version work t p log rc reason status progs list keep_log
  if [[ -f $src/.tarball-version ]]; then
    version=$(<"$src/.tarball-version")
  else
    version=$(sed -n 's/^VERSION = //p' "$src/Makefile.in" 2>/dev/null || true)
  fi
  [[ $version =~ ^[0-9]+\.[0-9]+ ]] || { echo "$label: cannot tell the coreutils version of $src" >&2; return 1; }
  version=${BASH_REMATCH[0]}

  work=$tmp/$label
  mkdir -p "$work/src"
  ln -s "$fastwc" "$work/src/wc"
  ln -s "$here/getlimits" "$work/src/getlimits"

  # The tests say "wc:" in the messages they expect: fastwc must name itself
  # after argv[0].
  local msg
  msg=$(cd "$work" && PATH=$work/src:$PATH FASTWC_COMPAT=$version LC_ALL=C wc --no-such-option 2>&1 >/dev/null | head -n 1) || true
  if [[ $msg != "wc: unrecognized option '--no-such-option'" ]]; then
    echo "$label: fastwc run as wc does not say 'wc:' (got: $msg)" >&2
    return 1
  fi

  # built_programs: wc, and every other program of this version that the
  # system has (print_ver_ and require_built_ look them up there).
  progs="wc"
  if [[ -f $src/build-aux/gen-lists-of-programs.sh ]]; then
    for p in $(sh "$src/build-aux/gen-lists-of-programs.sh" --list-progs); do
      [[ $p == wc ]] && continue
      [[ $p == ginstall ]] && p=install
      command -v "$p" >/dev/null 2>&1 && progs+=" $p"
    done
  fi

  # The tests of this version: those of tests/wc/ and tests/misc/wc*, and the
  # per-program ones, each only if tests/local.mk lists it.
  list=()
  for t in "$src"/tests/wc/*.sh "$src"/tests/wc/*.pl "$src"/tests/misc/wc*.sh "$src"/tests/misc/wc*.pl; do
    [[ -f $t ]] && list+=("${t#"$src"/}")
  done
  local n_wc=${#list[@]}
  for t in "${program_tests[@]}"; do
    [[ -f $src/$t ]] && list+=("$t")
  done

  local fastwc_version
  fastwc_version=$("$fastwc" --version | sed -n '1s/.* //p')
  printf '\n== %s: coreutils %s (FASTWC_COMPAT=%s), %s\n' "$label" "$version" "$version" "$src"
  local n_pass=0 n_skip=0 n_xfail=0 n_fail=0 i triplet test_name
  for ((i = 0; i < ${#list[@]}; i++)); do
    t=${list[i]}
    if ! grep -qF "$t" "$src/tests/local.mk"; then
      printf 'SKIP  %s (not listed in tests/local.mk)\n' "$t"
      n_skip=$((n_skip + 1))
      continue
    fi
    if [[ $t == *.pl ]] && ! command -v perl >/dev/null; then
      printf 'SKIP  %s (perl not found)\n' "$t"
      n_skip=$((n_skip + 1))
      continue
    fi
    # The per-program tests see wc as the only program built.
    local built=$progs
    ((i >= n_wc)) && built="wc"
    log=$work/$(tr / - <<<"$t").log
    mkdir -p "$work/$(dirname "$t")"  # CuTmpdir makes the .pl tests' directory there
    triplet=$(uname -m)-pc-linux-gnu
    test_name=$(basename "$src"),${t//\//-}
    rc=0
    (
      # What tests/local.mk's TESTS_ENVIRONMENT does, in its order; GNU's
      # scripts are not written for errexit or nounset.
      set +euo pipefail
      cd "$work" || exit 99
      # shellcheck source=/dev/null
      . "$src/tests/lang-default"
      tmp__=${TMPDIR-/tmp}
      { test -d "$tmp__" && test -w "$tmp__"; } || tmp__=.
      # shellcheck source=/dev/null
      . "$src/tests/envvar-check"
      TMPDIR=$tmp__
      # VERSION is what help-version.sh compares with the first program's
      # --version (a check that PATH finds the programs built): fastwc's.
      export TMPDIR VERSION=$fastwc_version PACKAGE_VERSION=$fastwc_version \
        abs_top_builddir=$work abs_top_srcdir=$src abs_srcdir=$src top_srcdir=$src srcdir=$src \
        built_programs=$built fail=0 host_os=linux-gnu host_triplet=$triplet \
        CONFIG_HEADER=$work/lib/config.h CU_TEST_NAME=$test_name \
        CC=cc AWK=awk EGREP='grep -E' EXEEXT='' MAKE=make PERL=perl SHELL=/bin/sh \
        VERBOSE=yes FASTWC_COMPAT=$version PS4='gnu-trace+ '
      unset DEBUG
      [[ -n $locpath ]] && export LOCPATH=$locpath
      PATH=$work/src:$PATH
      case $t in
        *.pl) exec timeout -k 10 300 perl -w -I"$src/tests" -MCuSkip -MCoreutils -M"CuTmpdir qw($t)" "$src/$t" ;;
        *) exec timeout -k 10 300 /bin/sh "$src/$t" ;;
      esac
    ) </dev/null >"$log" 2>&1 9>&2 || rc=$?
    keep_log=$keep
    case $rc in
      0) status=PASS; n_pass=$((n_pass + 1)) ;;
      77)
        reason=$(sed -n 's/.*skipped test: //p' "$log" | head -n 1)
        [[ -n $reason ]] || reason=$(tail -n 1 "$log")
        printf 'SKIP  %s (%s)\n' "$t" "$reason"
        n_skip=$((n_skip + 1))
        continue
        ;;
      *)
        if is_expected_failure "$t" "$log"; then
          printf 'XFAIL %s: fastwc'\''s own options are not in GNU'\''s manual, as expected:\n' "$t"
          grep -E 'reference missing in texi$' "$log" | sed 's/^/        /'
          n_xfail=$((n_xfail + 1))
          continue
        fi
        status="FAIL (exit $rc)"
        n_fail=$((n_fail + 1))
        failed_names+=("$label:$t")
        keep_log=true
        ;;
    esac
    printf '%-5s %s\n' "${status%% *}" "$t"
    if [[ $status == FAIL* ]]; then
      # The log traces every command (VERBOSE=yes runs the shell tests under
      # set -x, with the PS4 set above): its other lines are the test's
      # output, the diffs of compare and the programs' messages.
      printf -- '----- %s, %s: exit %s; the last 60 lines of %s without the trace\n' \
        "$label" "$t" "$rc" "$log"
      grep -v -e '^gnu-trace+ ' -e '^$' "$log" | tail -n 60
      printf -- '----- end of %s\n' "$t"
    fi
    $keep_log && keep_tmp=true
  done
  printf '%s: %d passed, %d skipped, %d expected failures, %d failed\n' "$label" $n_pass $n_skip $n_xfail $n_fail
  total_pass=$((total_pass + n_pass)) total_skip=$((total_skip + n_skip))
  total_xfail=$((total_xfail + n_xfail)) total_fail=$((total_fail + n_fail))
  total_releases=$((total_releases + 1))
}

# One run at a time per cache: a run replaces and prunes the sources there.
exec {lock_fd}>"$cache/.lock"
flock "$lock_fd"

setup_locales
if [[ -n $locpath ]]; then
  echo "locales for wc-nbsp.sh: $locpath"
else
  echo "note: localedef or /usr/share/i18n/locales missing: wc-nbsp.sh checks only the locales the system has"
fi

unavailable=()
for r in "${releases[@]}"; do
  if ! fetch_release "$r"; then
    unavailable+=("$r")
    echo "$r: coreutils source not available" >&2
    continue
  fi
  run_tree "$r" "$fetched_tree" || { total_fail=$((total_fail + 1)); failed_names+=("$r:set-up"); }
done
for s in "${sources[@]}"; do
  [[ -d $s/tests ]] || die "not a coreutils source tree: $s"
  run_tree "$(basename "$s")" "$(realpath "$s")" || { total_fail=$((total_fail + 1)); failed_names+=("$s:set-up"); }
done

# Keep only the sources that some release still names.
for d in "$cache"/src/coreutils_*; do
  [[ -d $d ]] || continue
  v=${d##*/coreutils_}
  grep -qxF "$v" <(sed 's/^[0-9]*://' "$cache"/apt/*/version 2>/dev/null) || rm -rf "$d"
done

printf '\nGNU wc tests: %d passed, %d skipped, %d expected failures, %d failed' \
  $total_pass $total_skip $total_xfail $total_fail
((${#unavailable[@]})) && printf '; source not available: %s' "${unavailable[*]}"
printf '\n'
((${#failed_names[@]})) && printf 'failed: %s\n' "${failed_names[*]}"
if ((total_fail)); then
  exit 1
fi
if ((${#unavailable[@]})); then
  $skip_unavailable || exit 1
  ((total_releases)) || exit 77
fi
exit 0
