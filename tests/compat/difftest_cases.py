# SPDX-License-Identifier: GPL-3.0-or-later
"""The cases of the differential test: the hand-written ones of cases/*.txt,
the generated ones (every option combination over every input class, named
files, standard input, pipes, names that need quoting, argv[0] variants),
and the locales they run under."""
import itertools
import os
import re

from difftest_inputs import INVALID, SCRIPTS, SPLIT_TOKENS

CASES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

LOCALES = {
    "C": {"LC_ALL": "C"},
    "U": {"LC_ALL": "C.UTF-8"},
    "P": {"LC_ALL": "C.UTF-8", "POSIXLY_CORRECT": "1"},
}
# Multibyte locales other than UTF-8, compiled for the run by
# ../locales/compile_locale.sh (into $FASTWC_TEST_LOCALE_DIR when set, else
# into the fixture) and found through LOCPATH; a case whose locale cannot be
# compiled is left out with a note.
COMPILED_LOCALES = {
    "SJIS": "ja_JP.SJIS", "GBK": "zh_CN.GBK", "GB": "zh_CN.GB18030", "BIG": "zh_TW.BIG5",
    "HKSCS": "zh_HK.BIG5-HKSCS", "EUCX": "ja_JP.EUC-JISX0213", "SJISX": "ja_JP.SHIFT_JISX0213",
    "TCVN": "vi_VN.TCVN",
}
LOCALES.update({tag: {"LC_ALL": name} for tag, name in COMPILED_LOCALES.items()})
# Options whose output is fastwc's own: a command naming one is not compared
# (unless its case carries the tag `force`). Every unique abbreviation counts.
OWN_OUTPUT_RE = re.compile(
    r"(?<![\w-])--(?:d(?:e(?:b(?:ug?)?)?)?|h(?:e(?:lp?)?)?|v(?:e(?:r(?:s(?:i(?:on?)?)?)?)?)?)(?![\w-])")


class Case:
    """One command line. `volatile`: GNU wc 9.5+ may give different results for
    it from run to run, because its word count depends on where its reads
    happen to end (a pipe whose chunks depend on timing)."""
    __slots__ = ("cid", "cmd", "env", "force", "expect", "cost", "volatile")

    def __init__(self, cid, cmd, env=None, force=False, expect=None, cost=1, volatile=False):
        self.cid, self.cmd, self.env, self.force, self.expect = cid, cmd, env or {}, force, expect
        self.cost, self.volatile = cost, volatile

    @property
    def compared(self):
        return self.force or not OWN_OUTPUT_RE.search(self.cmd)


def shq(b):
    """A bash word for the byte string `b`."""
    if isinstance(b, str):
        b = b.encode()
    if b and re.fullmatch(rb"[A-Za-z0-9_./:=,+@%-]+", b):
        return b.decode()
    if re.fullmatch(rb"[ -~]*", b) and b"'" not in b:
        return "'" + b.decode() + "'"
    return "$'" + "".join(chr(c) if 0x20 <= c < 0x7F and c not in b"'\\" else "\\%03o" % c for c in b) + "'"


