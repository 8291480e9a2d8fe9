#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""recorded.py: fastwc against what other GNU wc versions printed.

usage: recorded.py FASTWC_BINARY            check every recorded version
       recorded.py --record VERSION --gnu-wc PATH [--only REGEX]
                                            (re)record VERSION from that wc

difftest.py compares with the GNU wc installed here; a machine has one.
What the others print (8.32's missing --debug, 9.12's RFC 3629 decoder, ...)
is recorded once from the real binaries (Debian's coreutils of that release,
run with its own C library) into recorded/VERSION.expected, and checked here
with FASTWC_COMPAT=VERSION, so the behaviour of every version stays tested on
a machine without those binaries.

The commands are recorded/*.txt, in cases/README's syntax (`ID[TAGS]|command`,
TAGS C, U, P for the locale, and fromX.Y, toX.Y for the versions a case is
recorded for, where its output outside them depends on the machine); each runs with bash in an empty temporary
directory, `wc` on PATH being the wc under test, stdin /dev/null. They must
not depend on anything but the wc version: no fixture, no timing, no message
catalogs. A case runs for every version whose .expected file records it.
Exit status: 0 all passed, 1 some failed, 2 bad usage. The last line is
`N passed, M failed`.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED_DIR = os.path.join(HERE, "recorded")
sys.path.insert(0, HERE)
import difftest  # noqa: E402  (the case syntax, runner and diff printer)


VERSION_TAG = re.compile(r"(from|to)(\d+)\.(\d+)$")


def vtuple(version):
    return tuple(int(x) for x in version.split("."))


def load_cases():
    """(case, first, last) per case: cases/README's syntax, plus the tags
    fromX.Y and toX.Y, the versions a case may be recorded for (its output
    depends on the CPU outside them, say)."""
    cases = []
    for name in sorted(os.listdir(RECORDED_DIR)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(RECORDED_DIR, name), encoding="utf-8") as f:
            lines = f.read().splitlines()
        plain = []
        ranges = []
        for line in lines:
            first, last = (0, 0), (999, 0)
            m = re.match(r"([A-Za-z0-9_.+-]+)\[([A-Za-z0-9,.]*)\](\|.*)$", line)
            if m and not line.startswith("#"):
                tags = []
                for t in m.group(2).split(","):
                    v = VERSION_TAG.match(t)
                    if not v:
                        tags.append(t)
                    elif v.group(1) == "from":
                        first = (int(v.group(2)), int(v.group(3)))
                    else:
                        last = (int(v.group(2)), int(v.group(3)))
                line = "%s[%s]%s" % (m.group(1), ",".join(tags), m.group(3))
            plain.append(line)
            ranges.append((first, last))
        with tempfile.NamedTemporaryFile("w", suffix="-" + name, delete=False) as tmp:
            tmp.write("\n".join(plain) + "\n")
        try:
            parsed = difftest.load_case_file(tmp.name)
        finally:
            os.unlink(tmp.name)
        # load_case_file names cases after the file and keeps their order
        # (one per locale tag): map them back to their lines' ranges.
        stem = os.path.splitext(name)[0]
        by_id = {}
        for line, rng in zip(plain, ranges):
            m = re.match(r"([A-Za-z0-9_.+-]+)", line)
            if m and not line.startswith("#") and line.strip():
                by_id[m.group(1)] = rng
        for c in parsed:
            c.cid = stem + "/" + c.cid.split("/", 1)[1]
            first, last = by_id[c.cid.split("/")[1]]
            cases.append((c, first, last))
    ids = [c.cid for c, _, _ in cases]
    if len(ids) != len(set(ids)):
        raise SystemExit("recorded: duplicate case ids")
    return cases


def versions():
    out = []
    for name in os.listdir(RECORDED_DIR):
        m = re.fullmatch(r"(\d+\.\d+)\.expected", name)
        if m:
            out.append(m.group(1))
    return sorted(out, key=vtuple)


def literal(b):
    """A C string literal body for the bytes `b` (difftest.c_unescape reads it)."""
    return "".join({10: "\\n", 9: "\\t", 13: "\\r", 92: "\\\\", 34: '\\"'}.get(
        c, chr(c) if 0x20 <= c < 0x7F else "\\%03o" % c) for c in b)


def run(case, wc, version, timeout=60):
    work = tempfile.mkdtemp(prefix="recorded.")
    try:
        bindir = difftest.make_bindir(work, "bin", wc)
        cwd = os.path.join(work, "cwd")
        os.mkdir(cwd)
        result, _ = difftest.run_side(case, bindir, cwd, difftest.base_env(version), timeout)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def record(version, gnu_wc, only):
    path, found, why = difftest.find_gnu_wc(gnu_wc)
    if not path:
        raise SystemExit("recorded: %s" % why)
    if found != version:
        raise SystemExit("recorded: %s is GNU wc %s, not %s" % (gnu_wc, found, version))
    out_path = os.path.join(RECORDED_DIR, version + ".expected")
    old = difftest.load_expectations(out_path) if os.path.exists(out_path) else {}
    rows = dict((k, v) for k, v in old.items() if only and not re.search(only, k))
    for case, first, last in load_cases():
        if only and not re.search(only, case.cid):
            continue
        if not first <= vtuple(version) <= last:
            continue
        out, err, rc = run(case, path, version)
        if isinstance(rc, str):
            raise SystemExit("recorded: %s: GNU wc %s" % (case.cid, rc))
        rows[case.cid] = (out, err, rc)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# What GNU wc %s printed for recorded/*.txt (ID TAB stdout TAB stderr TAB status);\n"
                "# written by: recorded.py --record %s --gnu-wc PATH\n" % (version, version))
        for cid in sorted(rows):
            o, e, rc = rows[cid]
            f.write('%s\t"%s"\t"%s"\t%d\n' % (cid, literal(o), literal(e), rc))
    print("recorded: %d cases written to %s" % (len(rows), out_path))
    return 0


def check(candidate):
    cases = {c.cid: c for c, _, _ in load_cases()}
    passed = failed = 0
    for version in versions():
        expect = difftest.load_expectations(os.path.join(RECORDED_DIR, version + ".expected"))
        for cid, want in sorted(expect.items()):
            if cid not in cases:
                raise SystemExit("recorded: %s.expected records %s, which no recorded/*.txt has"
                                 % (version, cid))
            got = run(cases[cid], candidate, version)
            if got == want:
                passed += 1
                continue
            failed += 1
            print("FAIL %s under GNU wc %s   [%s]" % (cid, version, difftest.env_text(cases[cid])))
            print("  $ " + cases[cid].cmd)
            print("\n".join(difftest.describe("GNU wc " + version, "candidate", want, got)))
    print("recorded: versions %s" % " ".join(versions()))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("candidate", nargs="?", help="the wc under test (fastwc)")
    ap.add_argument("--record", metavar="VERSION", help="record VERSION's outputs from --gnu-wc")
    ap.add_argument("--gnu-wc", metavar="PATH", help="the GNU wc to record from")
    ap.add_argument("--only", metavar="REGEX", help="with --record: only the cases matching REGEX")
    a = ap.parse_args()
    if a.record:
        if not a.gnu_wc:
            ap.error("--record needs --gnu-wc")
        return record(a.record, a.gnu_wc, a.only)
    if not a.candidate:
        ap.error("the candidate is missing")
    return check(os.path.abspath(a.candidate))


if __name__ == "__main__":
    sys.exit(main())
