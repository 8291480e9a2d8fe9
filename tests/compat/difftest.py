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
`ID[TAGS]|command` per line, see cases/README) and from generators below
(inputs in every class the spec distinguishes, every option combination,
named files, stdin redirects, pipes, pipes that split characters, names that
need quoting, argv[0] variants, permission errors). When the system wc is
9.1, the expected strings of the spec's checklist (cases/checklist-9.1.expected)
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
COMPILE_LOCALE = os.path.join(os.path.dirname(HERE), "locales", "compile_locale.sh")
# Options whose output is fastwc's own: a command naming one is not compared
# (unless its case carries the tag `force`). Every unique abbreviation counts.
OWN_OUTPUT_RE = re.compile(
    r"(?<![\w-])--(?:d(?:e(?:b(?:ug?)?)?)?|h(?:e(?:lp?)?)?|v(?:e(?:r(?:s(?:i(?:on?)?)?)?)?)?)(?![\w-])")

# ======================================================================== inputs


def enc(cp):
    """UTF-8 bytes of a code point (surrogates included, for invalid input)."""
    return chr(cp).encode("utf-8", "surrogatepass")


# Code points of every class GNU wc tells apart (separator, printable, zero
# width, wide, control, unassigned, noncharacter, ...), plus some assigned only
# in recent Unicode versions, where glibc's tables (and so the oracle) decide.
CODEPOINTS = [
    0x0000, 0x0001, 0x0008, 0x000B, 0x000C, 0x000D, 0x001B, 0x007F,
    0x0080, 0x0085, 0x009F, 0x00A0, 0x00AD, 0x00DF, 0x00E9, 0x0300, 0x0301,
    0x034F, 0x0378, 0x0416, 0x05D0, 0x061C, 0x0627, 0x0E01, 0x115F, 0x1160,
    0x1680, 0x180E, 0x2000, 0x2003, 0x2006, 0x2007, 0x2008, 0x200A, 0x200B,
    0x200C, 0x200D, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x2066, 0x20DD,
    0x2FFC, 0x3000, 0x3042, 0x4E2D, 0xAC00, 0xD7A3, 0xE000, 0xF8FF, 0xFDD0,
    0xFE0F, 0xFEFF, 0xFF21, 0xFF61, 0xFFFD, 0xFFFE, 0xFFFF, 0x10348, 0x1CC00,
    0x1D11E, 0x1F1FA, 0x1F3FB, 0x1F468, 0x1F600, 0x1F9D1, 0x1FAE8, 0x1FFFE,
    0x20000, 0x31350, 0xE0001, 0xE0020, 0xE0100, 0xF0000, 0x10FFFD, 0x10FFFF,
]

# Invalid UTF-8, one entry per class.
INVALID = [
    ("cont80", b"\x80"), ("contbf", b"\xbf"), ("cont2", b"\x80\x80"),
    ("c0", b"\xc0\x80"), ("c1", b"\xc1\xbf"), ("e0over", b"\xe0\x80\x80"),
    ("e09f", b"\xe0\x9f\xbf"), ("f0over", b"\xf0\x80\x80\x80"), ("f08f", b"\xf0\x8f\xbf\xbf"),
    ("f8over", b"\xf8\x80\x80\x80\x80"), ("fcover", b"\xfc\x80\x80\x80\x80\x80"),
    ("surr_d800", b"\xed\xa0\x80"), ("surr_dbff", b"\xed\xaf\xbf"), ("surr_dc00", b"\xed\xb0\x80"),
    ("surr_dfff", b"\xed\xbf\xbf"), ("fe", b"\xfe"), ("ff", b"\xff"), ("fefeffff", b"\xfe\xfe\xff\xff"),
    ("five", b"\xf8\x88\x80\x80\x80"), ("five_max", b"\xfb\xbf\xbf\xbf\xbf"),
    ("six", b"\xfc\x84\x80\x80\x80\x80"), ("six_max", b"\xfd\xbf\xbf\xbf\xbf\xbf"),
    ("beyond", b"\xf4\x90\x80\x80"), ("f5", b"\xf5\x80\x80\x80"), ("f7", b"\xf7\xbf\xbf\xbf"),
    ("lead_ascii", b"\xe4\xb8a"), ("lead_lead", b"\xe4\xe4\xb8\xad"), ("lead_2byte", b"\xe4\xc3\xa9"),
    ("c3_space", b"\xc3 "), ("e0_80_a", b"\xe0\x80a"), ("ed_a0_a", b"\xed\xa0a"),
    ("f0_9f_nl", b"\xf0\x9f\n"),
]
# Sequences cut by the end of the input (each ends a file).
TRUNCATED = [("c3", b"\xc3"), ("e4b8", b"\xe4\xb8"), ("f09f98", b"\xf0\x9f\x98"),
             ("f8x4", b"\xf8\x88\x80\x80"), ("fcx5", b"\xfc\x84\x80\x80\x80"),
             ("e080", b"\xe0\x80"), ("eda0", b"\xed\xa0")]

