#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""make_corpus.py: writes the seed corpus of the libFuzzer targets.

usage: tests/fuzz/make_corpus.py [DIR]     (default: tests/fuzz/corpus)

The seeds are committed (tests/fuzz/corpus/<target>/); this script says how
they were made and remakes them identically. Each seed is the target's
header bytes (fuzz_*.cpp describe them) followed by one text: multilingual
UTF-8, invalid and truncated sequences, the no-break spaces, U+2028,
tabs, CR, FF and long lines, under a spread of option bytes.
"""
import os
import sys

TEXTS = {
    "empty": b"",
    "one_byte": b"a",
    "ascii": b"The quick brown fox\njumps over\tthe lazy dog.\r\n",
    "tabs": b"a\tb\t\tc\n12345678\tx\n\t\n",
    "cr_ff_vt": b"ab\rcd\fef\vgh\r\n\n",
    "controls": b"a\x01b \x00c\x7fd\x1b[0m\n",
    "multilingual": "Привет мир\n中文字 日本語のテキスト\nΕλληνικά العربية 😀 café naïve\n".encode(),
    "wide_combining": "ｗｉｄｅ　全角\ne\u0301 \u0300alone \u200bzw\n".encode(),
    "nbsp": "a\u00a0b c\u2007d e\u202ff g\u2060h\n".encode(),
    "separators": "a\u2028b\u2029c\u3000d\u1680e\u2003f\u0085g\n".encode(),
    "invalid": b"\xff\xfe \x80\xbf \xc0\x80 \xe0\x80\x80 \xed\xa0\x80 \xf4\x90\x80\x80 x\n",
    "glibc_long_forms": b"\xf8\x88\x80\x80\x80 \xfc\x84\x80\x80\x80\x80 \xfd\xbf\xbf\xbf\xbf\xbf\n",
    "truncated_end": "x y ".encode() + b"\xe2\x80",
    "truncated_mid": b"a\xe4\xb8 b\xf0\x9f\x98\nc\xc3",
    "continuations": b"\x80\x80\x80\x80\x80\x80\x80\x80abc\x80\x80",
    "nul_words": b"a\x00b \x00 \x00\n\x00",
    "long_line": (b"abcdefg " * 90) + b"\n" + (b"\t" * 40) + b"\n",
    "emoji_run": ("😀" * 40 + "\n").encode(),
    "mixed_dense": "x \u202f\u00a0 中 ".encode() + b"\xff\t\r" + b"\xe2\x80\xaf" * 8,
    "quirk_straddle": b"x " * 5 + b"\xe2\x80\xaf" + b" " * 10 + b"\xe3\x80\x80y",
    # A few cells block after block (the VBMI kernel's hot cells), with
    # their exceptions: unassigned U+3097, combining U+3099, U+3000.
    "kana_cells": ("ひらがなとカタカナ、\u3097\u3099。\u3000「かなカナ」" * 6 + "\n").encode(),
    # Hangul of leads EA and ED (rows of uniform cells) and ED 9E's mixed
    # cell (U+D7A3, then unassigned U+D7A4).
    "hangul_rows": ("가각갂 힝힣\ud7a4 한국어 \ud7b0" * 8 + "\n").encode(),
}

# Option bytes (fuzz_support.hpp): bit 0 UTF-8, bit 1 GNU 9.5 word rule,
# bit 2 POSIXLY_CORRECT, bits 3-7 -l -w -m -c -L.
OPTIONS = [
    0b11111001,  # C.UTF-8, 9.1 rule, all counts
    0b11111011,  # C.UTF-8, 9.5 rule, all counts
    0b11111111,  # C.UTF-8, 9.5 rule, POSIXLY_CORRECT, all counts
    0b11111000,  # C, 9.1 rule, all counts
    0b01011011,  # C.UTF-8, 9.5, the default -lwc
    0b10010001,  # C.UTF-8, -w -L
    0b00100001,  # C.UTF-8, -m
    0b00001010,  # C, 9.5, -l
]


def seeds(target):
    names = sorted(TEXTS)
    for i, name in enumerate(names):
        text = TEXTS[name]
        options = OPTIONS[i % len(OPTIONS)]
        if target == "kernels":
            yield name, bytes([options]) + text
        elif target == "split":
            # Three cuts spread over the text (offsets modulo its length + 1).
            n = len(text)
            cuts = [n // 3, n // 2, (2 * n) // 3 + 1]
            header = bytes([options, len(cuts)]) + b"".join(c.to_bytes(2, "little") for c in cuts)
            yield name, header + text
        elif target == "gnu_reads":
            # 9.5 rule and -w in a UTF-8 locale (the quirk's case) for most;
            # read size 8 + i; a schedule with short reads, an EINTR, and an
            # EIO for every fourth seed.
            opt = options | 0b00010011 if i % 5 else options
            schedule = [3, 1, 0, 7, 2] + ([5, 255] if i % 4 == 3 else [])
            yield name, bytes([opt, i, len(schedule)] + schedule) + text


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for target in ("kernels", "split", "gnu_reads"):
        d = os.path.join(root, target)
        os.makedirs(d, exist_ok=True)
        for name, data in seeds(target):
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
