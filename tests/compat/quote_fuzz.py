#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Randomized differential test of src/out/quote.cpp against GNU wc.

Generates random file names (shell specials, controls, quotes, colons,
leading ~ and #, UTF-8 characters of every length including non-printable
ones, invalid and truncated sequences) and compares, in LC_ALL=C and
LC_ALL=C.UTF-8:
  - quote_file_name_for_diagnostic() with `wc: QUOTED: No such file or
    directory`, which GNU wc prints through quotef() for a missing name
    listed in --files0-from (one wc run per locale for all names);
  - quote_always() with `wc: cannot open QUOTED for reading: ...`, which GNU
    wc prints through quoteaf() (one wc run per name and locale).
A tiny driver is compiled from quote.cpp with g++. Exits 0 when everything
matches, 1 on a mismatch (printing the first few), 77 when a tool or the
C.UTF-8 locale is missing.

Usage: quote_fuzz.py [--count N] [--seed S] [--wc PATH] [--cxx G++]
--wc may name another GNU wc (9.1, or 9.7 and later, whose quoting differs in
one gnulib quirk), e.g. the wc of Debian unstable's coreutils 9.10.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCALES = ("C", "C.UTF-8")

DRIVER = r"""
#include "out/quote.hpp"
#include <clocale>
#include <iostream>
#include <iterator>
#include <string>
// Reads NUL-terminated names on stdin; writes quotef and quoteaf lines.
// Argument "9.1" or "9.7": the gnulib revision to reproduce.
int main(int argc, char** argv) {
  using fastwc::out::quoting_revision;
  const auto rev = argc > 1 && std::string(argv[1]) == "9.7" ? quoting_revision::coreutils_9_7
                                                            : quoting_revision::coreutils_9_1;
  std::setlocale(LC_ALL, "");
  const std::string in{std::istreambuf_iterator<char>(std::cin), {}};
  std::size_t start = 0;
  for (std::size_t end; (end = in.find('\0', start)) != std::string::npos; start = end + 1) {
    const std::string_view name(in.data() + start, end - start);
    std::cout << fastwc::out::quote_file_name_for_diagnostic(name, rev) << '\n'
              << fastwc::out::quote_always(name, rev) << '\n';
  }
}
"""


def utf8(cp):
    return chr(cp).encode("utf-8", "surrogatepass")


def glibc_long_form(cp, nbytes):
    """5- and 6-byte forms that glibc's UTF-8 decoder still accepts."""
    lead = {5: 0xF8, 6: 0xFC}[nbytes]
    out = []
    for _ in range(nbytes - 1):
        out.append(0x80 | (cp & 0x3F))
        cp >>= 6
    out.append(lead | cp)
    return bytes(reversed(out))


SPECIAL_CPS = [0xE9, 0x85, 0xA0, 0xAD, 0x7FF, 0x2028, 0x2029, 0x200B, 0x20AC,
               0x3000, 0xFEFF, 0xE000, 0xFFFD, 0xFFFF, 0x1F600, 0x10FFFF,
               0xE0001, 0x0378, 0x1D400]


def random_piece(rng, first):
    kind = rng.random()
    if kind < 0.30:
        return bytes([rng.choice(b"abcXYZ019%+,-./:@]_{}~#")])
    if kind < 0.45:
        return bytes([rng.choice(b" !\"$&'()*;<=>?[\\^`|")])
    if kind < 0.50:
        return b"'" * rng.randint(1, 2)
    if kind < 0.58:
        return bytes([rng.choice(list(range(1, 32)) + [0x7F])])
    if kind < 0.70:
        return utf8(rng.choice(SPECIAL_CPS))
    if kind < 0.80:  # any code point, any length, surrogates included
        hi = rng.choice([0x7F, 0x7FF, 0xFFFF, 0x10FFFF])
        return utf8(rng.randint(0x80 if hi > 0x7F else 1, hi))
    if kind < 0.85:  # truncated multibyte sequence
        full = utf8(rng.randint(0x80, 0x10FFFF))
        return full[: rng.randint(1, len(full) - 1)]
    if kind < 0.90:  # single invalid or stray byte
        return bytes([rng.randint(0x80, 0xFF)])
    if kind < 0.95:  # overlong, > U+10FFFF, or 5/6-byte forms
        return rng.choice([b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf4\x90\x80\x80",
                           b"\xf7\xbf\xbf\xbf",
                           glibc_long_form(rng.randint(0x200000, 0x3FFFFFF), 5),
                           glibc_long_form(rng.randint(0x4000000, 0x7FFFFFFF), 6)])
    return b"~" if first else b"#"


