# SPDX-License-Identifier: GPL-3.0-or-later
"""Deterministic benchmark corpora for bench/run (Python 3 standard library only).

Every corpus comes from random.Random(SEED + n), so the same --size gives the
same bytes on every machine with the same Python minor version (the
algorithm behind Random.choices and Random.randbytes is stable). The files
live under bench/corpus/ (gitignored); manifest.json records what was
generated, and a later run with the same size and GENERATOR_VERSION reuses
them instead of writing them again.

    english.txt       English-like ASCII prose, lines of 30 to 90 columns
                      (about 60 bytes on average), some tabs and empty lines
    multilingual.txt  UTF-8 lines mixing Latin with precomposed and combining
                      accents, Cyrillic, Greek, Arabic, Devanagari, Thai, CJK
                      and kana (width 2), emoji (ZWJ sequences, skin tones,
                      flags), no-break spaces U+00A0, U+2007, U+202F, and
                      U+2003, U+3000 spaces
    binary.bin        random bytes
    longlines.txt     the English words on lines of 64 KiB to 4 MiB, with tabs
    small/NN/NNNNN.txt  many files of exactly 1 KiB of English text
    small.list0       their names, NUL-terminated, for --files0-from
    oneline.txt       one short line (start-up cost)
"""
import json
import os
import random

GENERATOR_VERSION = 1
SEED = 20261129

_WORDS = (
    "the of and to in a is that for it as was with be by on not he this are or his from at which but have an had "
    "they you were their one all we can her has there been if more when will would who so no she other its may "
    "these about than into could some time only new them two like then first any after what over also do my made "
    "way people years where most through very even state before such must back many much those should well long "
    "because little just under world being three same here both between life never while another last might great "
    "old year off come since against go came right used take four few house small found still though without "
    "place again around however home several small part number count counting characters newline word words byte "
    "bytes line lines file files reader buffer kernel thread performance implementation example program output "
    "input"
).split()
_PUNCT_WORDS = ["(for", "example)", "etc.", "e.g.", "i.e.", '"quoted"', "it's", "don't", "--", "42", "1999", "3.14"]

_LATIN = ["café", "naïve", "façade", "über", "Größe", "déjà", "vu", "señor", "São", "Paulo", "Ångström", "crème",
          "brûlée", "Łódź", "Dvořák", "İstanbul", "e\u0301te\u0301", "man\u0303ana", "cœur", "Æsir", "fjörður"]
_CYRILLIC = ["Привет", "мир", "это", "пример", "текста", "на", "русском", "языке", "съешь", "ещё", "мягких"]
_GREEK = ["Καλημέρα", "κόσμε", "αυτό", "είναι", "ένα", "παράδειγμα", "κειμένου", "ελληνικά", "ψυχή"]
_ARABIC = ["هذا", "مثال", "على", "نص", "باللغة", "العربية", "مع", "كلمات", "السَّلَامُ"]
_DEVANAGARI = ["नमस्ते", "दुनिया", "यह", "एक", "उदाहरण", "है", "हिन्दी", "पाठ"]
_THAI = ["สวัสดี", "ชาวโลก", "นี่คือ", "ตัวอย่าง", "ภาษาไทย"]
_CJK = ["这是", "一个", "中文", "文本", "的", "例子", "我们", "计算字符", "日本語", "の", "テキスト", "です",
        "ひらがな", "カタカナ", "漢字", "한국어", "텍스트", "입니다", "ＡＢＣ", "１２３"]
_CJK_PUNCT = ["，", "。", "、", "「", "」", "！"]
_EMOJI = ["😀", "🎉", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "❤\ufe0f", "🚀", "🙂", "🧑\u200d💻", "✔"]
_SCRIPTS = [_LATIN, _CYRILLIC, _GREEK, _ARABIC, _DEVANAGARI, _THAI]
# No-break spaces (joined to their neighbours: "10\u00a0km"), and spaces that
# separate words in a UTF-8 locale (U+2003 EM SPACE, U+3000 IDEOGRAPHIC SPACE).
_NBSP = ["\u00a0", "\u2007", "\u202f"]
_OTHER_SPACES = ["\u2003", "\u3000", "\t"]


