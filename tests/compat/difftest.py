#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""difftest.py: differential test of a wc candidate (fastwc) against the system's GNU wc.

usage: difftest.py [--quick] [--only REGEX] [-j N] [--keep] [--list] [--seed N]
                   [--gnu-wc PATH] [--timeout S] FASTWC_BINARY

Every case is a bash command line run in a generated fixture directory, twice:
once with a directory at the front of PATH whose `wc` is a symlink to GNU wc,
once with one whose `wc` is a symlink to the candidate. Both therefore run as
`wc`, and stdout, stderr and the exit status must be byte-identical.

Per case the environment has LC_ALL set explicitly (C unless the case says
otherwise), LANG, LANGUAGE, POSIXLY_CORRECT and the other LC_* variables
removed unless the case sets them, FASTWC_COMPAT set to the GNU wc version
(GNU wc ignores it; other FASTWC_* variables pass through), stdin /dev/null
unless the command redirects it, and a time limit (a timeout is a failure).
--help, --version and --debug output is not compared (it is fastwc's own).

Cases come from cases/*.txt (hand-written, one `ID|command` or
`ID[TAGS]|command` per line, see cases/README) and from the generators of
difftest_cases.py (over the inputs of difftest_inputs.py, in every class GNU's loops
distinguish, written to files by difftest_fixture.py: every option combination,
named files, stdin redirects, pipes, pipes that split characters, names that
need quoting, argv[0] variants, permission errors). When the system wc is
9.1, the expected strings of the checklist (cases/checklist-9.1.expected)
are also asserted against the oracle itself.

GNU wc 9.5 and later count words differently when a read ends inside a white
space character, so with such an oracle a case whose input comes through a
timing-dependent pipe ("volatile") is run twice with GNU wc and left out if
the two results differ; the candidate gets a second try on such a case.

Exit status: 0 all cases passed, 1 some case failed, 77 no usable GNU wc
(Meson's "skipped"), 2 bad usage. The last line of output is always
`N passed, M failed` when cases were run.
"""
import argparse
import concurrent.futures
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
TIMEOUT_S = 60
SKIP_STATUS = 77
OLDEST = (8, 30)       # the oldest GNU wc version fastwc emulates (it takes any newer one)

COMPILE_LOCALE = os.path.join(os.path.dirname(HERE), "locales", "compile_locale.sh")

from difftest_cases import (COMPILED_LOCALES, LOCALES, OWN_OUTPUT_RE, Case,  # noqa: E402,F401
                            all_cases, c_unescape, load_case_file, load_expectations, shq)
from difftest_fixture import Fixture  # noqa: E402


def find_gnu_wc(explicit):
    path = explicit or shutil.which("wc")
    if not path:
        return None, None, "no wc on PATH"
    try:
        p = subprocess.run([path, "--version"], capture_output=True, timeout=30,
                           env=dict(os.environ, LC_ALL="C", LANGUAGE=""))
    except (OSError, subprocess.SubprocessError) as e:
        return None, None, "%s --version failed: %s" % (path, e)
    first = p.stdout.decode("utf-8", "replace").split("\n")[0]
    m = re.fullmatch(r"wc \(GNU coreutils\) (\d+)\.(\d+)(?:\.\d+)?", first.strip())
    if not m:
        return None, None, "%s is not GNU wc (its --version says %r)" % (path, first)
    return os.path.abspath(path), "%s.%s" % m.groups(), None


def make_bindir(root, name, target):
    d = os.path.join(root, name)
    os.mkdir(d)
    os.chmod(d, 0o755)
    os.symlink(os.path.abspath(target), os.path.join(d, "wc"))
    return d


def base_env(version):
    drop = ("LANG", "LANGUAGE", "POSIXLY_CORRECT", "FASTWC_COMPAT", "BASH_ENV", "ENV", "SHELLOPTS",
            "BASHOPTS", "CDPATH", "GLOBIGNORE", "TMOUT")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in drop}
    env["FASTWC_COMPAT"] = version
    return env


class Timeouts:
    """After a few timeouts the limit drops, so that a candidate that hangs
    everywhere fails in minutes rather than hours."""
    count = 0
    REDUCED_S = 10

    @classmethod
    def limit(cls, full):
        return full if cls.count < 3 else min(full, cls.REDUCED_S)


class Stop:
    """SIGTERM (meson's timeout) or ^C: kill the running cases, start no more."""
    requested = False
    running = set()

    @classmethod
    def now(cls, signum=None, frame=None):
        cls.requested = True
        for p in list(cls.running):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
        if signum is not None:
            raise SystemExit(128 + signum)


def run_side(case, bindir, cwd, env0, timeout):
    if Stop.requested:
        return (b"", b"", "stopped"), 0.0
    timeout = Timeouts.limit(timeout)
    env = dict(env0)
    env.update(case.env)
    env["PATH"] = bindir + os.pathsep + env0.get("PATH", "/usr/bin:/bin")
    start = time.monotonic()
    p = subprocess.Popen(["bash", "-c", case.cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    Stop.running.add(p)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        rc = "timeout after %d s" % timeout
        Timeouts.count += 1
    finally:
        Stop.running.discard(p)
    return (out, err, rc), time.monotonic() - start


def show(b, limit=400):
    """A bytes value as a C-style string literal, truncated."""
    s = '"' + "".join(
        {10: "\\n", 9: "\\t", 13: "\\r", 92: "\\\\", 34: '\\"'}.get(c, chr(c) if 0x20 <= c < 0x7F else "\\%03o" % c)
        for c in b[:limit * 2]) + '"'
    if len(s) > limit:
        s = s[:limit] + '..." (%d bytes)' % len(b)
    return s


def describe(label_w, label_g, w, g):
    lines = []
    for name, a, b in zip(("stdout", "stderr", "status"), w, g):
        if a == b:
            continue
        if name == "status":
            lines.append("  status: %s %s, %s %s" % (label_w, a, label_g, b))
            continue
        width = max(len(label_w), len(label_g))
        lines.append("  %s: %s %s" % (name, label_w.ljust(width), show(a)))
        lines.append("  %s  %s %s" % (" " * len(name), label_g.ljust(width), show(b)))
        la, lb = a.split(b"\n"), b.split(b"\n")
        for i, (x, y) in enumerate(itertools.zip_longest(la, lb)):
            if x != y:
                if len(la) > 2 or len(lb) > 2:
                    lines.append("  %s  first difference, line %d: %s vs %s"
                                 % (" " * len(name), i + 1, show(x or b"", 160), show(y or b"", 160)))
                break
    return lines


def env_text(case):
    return " ".join("%s=%s" % kv for kv in sorted(case.env.items()))


def with_compiled_locales(cases, root, notes):
    """Compiles the locales of COMPILED_LOCALES that `cases` use and points
    those cases' LOCPATH at them; leaves out the cases of a locale that could
    not be compiled."""
    compiled = set(COMPILED_LOCALES.values())
    needed = sorted({c.env.get("LC_ALL") for c in cases} & compiled)
    if not needed:
        return cases
    locdir = os.environ.get("FASTWC_TEST_LOCALE_DIR") or os.path.join(root, "locales")
    r = subprocess.run(["bash", COMPILE_LOCALE, locdir] + needed, capture_output=True, text=True)
    ready = {n for n in needed if os.path.exists(os.path.join(locdir, n, "LC_CTYPE"))}
    if ready != set(needed):
        notes.append("cases in %s left out: %s" % (", ".join(sorted(set(needed) - ready)),
                                                   r.stderr.strip() or "localedef failed"))
    kept = []
    for c in cases:
        name = c.env.get("LC_ALL")
        if name in compiled:
            if name not in ready:
                continue
            c.env = dict(c.env, LOCPATH=locdir)
        kept.append(c)
    return kept


def sampled(cases, n):
    """Every nth case of each group (the id's first part), in list order from
    the group's first: each group keeps a case, and the same ones each run.
    For a sanitizer that watches threads alone (TSan), whose cost is each
    process it starts: the cases left out differ in their inputs, not in
    how fastwc's threads meet."""
    seen = {}
    kept = []
    for c in cases:
        group = c.cid.split("/", 1)[0]
        i = seen.get(group, 0)
        seen[group] = i + 1
        if i % n == 0:
            kept.append(c)
    return kept


def main():
    ap = argparse.ArgumentParser(description="Differential test of a wc candidate against GNU wc.")
    ap.add_argument("candidate", help="the wc under test (fastwc)")
    ap.add_argument("--quick", action="store_true", help="smaller inputs and fewer combinations")
    ap.add_argument("--only", metavar="REGEX", help="run only the cases whose id matches REGEX")
    ap.add_argument("--sample", metavar="N", type=int, default=1,
                    help="run every Nth case of each group (its first, then every Nth after it)")
    ap.add_argument("-j", "--jobs", type=int, default=max(2, (os.cpu_count() or 1) * 2))
    ap.add_argument("--keep", action="store_true", help="keep the fixture directory")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--seed", type=int, default=20240601, help="seed of the generated inputs")
    ap.add_argument("--gnu-wc", metavar="PATH", help="GNU wc to compare with (default: wc on PATH)")
    ap.add_argument("--timeout", type=int, default=TIMEOUT_S, help="seconds per command (default %(default)s)")
    a = ap.parse_args()

    gnu, version, why = find_gnu_wc(a.gnu_wc)
    if not gnu:
        print("difftest: SKIP: %s; this test compares with GNU coreutils wc." % why)
        return SKIP_STATUS
    vt = tuple(int(x) for x in version.split("."))
    if vt < OLDEST:
        print("difftest: SKIP: GNU wc %s at %s is older than the versions fastwc emulates (%d.%d on)."
              % ((version, gnu) + OLDEST))
        return SKIP_STATUS
    cand = os.path.abspath(a.candidate)
    if not (os.path.isfile(cand) and os.access(cand, os.X_OK)):
        print("difftest: candidate %s is not an executable file" % cand, file=sys.stderr)
        return 2
    if not shutil.which("bash"):
        print("difftest: SKIP: bash is needed to run the cases")
        return SKIP_STATUS

    # Clean up on SIGTERM (meson's timeout) as on a normal exit.
    signal.signal(signal.SIGTERM, Stop.now)
    root = tempfile.mkdtemp(prefix="difftest.")
    fx = None
    try:
        started = time.monotonic()
        fx = Fixture(root, random.Random(a.seed), a.quick)
        gnu_dir = make_bindir(root, "gnu", gnu)
        cand_dir = make_bindir(root, "candidate", cand)
        env0 = base_env(version)
        # Permission cases need an unprivileged user when run as root.
        notes = []
        asuser = ""
        if os.geteuid() == 0:
            asuser = None
            setpriv = shutil.which("setpriv")
            if setpriv:
                prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups"
                ok = all(subprocess.run(prefix.split() + [os.path.join(d, "wc"), "/dev/null"], cwd=fx.dir,
                                        capture_output=True, env=dict(env0, LC_ALL="C")).returncode == 0
                         for d in (gnu_dir, cand_dir))
                if ok:
                    asuser = prefix
                else:
                    notes.append("permission cases left out: user 65534 cannot run both wc binaries")
            else:
                notes.append("permission cases left out: running as root without setpriv")
        if not fx.huge:
            notes.append("4 EiB sparse-file cases left out: no writable tmpfs at /dev/shm")
        if subprocess.run(["bash", "-c", "LC_ALL=C.UTF-8 locale charmap"], capture_output=True,
                          text=True).stdout.strip() != "UTF-8":
            notes.append("the C.UTF-8 locale seems missing: UTF-8 cases run in the C locale")
        cases = all_cases(fx, a.quick, asuser, version)
        if a.only:
            cases = [c for c in cases if re.search(a.only, c.cid)]
        if a.sample > 1:
            cases = sampled(cases, a.sample)
        cases = with_compiled_locales(cases, root, notes)
        if a.list:
            for c in cases:
                print("%s\t[%s]\t%s" % (c.cid, env_text(c), c.cmd))
            return 0
        print("difftest: %d cases; GNU wc %s (%s) vs %s; FASTWC_COMPAT=%s; fixture built in %.1f s"
              % (len(cases), version, gnu, cand, version, time.monotonic() - started))
        for n in notes:
            print("difftest: note: " + n)
        sys.stdout.flush()

        unstable_oracle = vt >= (9, 5)

        def work(case):
            if case.compared:
                want, t1 = run_side(case, gnu_dir, fx.dir, env0, a.timeout)
                got, t2 = run_side(case, cand_dir, fx.dir, env0, a.timeout)
                if case.volatile and unstable_oracle:
                    # GNU's result may depend on how its reads were cut: if a
                    # second run disagrees, leave the case out; if the
                    # candidate differs, give it one more try.
                    again, t3 = run_side(case, gnu_dir, fx.dir, env0, a.timeout)
                    t1 += t3
                    if again != want:
                        return "volatile", None, t1 + t2
                    if got != want:
                        got, t4 = run_side(case, cand_dir, fx.dir, env0, a.timeout)
                        t2 += t4
                return want, got, t1 + t2
            if case.expect is not None:
                want, t1 = run_side(case, gnu_dir, fx.dir, env0, a.timeout)
                return want, None, t1
            return None, None, 0.0

        order = sorted(range(len(cases)), key=lambda i: -cases[i].cost)
        results = [None] * len(cases)
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))
        try:
            futures = {pool.submit(work, cases[i]): i for i in order}
            for fut in concurrent.futures.as_completed(futures):
                results[futures[fut]] = fut.result()
        except BaseException:
            Stop.now()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

        passed = failed = skipped = 0
        volatile = []
        slow = []
        for case, (want, got, secs) in zip(cases, results):
            slow.append((secs, case.cid))
            problems = []
            if want is None:
                skipped += 1
                continue
            if want == "volatile":
                volatile.append(case.cid)
                continue
            if case.expect is not None and want != case.expect:
                problems.append("  GNU wc %s itself disagrees with the 9.1 checklist "
                                "(cases/checklist-9.1.expected):" % version)
                problems += describe("checklist", "GNU wc", case.expect, want)
            if got is not None and got != want:
                problems += describe("GNU wc", "candidate", want, got)
            if isinstance(want[2], str) and not problems:
                problems.append("  GNU wc itself: %s" % want[2])
            if problems:
                failed += 1
                print("FAIL %s   [%s]" % (case.cid, env_text(case)))
                print("  $ " + case.cmd.replace("\n", "\\n"))
                print("\n".join(problems))
            else:
                passed += 1
        slow.sort(reverse=True)
        if volatile:
            print("difftest: %d cases left out because GNU wc %s gave two different results for them "
                  "(its word count depends on where a pipe read ends): %s"
                  % (len(volatile), version, " ".join(volatile[:10]) + (" ..." if len(volatile) > 10 else "")))
        print("difftest: %d cases not compared (--help/--version/--debug output is fastwc's own)" % skipped)
        print("difftest: ran in %.1f s; slowest: %s" % (time.monotonic() - started,
                                                        ", ".join("%s %.1fs" % (c, s) for s, c in slow[:3])))
        if a.keep:
            print("difftest: fixture kept: cd %s && PATH=%s:$PATH FASTWC_COMPAT=%s LC_ALL=C bash"
                  % (shq(fx.dir), shq(cand_dir), version))
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0
    finally:
        if fx is not None and not a.keep:
            fx.cleanup()
        if not a.keep:
            for dirpath, dirnames, _ in os.walk(root):
                for dn in dirnames:
                    p = os.path.join(dirpath, dn)
                    if not os.path.islink(p):
                        os.chmod(p, 0o755)
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