def c_unescape(s):
    """Decode a C string literal body as the .expected files write it (\\n, \\t, \\\\, \\", \\ooo)."""
    out, i = bytearray(), 0
    raw = s.encode("utf-8")
    while i < len(raw):
        c = raw[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        n = raw[i + 1:i + 2]
        simple = {b"n": 10, b"t": 9, b"r": 13, b"\\": 92, b'"': 34, b"'": 39, b"a": 7, b"b": 8,
                  b"f": 12, b"v": 11}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n.isdigit():
            m = re.match(rb"[0-7]{1,3}", raw[i + 1:])
            out.append(int(m.group(0), 8))
            i += 1 + len(m.group(0))
        else:
            raise ValueError("bad escape in %r" % s)
    return bytes(out)


def load_case_file(path):
    """`ID|command` or `ID[TAGS]|command`; TAGS: C, U, P (locales to run in,
    default C) and `force` (compare even though --help/--version/--debug appear)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    cases = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"([A-Za-z0-9_.+-]+)(?:\[([A-Za-z,]*)\])?\|(.*)$", line)
            if not m:
                raise SystemExit("difftest: %s:%d: expected 'ID|command'" % (path, lineno))
            cid, tags, cmd = m.groups()
            tags = [t for t in (tags or "").split(",") if t]
            force = "force" in tags
            volatile = "volatile" in tags
            locs = [t for t in tags if t in LOCALES] or ["C"]
            for t in tags:
                if t not in LOCALES and t not in ("force", "volatile"):
                    raise SystemExit("difftest: %s:%d: unknown tag %r" % (path, lineno, t))
            for loc in locs:
                suffix = "" if len(locs) == 1 and loc == "C" else "/" + loc
                cases.append(Case("%s/%s%s" % (stem, cid, suffix), cmd, LOCALES[loc], force, volatile=volatile))
    return cases


def load_expectations(path):
    exp = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cid, out, err, rc = line.split("\t")
            exp[cid] = (c_unescape(out[1:-1]), c_unescape(err[1:-1]), int(rc))
    return exp


ALL_OPTS = [""] + ["-" + "".join(c) for r in range(1, 6) for c in itertools.combinations("lwmcL", r)]
CORE_OPTS = ["", "-l", "-w", "-m", "-c", "-L", "-lwmcL", "-lc", "-cm", "-wm", "-lL"]
QUICK_OPTS = ["", "-l", "-w", "-m", "-c", "-L", "-lwmcL", "-cm"]
# Quick mode (the sanitizer builds' run) starts one wc a file only for these:
# a sanitized fastwc takes 0.1-0.3 s to start and exit, and those loops took
# two thirds of the run; the other option sets still run on every input in
# the cases that name the files on one command line or concatenate them.
QUICK_LOOP_OPTS = ["", "-c", "-m", "-lwmcL"]


def generated_cases(fx, quick, asuser, version):
    cases = []

    # 9.5+ counts words differently when a read ends inside a character: give
    # the reader time to take each piece of a slow pipe on its own.
    nap = "0.05" if tuple(int(x) for x in version.split(".")) >= (9, 5) else "0.01"

    def add(cid, cmd, loc="C", env=None, cost=1, force=False, volatile=False):
        e = dict(LOCALES[loc])
        e.update(env or {})
        cases.append(Case(cid, cmd, e, force=force, cost=cost, volatile=volatile))

    all_opts = QUICK_OPTS if quick else ALL_OPTS
    core = QUICK_OPTS if quick else CORE_OPTS
    small = fx.grid + fx.cps + fx.bad
    grid = " ".join(fx.grid)
    gridbad = " ".join(fx.grid + fx.bad)
    large = " ".join(fx.large)
    edges = " ".join(fx.edges)

    def each(files, o, via):
        """One wc per file: named (width rule of a single input), from a
        redirected stdin, or from a pipe; each line labelled with the file."""
        if via == "named":
            return "for f in %s; do wc %s $f; done" % (files, o)
        feed = "wc %s < $f" % o if via == "stdin" else "cat $f | wc %s" % o
        return "for f in %s; do printf '%%s: ' $f; %s; done" % (files, feed)

    # 1. Counting: every class of input, every option set, each input path.
    for loc in "CUP":
        opts = all_opts if loc != "P" else ["", "-w", "-wL", "-lwmcL"]
        for o in opts:
            tag = "%s/%s" % (loc, o or "default")
            add("count-files/" + tag, "wc %s %s" % (o, " ".join(small)), loc)
            add("large-files/" + tag, "wc %s %s" % (o, large), loc, cost=20)
        for o in (core if loc != "P" else ["-lwmcL"]):
            tag = "%s/%s" % (loc, o or "default")
            looped = not quick or o in QUICK_LOOP_OPTS
            if looped:
                add("count-stdin/" + tag, each(gridbad, o, "stdin"), loc, cost=5)
                add("count-pipe/" + tag, each(grid, o, "pipe"), loc, cost=5)
            add("count-concat/" + tag, "cat %s | wc %s" % (" ".join(small), o), loc, volatile=True)
            if looped:
                add("large-one/" + tag, each(large, o, "named"), loc, cost=20)
                add("large-stdin/" + tag, each(large, o, "stdin"), loc, cost=20)
                add("large-pipe/" + tag, each(large, o, "pipe"), loc, cost=20, volatile=True)
            add("edge-files/" + tag, "wc %s %s" % (o, edges), loc, cost=20)
            if o in ("-lwmcL", "-m", "-w", "-L", ""):
                if looped:
                    add("edge-stdin/" + tag, each(edges, o, "stdin"), loc, cost=20)
                    add("edge-pipe/" + tag, each(edges, o, "pipe"), loc, cost=20, volatile=True)
                pieces = "{ for p in %s; do cat $p; sleep %s; done; }" % (" ".join(fx.pieces), nap)
                add("pieces-pipe/" + tag, "%s | wc %s" % (pieces, o), loc, cost=3, volatile=True)
    fuzz = " ".join(fx.fuzz)
    for loc in "CUP":
        for o in (core if loc != "P" else ["-w", "-lwmcL"]):
            tag = "%s/%s" % (loc, o or "default")
            add("fuzz-files/" + tag, "wc %s %s" % (o, fuzz), loc)
            add("fuzz-concat/" + tag, "cat %s | wc %s" % (fuzz, o), loc, volatile=True)
            add("bigtext/files/" + tag, "wc %s t_huge f1" % o, loc, cost=50)
            if o in ("-lwmcL", "", "-c", "-m", "-l"):
                add("bigtext/stdin/" + tag, "wc %s < t_huge" % o, loc, cost=50)
                add("bigtext/pipe/" + tag, "cat t_huge | wc %s" % o, loc, cost=50, volatile=True)
    for loc in "CUP":
        for o in ("-lwmcL", "-w", "-L", "-m"):
            add("cpscan/%s/%s" % (loc, o), "wc %s %s" % (o, " ".join(fx.cpscan)), loc, cost=10)
    # 2. Slow pipes: every split of each token lands in a separate write.
    for name, tok in SPLIT_TOKENS + [("invalid_" + t, s) for t, s in INVALID if len(s) > 1][:0 if quick else 99]:
        parts = []
        for s in range(1, len(tok)):
            first, rest = shq(b"ab " + tok[:s]), shq(tok[s:] + b" cd\n")
            parts.append("printf %%s %s; sleep %s; printf %%s %s" % (first, nap, rest))
        if not parts:
            continue
        stream = "{ %s; }" % "; ".join(parts)
        for loc in ("C", "U") if not quick else ("U",):
            for o in ("-lwmcL", "-m", "-w", "-L"):
                add("slow-pipe/%s/%s/%s" % (loc, name, o), "%s | wc %s" % (stream, o), loc, cost=2, volatile=True)
        add("slow-pipe/P/%s/-w" % name, "%s | wc -w" % stream, "P", cost=2, volatile=True)
    # One byte per write, through a long multilingual line.
    text = "".join(SCRIPTS[:8]).encode()[:120] + b"\n"
    bytewise = "for b in %s; do printf \"$b\"; sleep 0.002; done" % " ".join("'\\%03o'" % c for c in text)
    for loc in ("C", "U"):
        add("slow-pipe/%s/bytewise" % loc, "{ %s; } | wc -lwmcL" % bytewise, loc, cost=3, volatile=True)
    # 3. Names that need quoting, in the count line and in diagnostics.
    for loc in ("C", "U"):
        allnames = " ".join(shq(n) for n in fx.names)
        missing = " ".join(shq(n + b".no") for n in fx.names)
        add("names/%s/all" % loc, "wc -l -- %s" % allnames, loc)
        add("names/%s/all-missing" % loc, "wc -l -- %s" % missing, loc)
        add("names/%s/all-merged" % loc, "wc -- %s %s 2>&1" % (allnames, missing), loc)
        add("names/%s/dirs" % loc, "wc d:ir 'd ir' dir", loc)
        if not quick:
            for i, n in enumerate(fx.names):
                add("names/%s/%02d" % (loc, i), "wc -- %s" % shq(n), loc)
                add("names/%s/%02d-missing" % (loc, i), "wc -c -- %s" % shq(n + b".no"), loc)
                add("names/%s/%02d-files0" % (loc, i),
                    "printf '%%s\\0' %s | wc -l --files0-from=-" % shq(n + b".no"), loc)
        add("names/%s/files0" % loc, "wc --files0-from=list_names", loc)
        add("names/%s/files0-stream" % loc, "cat list_names | wc -l --files0-from=-", loc)
        for n in (b"my list", b"list\nnl", b"co:lon", b"\xc3\xa9t\xc3\xa9.no", b"bad\xffbyte.no", b""):
            add("names/%s/list-name-%s" % (loc, shq(n)), "wc --files0-from=%s" % shq(n), loc)
    # 4. argv[0]: messages must use it verbatim (and as gnulib trims it).
    argv0s = ["wc", "/abs/path/to/wc", "./wc", "wc2", "my wc", "w:c", "w'c", "w\nc", "", "/x/.libs/lt-wc",
              "lt-wc", "\xe9wc", "-wc"]
    invocations = [("nosuch", ""), ("-x", ""), ("--bogus", ""), ("--lines=1 f1", ""), ("dir f1", ""),
                   ("''", ""), ("--files0-from=nosuch", ""), ("--files0-from=listbad", ""),
                   ("--files0-from=list2 f1", ""), ("--files0-from", ""), ("f1", " > /dev/full"),
                   ("", " <&-"), ("f1", " >&-"), ("--total=only f1", ""), ("--total=bad f1", ""),
                   ("--files0-from=-", " < listdash"), ("--files0-from=dir", "")]
    if quick:
        argv0s, invocations = argv0s[:4] + ["/x/.libs/lt-wc"], invocations[:6] + invocations[10:12]
    for a0 in argv0s:
        for i, (args, redir) in enumerate(invocations):
            add("argv0/%s/%d" % (shq(a0), i), "(exec -a %s wc %s)%s" % (shq(a0), args, redir))
    # 5. Permission denied (as an unprivileged user when run as root).
    if asuser is not None:
        for cid, cmd in [("file", "wc unread f1"), ("file-c", "wc -c unread f1"), ("single", "wc -l unread"),
                         ("single-c", "wc -c unread"), ("dir", "wc unreaddir f1"), ("nox", "wc noxdir/inner f1"),
                         ("nox-c", "wc -c noxdir/inner big"), ("list", "wc --files0-from=unread"),
                         ("list-entry", "wc --files0-from=list_unread"), ("stdin", "wc < /dev/null unread"),
                         ("merged", "wc f1 unread f2 2>&1"), ("noxlist", "wc --files0-from=noxdir/inner")]:
            add("perm/" + cid, "%s %s" % (asuser, cmd) if asuser else cmd)
    # 6. Sums that do not fit in 64 bits (tmpfs only).
    if fx.huge:
        for cid, cmd in [("one-c", "wc -c huge1"), ("one-m", "wc -m huge1"), ("stdin-c", "wc -c < huge1"),
                         ("sum4-c", "wc -c huge1 huge2 huge3 huge4"), ("sum4-cm", "wc -cm huge1 huge2 huge3 huge4"),
                         ("sum4-f1", "wc -c huge1 huge2 huge3 huge4 f1"), ("sum2", "wc -c huge1 f1 huge2"),
                         ("files0", "wc -c --files0-from=list_huge"),
                         ("files0-stream", "cat list_huge | wc -c --files0-from=-"),
                         ("offset", "(dd bs=5 skip=1 count=0 status=none; wc -c) < huge1"),
                         ("total-only", "wc -c --total=only huge1 huge2 huge3 huge4"),
                         ("total-always", "wc -c --total=always huge1")]:
            add("huge/" + cid, cmd)
    # 7. --files0-from lists around the 10 MiB limit (read whole vs streamed).
    if not quick:
        for lst in ("list_10m", "list_10m1"):
            add("files0-10m/%s" % lst, "wc -c --files0-from=%s | cksum; echo \"${PIPESTATUS[0]}\"; "
                "wc -c --files0-from=%s | tail -n 2 | cut -c1-30" % (lst, lst), cost=10)
    return cases


def all_cases(fx, quick, asuser, version):
    cases = []
    exp_file = os.path.join(CASES_DIR, "checklist-9.1.expected")
    expect = load_expectations(exp_file) if version == "9.1" else {}
    for name in sorted(os.listdir(CASES_DIR)):
        if name.endswith(".txt"):
            for c in load_case_file(os.path.join(CASES_DIR, name)):
                key = c.cid.split("/", 1)[1]
                if name == "checklist.txt" and key in expect:
                    c.expect = expect[key]
                cases.append(c)
    cases += generated_cases(fx, quick, asuser, version)
    seen = set()
    for c in cases:
        if c.cid in seen:
            raise SystemExit("difftest: duplicate case id %s" % c.cid)
        seen.add(c.cid)
    return cases

# ======================================================================= running