def _english_line(rng):
    if rng.random() < 0.03:
        return b"\n"
    target = rng.randint(30, 90)
    parts = []
    length = 0
    while length < target:
        word = rng.choice(_PUNCT_WORDS) if rng.random() < 0.04 else rng.choice(_WORDS)
        if not parts:
            word = word.capitalize()
        elif rng.random() < 0.08:
            word += ","
        parts.append(word)
        length += len(word) + 1
    line = " ".join(parts) + "."
    if rng.random() < 0.05:
        line = "\t" + line
    return line.encode("ascii") + b"\n"


def _multilingual_line(rng):
    pieces = []
    length = 0
    target = rng.randint(40, 160)  # bytes, roughly
    scripts = rng.sample(_SCRIPTS, 2)
    while length < target:
        r = rng.random()
        if r < 0.25:
            # A run of CJK without spaces, as CJK text is written.
            piece = "".join(rng.choice(_CJK) for _ in range(rng.randint(2, 6))) + rng.choice(_CJK_PUNCT)
        elif r < 0.32:
            piece = rng.choice(_EMOJI)
        elif r < 0.40:
            piece = str(rng.randint(1, 9999)) + rng.choice(_NBSP) + rng.choice(["km", "€", "kg", "%", "Mo"])
        elif r < 0.50:
            piece = rng.choice(_WORDS)
        else:
            piece = rng.choice(rng.choice(scripts))
        pieces.append(piece)
        pieces.append(rng.choice(_OTHER_SPACES) if rng.random() < 0.06 else " ")
        length += len(piece.encode("utf-8")) + 1
    return "".join(pieces[:-1]).encode("utf-8") + b"\n"


def _pool(make, rng, count):
    return [make(rng) for _ in range(count)]


def _write_lines(path, size, pool, rng):
    """Random lines from pool until size bytes; the file ends at a line end."""
    written = 0
    with open(path, "wb") as f:
        while written < size:
            chunk = b"".join(rng.choices(pool, k=65536))
            if written + len(chunk) > size:
                cut = chunk.rfind(b"\n", 0, size - written) + 1
                chunk = chunk[:cut]
                room = size - written - len(chunk)
                if room > 0:  # pad with one ASCII line of exactly the bytes left
                    chunk += b"." * (room - 1) + b"\n"
            f.write(chunk)
            written += len(chunk)


def _write_binary(path, size, rng):
    with open(path, "wb") as f:
        left = size
        while left:
            n = min(left, 64 << 20)
            f.write(rng.randbytes(n))
            left -= n


def _write_long_lines(path, size, words_pool, rng):
    written = 0
    with open(path, "wb") as f:
        while written < size:
            target = min(rng.randint(64 << 10, 4 << 20), size - written)
            parts = []
            n = 0
            while n < target - 1:
                piece = rng.choice(words_pool)[:-1]  # an English line without its newline
                parts.append(piece)
                n += len(piece) + 1
            line = b"".join(p + (b"\t" if i % 17 == 16 else b" ") for i, p in enumerate(parts))
            line = line[: target - 1] + b"\n"
            f.write(line)
            written += len(line)


def _write_small_files(root, count, pool, rng):
    names = []
    for i in range(count):
        directory = os.path.join(root, "small", f"{i // 1000:03d}")
        if i % 1000 == 0:
            os.makedirs(directory, exist_ok=True)
        text = b"".join(rng.choices(pool, k=24))[:1023] + b"\n"
        name = os.path.join(directory, f"{i:06d}.txt")
        with open(name, "wb") as f:
            f.write(text)
        names.append(name)
    with open(os.path.join(root, "small.list0"), "wb") as f:
        f.write(b"".join(n.encode() + b"\0" for n in names))