# The spec's example grid (section 1.6) and checklist inputs.
GRID = {
    "empty": b"", "a": b"a", "a_nl": b"a\n", "nl2": b"\n\n", "spaces": b" a  b \n",
    "tab": b"a\tb", "cr": b"a\rb", "ff": b"a\fb", "vt": b"a\vb", "ctl": b"a\x01b",
    "ctl_alone": b"a \x01 b", "ctl_only": b"\x01", "nul": b"a\x00b", "nul_words": b"a\x00b \x00",
    "del": b"\x7f", "byte_ff_sp": b"a \xff b", "byte_ff": b"a\xffb", "e_acute": b"\xc3\xa9",
    "nbsp": b"a\xc2\xa0b", "figsp": b"a\xe2\x80\x87b", "nnbsp": b"a\xe2\x80\xafb",
    "wj": b"a\xe2\x81\xa0b", "emsp": b"a\xe2\x80\x83b", "ideosp": b"a\xe3\x80\x80b",
    "ogham": b"a\xe1\x9a\x80b", "zwsp": b"a\xe2\x80\x8bb", "lsep": b"a\xe2\x80\xa8b",
    "nel": b"a\xc2\x85b", "bom": b"a\xef\xbb\xbfb", "cjk": b"\xe4\xb8\xad\xe6\x96\x87",
    "emoji": b"\xf0\x9f\x98\x80", "comb": b"e\xcc\x81", "comb_alone": b"\xcc\x81",
    "shy": b"\xc2\xad", "nonchar": b"\xef\xbf\xbf", "unassigned": b"\xcd\xb8",
    "trunc": b"\xe4\xb8", "trunc_after": b"a \xe4\xb8", "trunc_ascii": b"\xe4\xb8a",
    "overlong": b"\xc0\x80", "surrogate": b"\xed\xa0\x80", "beyond": b"\xf4\x90\x80\x80",
    "five": b"\xf8\x88\x80\x80\x80", "six": b"\xfd\xbf\xbf\xbf\xbf\xbf",
    "tabs8": b"12345678\t|", "tab_at8": b"abcdefgh\tx", "tabs_many": b"\t\ta\t\tb\n",
    "crlen": b"abcdef\rab\n", "bs": b"abc\bd", "lastline": b"ab\ncdefg", "mix": b"x\x00y\x01z\x7f",
    "no_nl": b"no newline", "two_lines": b"one\ntwo", "crlf": b"a b\r\nc d\r\n",
    "vt_ff_only": b"\v\f\r\t \n", "flags": b"\xf0\x9f\x87\xba\xf0\x9f\x87\xb8",
    "zwj_family": b"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", "wide_tab": b"\xe4\xb8\xad\t|",
    "sp_nl_mix": b"  \n \n\n   x", "nl_only": b"\n",
}