def random_name(rng):
    if rng.random() < 0.05:  # isolated brace or leading special alone
        return bytes([rng.choice(b"{}#~")])
    n = rng.randint(1, 8)
    return b"".join(random_piece(rng, i == 0) for i in range(n))


def usable(name):
    # Must name a missing file in an empty directory, and not mean stdin.
    return (name != b"-" and len(name) < 200
            and not os.path.lexists(name) and b"\0" not in name)


def run(cmd, locale, **kw):
    # argv[0] is "wc" whatever --wc says, so that messages start "wc: ".
    kw.setdefault("executable", cmd[0])
    cmd = [os.path.basename(cmd[0])] + cmd[1:]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE", "POSIXLY_CORRECT")}
    env["LC_ALL"] = locale
    return subprocess.run(cmd, env=env, capture_output=True, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wc", default="/usr/bin/wc")
    ap.add_argument("--cxx", default="g++")
    args = ap.parse_args()

    wc = shutil.which(args.wc)
    if not shutil.which(args.cxx) or not wc:
        print("skip: need", args.cxx, "and", args.wc)
        return 77
    args.wc = os.path.abspath(wc)  # the comparisons run in another directory
    version = run([args.wc, "--version"], "C").stdout.split(b"\n")[0].split()[-1].decode()
    major_minor = tuple(int(x) for x in version.split(".")[:2])
    if major_minor <= (9, 1):
        revision = "9.1"
    elif major_minor >= (9, 7):
        revision = "9.7"
    else:
        print(f"skip: wc {version}: which gnulib quoting revision it has is unknown")
        return 77
    if b"C.utf8" not in subprocess.run(["locale", "-a"], capture_output=True).stdout:
        print("skip: C.UTF-8 locale not installed")
        return 77

    with tempfile.TemporaryDirectory() as tmp:
        driver = os.path.join(tmp, "quote_driver")
        src = os.path.join(tmp, "quote_driver.cpp")
        with open(src, "w") as f:
            f.write(DRIVER)
        subprocess.run([args.cxx, "-std=c++20", "-O1", "-I", os.path.join(REPO, "src"),
                        src, os.path.join(REPO, "src/out/quote.cpp"), "-o", driver],
                       check=True)
        work = os.path.join(tmp, "empty")
        os.mkdir(work)
        os.chdir(work)

        rng = random.Random(args.seed)
        names = []
        while len(names) < args.count:
            name = random_name(rng)
            if usable(name):
                names.append(name)
        listing = os.path.join(tmp, "list")
        with open(listing, "wb") as f:
            f.write(b"".join(n + b"\0" for n in names))

        failures, compared = [], 0
        for loc in LOCALES:
            ours = run([driver, revision], loc, input=b"".join(n + b"\0" for n in names)).stdout
            ours = ours.split(b"\n")
            theirs = run([args.wc, "--files0-from=" + listing], loc).stderr.split(b"\n")
            if len(theirs) != len(names) + 1:
                print(f"error: expected one diagnostic per name from {args.wc}")
                return 2
            for k, name in enumerate(names):
                qf, qaf = ours[2 * k], ours[2 * k + 1]
                want = theirs[k]
                got = b"wc: " + qf + b": No such file or directory"
                compared += 1
                if got != want:
                    failures.append((loc, "quotef", name, want, got))
                want = run([args.wc, b"--files0-from=" + name], loc).stderr.rstrip(b"\n")
                got = b"wc: cannot open " + qaf + b" for reading: No such file or directory"
                compared += 1
                if got != want:
                    failures.append((loc, "quoteaf", name, want, got))

    for loc, what, name, want, got in failures[:10]:
        print(f"MISMATCH {what} LC_ALL={loc} name={name!r}\n  gnu:  {want!r}\n  ours: {got!r}")
    print(f"{compared - len(failures)}/{compared} comparisons match "
          f"({len(names)} names x {len(LOCALES)} locales x 2 styles, seed {args.seed}, "
          f"wc {version})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
