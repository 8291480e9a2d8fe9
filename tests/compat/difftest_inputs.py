# SPDX-License-Identifier: GPL-3.0-or-later
"""The inputs of the differential test: code points and byte sequences in every
class GNU wc's loops distinguish, and generators of text made of them
(difftest.py's fixture writes them to files)."""


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

# The inputs of the reference tests' grid and of cases/checklist.txt.
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