ASCII_WORD = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?'\"()-_/@#%&*+=<>[]{}|~^`$\\"
SEPARATORS = [b" "] * 8 + [b"\n"] * 4 + [b"\t", b"  ", b"\r\n", b"\r", b"\f", b"\v", b" \n", b"\t\t"]
SCRIPTS = [
    "naïve café crème brûlée", "Grüße aus Köln", "Ελληνικά κείμενα", "русский текст", "українська",
    "עברית טקסט", "العربية نص", "हिन्दी पाठ", "ภาษาไทย", "中文字符测试", "日本語のテキスト", "한국어 텍스트",
    "😀 👍🏽 👨‍👩‍👧 🇺🇸🇫🇷", "e\u0301 a\u0308 n\u0303", "Z\u0324\u0354\u0367\u0311\u0313a\u0316\u0308l",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛", "ｆｕｌｌｗｉｄｔｈ　ＡＢＣ", "ﾊﾝｶｸ ｶﾀｶﾅ", "Ꭰ Ꭱ Ꭲ ᚠᚢᚦ", "ℌ℮ℓℓø ™ ©",
    "tab\tsep\u00a0nbsp\u2007fig\u202fnarrow\u2060wj", "\u3000ideo\u3000space", "soft\u00adhyphen",
    "zero\u200bwidth\u200cjoin\u200d", "bom\ufeffmid", "line\u2028sep\u2029par", "nel\u0085c1",
]