def small_count_for(size):
    """100,000 small files from --size 256M up, proportionally fewer below (at least 1,000)."""
    return max(1000, min(100000, 100000 * size // (256 << 20)))


def _manifest_path(root):
    return os.path.join(root, "manifest.json")


def _expected(size, small_count):
    return {"generator_version": GENERATOR_VERSION, "seed": SEED, "size": size, "small_files": small_count}


def ensure(root, size, small_count, log=print):
    """Generates (or reuses) the corpora under root; returns {name: path}, paths relative to the working directory."""
    paths = {
        "english": os.path.join(root, "english.txt"),
        "multilingual": os.path.join(root, "multilingual.txt"),
        "binary": os.path.join(root, "binary.bin"),
        "longlines": os.path.join(root, "longlines.txt"),
        "oneline": os.path.join(root, "oneline.txt"),
        "small_list": os.path.join(root, "small.list0"),
    }
    want = _expected(size, small_count)
    try:
        with open(_manifest_path(root)) as f:
            have = json.load(f)
        if {k: have.get(k) for k in want} == want and all(
            os.path.exists(p) and os.path.getsize(p) == have["files"].get(n) for n, p in paths.items()
        ):
            log(f"corpus: reusing {root} ({size} bytes per large file, {small_count} small files)")
            return paths
    except (OSError, ValueError, KeyError, TypeError):
        pass
    os.makedirs(root, exist_ok=True)
    if os.path.exists(_manifest_path(root)):
        os.remove(_manifest_path(root))
    log(f"corpus: generating in {root} ({size} bytes per large file, {small_count} small files)")
    english_pool = _pool(_english_line, random.Random(SEED), 50000)
    _write_lines(paths["english"], size, english_pool, random.Random(SEED + 1))
    log("corpus:   english.txt")
    multi_pool = _pool(_multilingual_line, random.Random(SEED + 2), 50000)
    _write_lines(paths["multilingual"], size, multi_pool, random.Random(SEED + 3))
    log("corpus:   multilingual.txt")
    _write_binary(paths["binary"], size, random.Random(SEED + 4))
    log("corpus:   binary.bin")
    _write_long_lines(paths["longlines"], size, english_pool, random.Random(SEED + 5))
    log("corpus:   longlines.txt")
    small_dir = os.path.join(root, "small")
    if os.path.isdir(small_dir):
        for dirpath, _dirs, files in os.walk(small_dir):
            for name in files:
                os.remove(os.path.join(dirpath, name))
    _write_small_files(root, small_count, [l for l in english_pool if l != b"\n"], random.Random(SEED + 6))
    log(f"corpus:   {small_count} small files")
    with open(paths["oneline"], "wb") as f:
        f.write(b"The quick brown fox jumps over the lazy dog.\n")
    manifest = dict(want, files={n: os.path.getsize(p) for n, p in paths.items()})
    with open(_manifest_path(root), "w") as f:
        json.dump(manifest, f, indent=1)
    return paths


DESCRIPTIONS = {
    "english": "English-like ASCII, lines of 30-90 columns (about 60 bytes), some tabs and empty lines",
    "multilingual": "UTF-8: accented Latin (precomposed and combining), Cyrillic, Greek, Arabic, Devanagari, "
                    "Thai, CJK and kana, emoji (ZWJ, skin tones, flags), no-break spaces U+00A0/U+2007/U+202F, "
                    "U+2003 and U+3000 spaces",
    "binary": "random bytes",
    "longlines": "English words on lines of 64 KiB to 4 MiB, with tabs",
    "small": "1 KiB files of English text, listed NUL-separated for --files0-from",
    "oneline": "one 45-byte line",
}


# ---- per-script corpora (the kernel microbenchmark's rows) ----
#
# One script each, written as that script is written: words separated by
# spaces, or runs without spaces (Chinese, Japanese), with the script's own
# punctuation. Each exercises a different path of the UTF-8 kernels: two-byte
# letters (Cyrillic, Greek, Latin, Arabic), three-byte ones with combining
# marks (Devanagari), wide characters (CJK, Hangul), four-byte ones
# (emoji), typographic punctuation among ASCII (English), and no-break spaces,
# which GNU 9.5+ counts as separators unless POSIXLY_CORRECT.

_SCRIPT_WORDS = {
    "cyrillic": ("Съешь же ещё этих мягких французских булок да выпей чаю Широкая электрификация южных "
                 "губерний даст мощный толчок подъёму сельского хозяйства Привет мир это пример текста на "
                 "русском языке Чуєш їх доцю га кумедна ж ти прощайся без ґольфів Ајшо лепото и чежњо за "
                 "љубав срце ми гори").split(),
    "greek": ("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία Τάχιστη αλώπηξ βαφής ψημένη γη δρασκελίζει υπέρ νωθρού "
              "κυνός Καλημέρα κόσμε αυτό είναι ένα παράδειγμα κειμένου στα ελληνικά ψυχή ΐ ΰ").split(),
    "latin": ("Voix ambiguë d'un cœur qui au zéphyr préfère les jattes de kiwis Zwölf Boxkämpfer jagen "
              "Viktor quer über den großen Sylter Deich El pingüino Wenceslao hizo kilómetros bajo exhaustiva "
              "lluvia y frío añoraba a su querido cachorro Pchnąć w tę łódź jeża lub ośm skrzyń fig Příliš "
              "žluťoučký kůň úpěl ďábelské ódy Ærøskøbing Þórður São Paulo déjà vu").split(),
    "arabic": ("نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق هذا مثال على نص "
               "باللغة العربية مع كلمات السَّلَامُ عَلَيْكُمْ مَرْحَبًا بِكُمْ").split(),
    "devanagari": ("ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान "
                   "श्रीराम अयोध्या के महाराज दशरथ के बड़े सपुत्र थे नमस्ते दुनिया यह एक उदाहरण है हिन्दी पाठ "
                   "क्षत्रिय ज्ञान श्रृंखला").split(),
    "chinese": ["这是", "一个", "中文", "文本", "的", "例子", "我们", "计算", "字符", "数量", "程序", "文件",
                "读取", "速度", "非常", "快", "天地", "玄黄", "宇宙", "洪荒", "日月", "盈昃", "辰宿", "列张",
                "寒来", "暑往", "秋收", "冬藏", "龍", "體", "學習", "電腦"],
    "japanese": ["私", "は", "東京", "に", "住んで", "います", "コンピューター", "の", "プログラム", "で", "文字",
                 "を", "数える", "です", "いろは", "にほへと", "ちりぬるを", "わかよたれそ", "つねならむ",
                 "日本語", "ひらがな", "カタカナ", "漢字", "テキスト", "ファイル", "速い", "ー"],
    "korean": ("키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다 다람쥐 헌 쳇바퀴에 타고파 "
               "한국어 텍스트 입니다 문자 수를 세는 프로그램 빠른 속도로 파일을 읽습니다").split(),
    "emoji": ["😀", "🎉", "👍🏽", "👋🏿", "👩🏻\u200d💻", "👨\u200d👩\u200d👧\u200d👦", "🧑\u200d🚀", "🇫🇷",
              "🇯🇵", "🇧🇷", "🏳️\u200d🌈", "❤️", "🔥", "✨", "🚀", "🙂", "😂", "💯", "ok", "lol", "wow"],
    "english": ("the of and to in a is that for it as was with be by on not he this are or his from at "
                "which but have an had they you were their one all we can her has there been if more when "
                "will would who so no counting characters words lines").split(),
}
_SCRIPT_PUNCT = {
    "cyrillic": ["«", "»", "—", ",", ".", "!", "?", "…"],
    "greek": ["·", ";", ",", ".", "«", "»"],
    "latin": [",", ".", "!", "?", "«", "»", ";", ":"],
    "arabic": ["،", "؟", ".", "؛"],
    "devanagari": ["।", "॥", ",", "?"],
    "chinese": ["，", "。", "、", "；", "：", "“", "”", "！", "？", "（", "）"],
    "japanese": ["、", "。", "「", "」", "・", "！", "？"],
    "korean": [".", ",", "?", "!"],
    "emoji": ["!", "?", "…"],
    "english": ["\u201c", "\u201d", "\u2018", "\u2019", "\u2014", "\u2013", "\u2026", ",", "."],
}
# Scripts written without spaces between words (a line is a run of words).
_UNSPACED = {"chinese", "japanese"}

SCRIPT_DESCRIPTIONS = {
    "cyrillic": "Russian, Ukrainian and Serbian words (two-byte letters), guillemets and dashes",
    "greek": "Greek words with tonos and dialytika, Greek question mark and ano teleia",
    "latin": "French, German, Spanish, Polish, Czech and Nordic words with accents; no-break spaces U+00A0 "
             "and U+202F before French punctuation and in numbers",
    "arabic": "Arabic words, some with harakat (combining marks), Arabic comma and question mark",
    "devanagari": "Hindi with matras, viramas and conjuncts (combining marks), danda",
    "chinese": "runs of Han characters without spaces, full-width punctuation",
    "japanese": "runs of kana and kanji without spaces, Japanese punctuation",
    "korean": "Hangul syllables in space-separated words",
    "emoji": "emoji-dense: skin tones, ZWJ sequences, flags, variation selectors, short ASCII words",
    "english": "English with typographic punctuation: curly quotes, em and en dashes, ellipses",
}
SCRIPTS = list(SCRIPT_DESCRIPTIONS)


def _script_line(script, rng):
    words, punct = _SCRIPT_WORDS[script], _SCRIPT_PUNCT[script]
    target = rng.randint(40, 160)  # bytes, roughly
    out, length = [], 0
    while length < target:
        if script in _UNSPACED:
            piece = "".join(rng.choice(words) for _ in range(rng.randint(3, 10))) + rng.choice(punct)
        elif script == "english" and rng.random() < 0.15:
            quote = rng.choice([("\u201c", "\u201d"), ("\u2018", "\u2019")])
            piece = quote[0] + rng.choice(words) + " " + rng.choice(words) + quote[1]
        else:
            piece = rng.choice(words)
            if rng.random() < 0.12:
                mark = rng.choice(punct)
                if script == "latin" and mark in "!?;:":
                    # French typography: a no-break space before the mark.
                    piece += ("\u202f" if mark != ":" else "\u00a0") + mark
                elif script == "latin" and mark in "«»":
                    piece = "«\u00a0" + piece + "\u00a0»"
                else:
                    piece += mark
        if script == "latin" and rng.random() < 0.05:
            piece = f"{rng.randint(1, 99)}\u202f{rng.randint(0, 999):03d}\u00a0€"
        out.append(piece)
        length += len(piece.encode("utf-8")) + 1
    sep = "" if script in _UNSPACED and rng.random() < 0.8 else " "
    return sep.join(out).encode("utf-8") + b"\n"


def write_script(path, script, size):
    """One per-script corpus of exactly `size` bytes (at least one line long), ending at a line end."""
    index = SCRIPTS.index(script)
    rng = random.Random(SEED + 100 + index)
    pool = [_script_line(script, rng) for _ in range(5000)]
    _write_lines(path, size, pool, random.Random(SEED + 200 + index))


def write_scripts(root, size, log=print):
    """Writes every per-script corpus as root/<script>.txt; returns {script: path}."""
    os.makedirs(root, exist_ok=True)
    paths = {}
    for script in SCRIPTS:
        paths[script] = os.path.join(root, script + ".txt")
        write_script(paths[script], script, size)
        log(f"corpus:   {script}.txt ({SCRIPT_DESCRIPTIONS[script]})")
    return paths


def ensure_scripts(root, size, log=print):
    """Like write_scripts, but reuses root's corpora when its manifest says they are this size and version."""
    want = {"generator_version": GENERATOR_VERSION, "seed": SEED, "size": size, "scripts": SCRIPTS}
    paths = {script: os.path.join(root, script + ".txt") for script in SCRIPTS}
    try:
        with open(_manifest_path(root)) as f:
            if json.load(f) == want and all(os.path.getsize(p) == size for p in paths.values()):
                log(f"corpus: reusing {root} ({size} bytes per script)")
                return paths
    except (OSError, ValueError):
        pass
    write_scripts(root, size, log)
    with open(_manifest_path(root), "w") as f:
        json.dump(want, f)
    return paths


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Writes the per-script corpora (bench/micro's rows).")
    parser.add_argument("--scripts", required=True, metavar="DIR", help="directory for <script>.txt")
    parser.add_argument("--size", type=int, default=1 << 20, help="bytes per corpus (default 1 MiB)")
    args = parser.parse_args()
    write_scripts(args.scripts, args.size)
