# SPDX-License-Identifier: GPL-3.0-or-later
"""The directory every case of the differential test runs in: files of every
input class, names that need quoting, lists for --files0-from."""
import os
import shutil
import tempfile

from difftest_inputs import (ASCII_WORD, CODEPOINTS, GRID, INVALID, SEPARATORS, SPLIT_TOKENS,
                             TRUNCATED, enc, gen_ascii, gen_ctrl, gen_long_line, gen_nul,
                             gen_utf8, place_tokens, split_combos)


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
        self._checklist_files(rng)
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

    def _checklist_files(self, rng):
        # The files cases/checklist.txt uses, exactly.
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