def _interleave(rng, n, fillers, fill_weights, seps, sep_weights):
    out, total = [], 0
    while total < n:
        k = max(16, (n - total) // 4)
        for w, sep in zip(rng.choices(fillers, fill_weights, k=k), rng.choices(seps, sep_weights, k=k)):
            out += (w, sep)
            total += len(w) + len(sep)
    return b"".join(out)[:n]


def gen_ascii(rng, n, ctrl_rate=0.01):
    """Printable ASCII words between separators (space, tab, CR, LF, FF, VT),
    with the odd control byte."""
    vocab = [bytes(rng.choices(ASCII_WORD, k=rng.randint(1, 12))) for _ in range(400)]
    ctrl = [bytes([c]) for c in (0, 1, 8, 0x1B, 0x7F, 0x0B, 0x0C)]
    seps = SEPARATORS + [sep + c for sep in (b" ", b"") for c in ctrl]
    weights = [1.0] * len(SEPARATORS) + [ctrl_rate * len(SEPARATORS) / len(ctrl) / 2] * (2 * len(ctrl))
    return _interleave(rng, n, vocab, None, seps, weights)


def gen_utf8(rng, n, invalid_rate=0.005):
    """Multilingual UTF-8: ASCII words, real text in many scripts, the tricky
    code points, and (at invalid_rate) invalid sequences."""
    ascii_words = [bytes(rng.choices(ASCII_WORD, k=rng.randint(1, 8))) for _ in range(200)]
    scripts = [s.encode() for s in SCRIPTS]
    cps = [b"".join(enc(c) for c in rng.choices(CODEPOINTS, k=rng.randint(1, 3))) for _ in range(300)]
    bad = [seq for _, seq in INVALID]
    fillers = ascii_words + scripts + cps + bad
    weights = ([0.35 / len(ascii_words)] * len(ascii_words) + [0.2 / len(scripts)] * len(scripts)
               + [0.2 / len(cps)] * len(cps) + [invalid_rate / len(bad)] * len(bad))
    return _interleave(rng, n, fillers, weights, SEPARATORS + [b""], [1.0] * len(SEPARATORS) + [6.0])


def gen_ctrl(rng, n):
    out = bytearray()
    while len(out) < n:
        out += rng.choice([b"\t", b"\r", b"\f", b"\v", b"\b", b"\n", b" ", b"\r\n", b"\t\t\t"])
        out += bytes(rng.choice(ASCII_WORD) for _ in range(rng.randint(0, 20)))
    return bytes(out[:n])


def gen_nul(rng, n):
    out = bytearray()
    while len(out) < n:
        out += rng.choice([b"\0", b"\0\0\0", b"a\0b", b" \0 ", b"\n\0", b"word", b"\0\n", b"\xe4\xb8\xad\0"])
    return bytes(out[:n])


def gen_long_line(rng, n, newline_every=None):
    unit = b"word\tx " + enc(0x4E2D) + b"e" + enc(0x0301) + b"\x01 " + enc(0x1F600) + b"abc"
    data = bytearray((unit * (n // len(unit) + 1))[:n])
    if newline_every:
        for pos in range(newline_every, n, newline_every):
            data[pos] = 0x0A
    return bytes(data)


# Tokens that must survive being split by a buffer or pipe-write boundary.
SPLIT_TOKENS = [
    ("emoji", enc(0x1F600)), ("cjk", enc(0x4E2D)), ("eacute", enc(0x00E9)), ("nbsp", enc(0x00A0)),
    ("ideosp", enc(0x3000)), ("lsep", enc(0x2028)), ("zwsp", enc(0x200B)), ("comb", b"e" + enc(0x0301)),
    ("five", b"\xf8\x88\x80\x80\x80"), ("six", b"\xfd\xbf\xbf\xbf\xbf\xbf"), ("beyond", b"\xf4\x90\x80\x80"),
    ("overlong", b"\xe0\x80\x80"), ("surrogate", b"\xed\xa0\x80"), ("trunc", b"\xe4\xb8a"),
    ("crlf", b"\r\n"), ("leadlead", b"\xe4\xe4\xb8\xad"), ("nel", enc(0x0085)), ("tabword", b"a\tb"),
]


def place_tokens(data, step, combos, rng):
    """Put combos[k % len] across the k-th multiple of `step` (k >= 1), so that
    the boundary falls `shift` bytes into the token, between letters or spaces.
    At multiples of 16 steps (64 KiB, 256 KiB, ...) a letter comes before and a
    space after: GNU wc 9.5+ counts an extra word when a white-space character
    cut by a read boundary is followed by white space, and that must show."""
    data = bytearray(data)
    contexts = [(b"x", b"y"), (b" ", b" "), (b"x", b" "), (b" ", b"y")]
    for k, pos in enumerate(range(step, len(data) - 16, step), start=1):
        tok, shift = combos[k % len(combos)]
        before, after = (b"x", b" ") if k % 16 == 0 else contexts[k % 4]
        piece = before + tok + after
        start = pos - shift - 1
        data[start:start + len(piece)] = piece
    return bytes(data)


def split_combos(quick):
    combos = []
    for _, tok in SPLIT_TOKENS:
        shifts = range(1, len(tok)) if len(tok) > 1 else [0]
        if quick:
            shifts = [max(1, len(tok) // 2)] if len(tok) > 1 else [0]
        combos += [(tok, s) for s in shifts]
    return combos


class Fixture:
    """The directory every case runs in, and the names the generators use."""

    def __init__(self, root, rng, quick):
        self.dir = os.path.join(root, "fixture")
        self.grid, self.cps, self.bad, self.large, self.edges, self.names = [], [], [], [], [], []
        self.huge, self.pieces, self.fuzz, self.cpscan = [], [], [], []
        self.quick = quick
        os.mkdir(self.dir)
        os.chmod(root, 0o755)
        os.chmod(self.dir, 0o755)
        self.shm = None
        self._spec(rng)
        self._generated(rng)
        self._names()
        self._lists()
        self._special()

    def put(self, name, data, mode=None):
        path = os.path.join(os.fsencode(self.dir), name if isinstance(name, bytes) else name.encode())
        with open(path, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(path, mode)

    def _spec(self, rng):
        # The spec's checklist fixture (section 8), exactly.
        self.put("f1", b"hello world\n")
        self.put("f2", b"a\nb\nc\n")
        self.put("big", b"x" * 123456)
        self.put("empty", b"")
        os.mkdir(os.path.join(self.dir, "dir"))
        self.put("list2", b"f1\0f2\0")
        self.put("listbad", b"f1\0\0f2\0")
        self.put("listdash", b"f1\0-\0")
        self.put("z8192", b"\0" * 8192)
        self.put(b"nl\nname", b"x\n")

    def _generated(self, rng):
        q = self.quick
        for name, data in GRID.items():
            self.put("g_" + name, data)
            self.grid.append("g_" + name)
        for cp in CODEPOINTS:
            e = enc(cp)
            name = "cp_%04X" % cp
            self.put(name, b"a" + e + b"b\n" + e + b"\n " + e + b" x" + e + e + b"y\t" + e + b"|\n" + e)
            self.cps.append(name)
        for tag, seq in INVALID:
            self.put("bad_" + tag, b"a" + seq + b"b\n" + seq + b"\n " + seq + b" x" + seq + seq + b"y\t" + seq + b"|\n")
            self.bad.append("bad_" + tag)
        for tag, seq in TRUNCATED:
            self.put("eof_" + tag, b"a b\n" + seq)
            self.put("eofw_" + tag, b"ab" + seq)
            self.bad += ["eof_" + tag, "eofw_" + tag]
        big = 192 << 10 if q else 320 << 10
        large = {
            "t_ascii": gen_ascii(rng, big),
            "t_utf8": gen_utf8(rng, big),
            "t_invalid": gen_utf8(rng, 64 << 10, invalid_rate=0.2),
            "t_nul": gen_nul(rng, 40 << 10),
            "t_binary": rng.randbytes((256 << 10) + 77),
            "t_ctrl": gen_ctrl(rng, 40 << 10),
            "t_long": gen_long_line(rng, (1 << 20) + (50 << 10 if q else 500 << 10)),
            "t_longlines": b"short\n" + gen_long_line(rng, (1 << 20) + 4321) + b"\n\t\t\n"
                           + gen_long_line(rng, (1 << 20) + 99, newline_every=None if q else 700001)
                           + b"\r" + b"y" * 5000 + b"\n",
            "t_manylines": gen_long_line(rng, 300 << 10, newline_every=37),
            "pg_4095": gen_ascii(rng, 4095), "pg_4096": gen_ascii(rng, 4096),
            "pg_4097": gen_ascii(rng, 4097), "pg_8192u": gen_utf8(rng, 8192),
            "pg_12288": gen_ascii(rng, 12288), "pg_16384u": gen_utf8(rng, 16384),
            "pg_65536": gen_ascii(rng, 65536), "pg_262144u": gen_utf8(rng, 262144),
        }
        combos = split_combos(q)
        # Small random inputs over every token class, for many-operand runs.
        tokens = ([bytes([c]) for c in ASCII_WORD[:20]] + SEPARATORS + [b"\0", b"\x01", b"\x7f", b"\x1b", b"\x08"]
                  + [enc(cp) for cp in CODEPOINTS] + [seq for _, seq in INVALID] + [tok for _, tok in SPLIT_TOKENS])
        for i in range(120 if q else 300):
            data = b"".join(rng.choice(tokens) for _ in range(rng.randint(0, 60)))
            if rng.random() < 0.2:
                data += rng.choice(TRUNCATED)[1]
            self.put("fz_%03d" % i, data)
            self.fuzz.append("fz_%03d" % i)
        large["st_cycle"] = place_tokens(gen_ascii(rng, (640 << 10) if q else (3 << 20) + 1234, 0.0),
                                         4096, combos, rng)
        for name, data in large.items():
            self.put(name, data)
        self.large = sorted(large)
        # A file large enough for any parallel or chunked counting path: all of
        # the above again and again, with split tokens at every 4 KiB multiple.
        parts, total, target = [], 0, (6 << 20) if q else (40 << 20) + 4321
        blobs = [large[n] for n in ("t_utf8", "st_cycle", "t_ascii", "t_invalid", "t_nul", "t_ctrl",
                                    "t_longlines", "t_binary", "t_manylines")]
        while total < target:
            blob = blobs[len(parts) % len(blobs)]
            cut = rng.randrange(len(blob))
            parts.append(blob[cut:] + blob[:cut])
            total += len(blob)
        self.put("t_huge", place_tokens(b"".join(parts)[:target], 4096, combos, rng))
        # One file per (token, split): the token straddles every multiple of
        # 4096 up to 256 KiB and beyond at the same split, so any power-of-two
        # buffer of 4 KiB..256 KiB (and a pipe's 64 KiB) cuts it there.
        size = (16384 + 4096 + 111) if q else (262144 + 8192 + 111)
        texts = [gen_ascii(rng, size, 0.0) for _ in range(3)]
        for i, (tok, shift) in enumerate(combos):
            if len(tok) < 2:
                continue
            name = "edge_%02d_%d" % (i, shift)
            self.put(name, place_tokens(texts[i % 3], 4096, [(tok, shift)], rng))
            self.edges.append(name)
        # Every code point but the surrogates, 1024 to a file: line 1 holds them
        # all (so -L is the sum of their widths), line 2 puts each after an
        # `a` (so -w counts the separators among them).
        step = 4096 if q else 1024
        for lo in range(0, 0x110000, step):
            cps = [cp for cp in range(lo, lo + step) if not 0xD800 <= cp <= 0xDFFF]
            if not cps:
                continue
            line1 = "".join(chr(cp) for cp in cps if cp not in (0x0A, 0x0C, 0x0D)).encode()
            line2 = "".join("a" + chr(cp) for cp in cps).encode()
            name = "cpscan_%06X" % lo
            self.put(name, line1 + b"\n" + line2 + b"\n")
            self.cpscan.append(name)
        # Pieces of t_utf8 cut at awkward offsets, for multi-write pipes.
        u = large["t_utf8"]
        cuts = [0, 4097, 4098, 16383, 16386, 65535, 65537, 131073, 180001, len(u)]
        for i in range(len(cuts) - 1):
            name = "piece_%02d" % i
            self.put(name, u[cuts[i]:cuts[i + 1]])
            self.pieces.append(name)

    def _names(self):
        # File names that need (or look as if they need) quoting.
        names = [
            b"sp ace", b"tab\tname", b"co:lon", b"x:y:z", b"qu'ote", b"it's here", b'dq"uote',
            b"both'\"q", b"$dollar", b"back\\slash", b"star*", b"brack[et", b"semi;colon", b"amp&",
            b"pipe|", b"lt<gt>", b"eq=", b"q?", b"bang!", b"paren(", b"hat^", b"tick`", b"~tilde",
            b"#hash", b"mid~til#de", b"safe%+,@]{}_.-", b"\xc3\xa9t\xc3\xa9", b"\xe4\xb8\xad\xe6\x96\x87",
            b"nb\xc2\xa0sp", b"ls\xe2\x80\xa8ep", b"zw\xe2\x80\x8bsp", b"emoji\xf0\x9f\x98\x80",
            b"bad\xffbyte", b"bad\xc3", b"ctl\x01x", b"esc\x1b[1m", b"del\x7f", b"a'b\nc", b"trail\n",
            b"\nlead", b"-dash", b" lead", b"trail ", b"c1\xc2\x85", b"\xe2\x80\x8b", b"nl\nname",
        ]
        for n in names:
            if n != b"nl\nname":
                self.put(n, b"one two\n")
        self.names = names
        os.mkdir(os.path.join(self.dir, "d:ir"))
        os.mkdir(os.path.join(self.dir, "d ir"))

    def _lists(self):
        lists = {
            "listnonl": b"f1\0f2", "list_nl": b"f1\n\0f2\0", "list_missing": b"f1\0nosuch\0dir\0f2\0",
            "list_dash2": b"-\0-\0", "list_onlyempty": b"\0", "list_emptyfirst": b"\0f1\0",
            "list_emptylast": b"f1\0\0", "list_dup": b"f1\0f1\0f1\0", "list_self": b"list_self\0f1\0",
            "list_one": b"f1\0", "list_unread": b"f1\0unread\0f2\0", "list_dirs": b"dir\0d:ir\0f1\0",
            "list_mixed": b"f1\0\0nosuch\0-\0big\0dir\0\0z8192\0",
            "list_names": b"\0".join(self.names + [n + b".no" for n in self.names]) + b"\0",
            "list_large": b"\0".join(n.encode() for n in self.large) + b"\0",
            "list_many": b"f1\0nosuch\0dir\0f2\0\0empty\0big\0-\0unread\0" * 10,
        }
        for name, data in lists.items():
            self.put(name, data)
        self.put(b"my list", b"f1\0\0f2\0")
        self.put(b"list\nnl", b"f1\0\0")
        if not self.quick:
            # The 10 MiB limit on reading a list whole: exactly at and one past it.
            for name, size in (("list_10m", 10 << 20), ("list_10m1", (10 << 20) + 1)):
                entry = b"./" * 1990 + b"f1\0"
                count, rest = divmod(size, len(entry))
                data = entry * count
                if rest:
                    data += b"./" * ((rest - 3) // 2) + (b"f1\0" if rest % 2 else b"/f1\0")
                assert len(data) == size, (name, len(data))
                self.put(name, data)

    def _special(self):
        d = self.dir
        self.put("-", b"dash file\n")
        self.put("unread", b"u" * 100, 0o000)
        os.mkdir(os.path.join(d, "unreaddir"), 0o000)
        os.chmod(os.path.join(d, "unreaddir"), 0o000)
        os.mkdir(os.path.join(d, "noxdir"))
        self.put("noxdir/inner", b"in\n")
        os.chmod(os.path.join(d, "noxdir"), 0o644)
        os.symlink("f1", os.path.join(d, "link_f1"))
        os.symlink("loop", os.path.join(d, "loop"))
        os.symlink("nosuch-target", os.path.join(d, "dangling"))
        # Sparse 4 EiB files for sums that wrap (9.1) or overflow (9.3+). They
        # need tmpfs; elsewhere the file system refuses and the cases are left out.
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            try:
                self.shm = tempfile.mkdtemp(prefix="difftest.", dir="/dev/shm")
                os.chmod(self.shm, 0o755)
                target = os.path.join(self.shm, "huge")
                with open(target, "wb") as f:
                    f.truncate(1 << 62)
                for i in range(1, 5):
                    os.symlink(target, os.path.join(d, "huge%d" % i))
                self.put("list_huge", b"huge1\0huge2\0huge3\0huge4\0f1\0")
                self.huge = ["huge1", "huge2", "huge3", "huge4"]
            except OSError:
                self.huge = []

    def cleanup(self):
        for sub in ("unreaddir", "noxdir"):
            p = os.path.join(self.dir, sub)
            if os.path.isdir(p):
                os.chmod(p, 0o755)
        if self.shm:
            shutil.rmtree(self.shm, ignore_errors=True)

# ========================================================================= cases


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
    """Decode a C string literal body as written in the spec (\\n, \\t, \\\\, \\", \\ooo)."""
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
            add("count-stdin/" + tag, each(gridbad, o, "stdin"), loc, cost=5)
            add("count-pipe/" + tag, each(grid, o, "pipe"), loc, cost=5)
            add("count-concat/" + tag, "cat %s | wc %s" % (" ".join(small), o), loc, volatile=True)
            add("large-one/" + tag, each(large, o, "named"), loc, cost=20)
            add("large-stdin/" + tag, each(large, o, "stdin"), loc, cost=20)
            add("large-pipe/" + tag, each(large, o, "pipe"), loc, cost=20, volatile=True)
            add("edge-files/" + tag, "wc %s %s" % (o, edges), loc, cost=20)
            if o in ("-lwmcL", "-m", "-w", "-L", ""):
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


def main():
    ap = argparse.ArgumentParser(description="Differential test of a wc candidate against GNU wc.")
    ap.add_argument("candidate", help="the wc under test (fastwc)")
    ap.add_argument("--quick", action="store_true", help="smaller inputs and fewer combinations")
    ap.add_argument("--only", metavar="REGEX", help="run only the cases whose id matches REGEX")
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
