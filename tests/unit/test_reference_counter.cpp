// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of count/reference_counter: the example grid of spec section 1.6
// (values from GNU wc 9.1) in C, C.UTF-8 and C.UTF-8 with POSIXLY_CORRECT,
// the 9.5 word rule (spec 1.7 and 8.1), agreement of the class API with the
// counter for every code point, and split invariance over generated inputs:
// two pieces at every split point and random k pieces give one piece's
// counts, in both locales, both word rules and both multibyte loops.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <clocale>
#include <cstdint>
#include <ios>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/reference_counter.hpp"
#include "locale/char_classes.hpp"

using namespace std::string_view_literals;

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::WordRule;
using fastwc::count::ReferenceCounter;
using fastwc::locale::CharClasses;
using fastwc::locale::WordClass;

struct GlobalLocale {
  explicit GlobalLocale(const char *name) { REQUIRE(std::setlocale(LC_ALL, name) != nullptr); }
  ~GlobalLocale() { std::setlocale(LC_ALL, "C"); }
  GlobalLocale(const GlobalLocale &) = delete;
  GlobalLocale &operator=(const GlobalLocale &) = delete;
};

CountOptions make_options(Encoding encoding, WordRule rule, bool nbsp_separates = true) {
  CountOptions options;
  options.selection = fastwc::Selection::all();
  options.encoding = encoding;
  options.word_rule = rule;
  options.nbsp_separates_words = nbsp_separates;
  return options;
}

std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size()};
}

/// Counts `input` fed as the pieces that end at `cuts` (sorted offsets).
Counts count_pieces(std::string_view input, const CountOptions &options,
                    const std::vector<std::size_t> &cuts) {
  ReferenceCounter counter(options);
  std::size_t start = 0;
  for (std::size_t cut : cuts) {
    counter.update(as_bytes(input.substr(start, cut - start)));
    start = cut;
  }
  counter.update(as_bytes(input.substr(start)));
  return counter.finish();
}

Counts count_one(std::string_view input, const CountOptions &options) {
  return count_pieces(input, options, {});
}

Counts lwmcL(std::uint64_t l, std::uint64_t w, std::uint64_t m, std::uint64_t c,
             std::uint64_t max) {
  return Counts{l, w, m, c, max};
}

std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

/// One row of spec section 1.6: the input, `wc -lwmcL` in C, C.UTF-8 and
/// C.UTF-8 with POSIXLY_CORRECT (9.1), and the word counts of 9.5 in the
/// same three settings (spec 1.7: only -w changes).
struct GridRow {
  std::string_view input;
  std::array<std::uint64_t, 5> c, utf8, posix;
  std::array<std::uint64_t, 3> words95;
};

const GridRow grid[] = {
    {""sv, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0}},
    {"a"sv, {0, 1, 1, 1, 1}, {0, 1, 1, 1, 1}, {0, 1, 1, 1, 1}, {1, 1, 1}},
    {"a\n"sv, {1, 1, 2, 2, 1}, {1, 1, 2, 2, 1}, {1, 1, 2, 2, 1}, {1, 1, 1}},
    {"\n\n"sv, {2, 0, 2, 2, 0}, {2, 0, 2, 2, 0}, {2, 0, 2, 2, 0}, {0, 0, 0}},
    {" a  b \n"sv, {1, 2, 7, 7, 6}, {1, 2, 7, 7, 6}, {1, 2, 7, 7, 6}, {2, 2, 2}},
    {"a\tb"sv, {0, 2, 3, 3, 9}, {0, 2, 3, 3, 9}, {0, 2, 3, 3, 9}, {2, 2, 2}},
    {"a\rb"sv, {0, 2, 3, 3, 1}, {0, 2, 3, 3, 1}, {0, 2, 3, 3, 1}, {2, 2, 2}},
    {"a\fb"sv, {0, 2, 3, 3, 1}, {0, 2, 3, 3, 1}, {0, 2, 3, 3, 1}, {2, 2, 2}},
    {"a\vb"sv, {0, 2, 3, 3, 2}, {0, 2, 3, 3, 2}, {0, 2, 3, 3, 2}, {2, 2, 2}},
    {"a\001b"sv, {0, 1, 3, 3, 2}, {0, 1, 3, 3, 2}, {0, 1, 3, 3, 2}, {1, 1, 1}},
    {"a \001 b"sv, {0, 2, 5, 5, 4}, {0, 2, 5, 5, 4}, {0, 2, 5, 5, 4}, {3, 3, 3}},
    {"\001"sv, {0, 0, 1, 1, 0}, {0, 0, 1, 1, 0}, {0, 0, 1, 1, 0}, {1, 1, 1}},
    {"a\000b"sv, {0, 1, 3, 3, 2}, {0, 1, 3, 3, 2}, {0, 1, 3, 3, 2}, {1, 1, 1}},
    {"\177"sv, {0, 0, 1, 1, 0}, {0, 0, 1, 1, 0}, {0, 0, 1, 1, 0}, {1, 1, 1}},
    {"a \377 b"sv, {0, 2, 5, 5, 4}, {0, 2, 4, 5, 4}, {0, 2, 4, 5, 4}, {3, 3, 3}},
    {"a\377b"sv, {0, 1, 3, 3, 2}, {0, 1, 2, 3, 2}, {0, 1, 2, 3, 2}, {1, 1, 1}},
    {"\303\251"sv, {0, 0, 2, 2, 0}, {0, 1, 1, 2, 1}, {0, 1, 1, 2, 1}, {1, 1, 1}},
    {"a\302\240b"sv, {0, 1, 4, 4, 2}, {0, 2, 3, 4, 3}, {0, 1, 3, 4, 3}, {2, 2, 1}},
    {"a\342\200\207b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 3}, {0, 1, 3, 5, 3}, {1, 2, 1}},
    {"a\342\200\257b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 3}, {0, 1, 3, 5, 3}, {1, 2, 1}},
    {"a\342\201\240b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 2}, {0, 1, 3, 5, 2}, {2, 2, 1}},
    {"a\342\200\203b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 3}, {0, 2, 3, 5, 3}, {1, 2, 2}},
    {"a\343\200\200b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 4}, {0, 2, 3, 5, 4}, {1, 2, 2}},
    {"a\341\232\200b"sv, {0, 1, 5, 5, 2}, {0, 2, 3, 5, 3}, {0, 2, 3, 5, 3}, {1, 2, 2}},
    {"a\342\200\213b"sv, {0, 1, 5, 5, 2}, {0, 1, 3, 5, 2}, {0, 1, 3, 5, 2}, {1, 1, 1}},
    // U+2028: white space but not printable: transparent in 9.1, a
    // separator in 9.5.
    {"a\342\200\250b"sv, {0, 1, 5, 5, 2}, {0, 1, 3, 5, 2}, {0, 1, 3, 5, 2}, {1, 2, 2}},
    {"a\302\205b"sv, {0, 1, 4, 4, 2}, {0, 1, 3, 4, 2}, {0, 1, 3, 4, 2}, {1, 1, 1}},
    {"a\357\273\277b"sv, {0, 1, 5, 5, 2}, {0, 1, 3, 5, 2}, {0, 1, 3, 5, 2}, {1, 1, 1}},
    {"\344\270\255\346\226\207"sv, {0, 0, 6, 6, 0}, {0, 1, 2, 6, 4}, {0, 1, 2, 6, 4}, {1, 1, 1}},
    {"\360\237\230\200"sv, {0, 0, 4, 4, 0}, {0, 1, 1, 4, 2}, {0, 1, 1, 4, 2}, {1, 1, 1}},
    {"e\314\201"sv, {0, 1, 3, 3, 1}, {0, 1, 2, 3, 1}, {0, 1, 2, 3, 1}, {1, 1, 1}},
    {"\314\201"sv, {0, 0, 2, 2, 0}, {0, 1, 1, 2, 0}, {0, 1, 1, 2, 0}, {1, 1, 1}},
    {"\302\255"sv, {0, 0, 2, 2, 0}, {0, 1, 1, 2, 1}, {0, 1, 1, 2, 1}, {1, 1, 1}},
    {"\357\277\277"sv, {0, 0, 3, 3, 0}, {0, 0, 1, 3, 0}, {0, 0, 1, 3, 0}, {1, 1, 1}},
    {"\315\270"sv, {0, 0, 2, 2, 0}, {0, 0, 1, 2, 0}, {0, 0, 1, 2, 0}, {1, 1, 1}},
    {"\344\270"sv, {0, 0, 2, 2, 0}, {0, 0, 0, 2, 0}, {0, 0, 0, 2, 0}, {1, 1, 1}},
    {"a \344\270"sv, {0, 1, 4, 4, 2}, {0, 1, 2, 4, 2}, {0, 1, 2, 4, 2}, {2, 2, 2}},
    {"\344\270a"sv, {0, 1, 3, 3, 1}, {0, 1, 1, 3, 1}, {0, 1, 1, 3, 1}, {1, 1, 1}},
    {"\300\200"sv, {0, 0, 2, 2, 0}, {0, 0, 0, 2, 0}, {0, 0, 0, 2, 0}, {1, 1, 1}},
    {"\355\240\200"sv, {0, 0, 3, 3, 0}, {0, 0, 0, 3, 0}, {0, 0, 0, 3, 0}, {2, 1, 1}},
    {"\364\220\200\200"sv, {0, 0, 4, 4, 0}, {0, 0, 1, 4, 0}, {0, 0, 1, 4, 0}, {1, 1, 1}},
    {"\370\210\200\200\200"sv, {0, 0, 5, 5, 0}, {0, 0, 1, 5, 0}, {0, 0, 1, 5, 0}, {1, 1, 1}},
    {"\375\277\277\277\277\277"sv, {0, 0, 6, 6, 0}, {0, 0, 1, 6, 0}, {0, 0, 1, 6, 0}, {1, 1, 1}},
};

Counts from_array(const std::array<std::uint64_t, 5> &a) {
  return lwmcL(a[0], a[1], a[2], a[3], a[4]);
}

/// The settings a test runs under: locale, loop and word rule.
struct Setting {
  const char *name;
  const char *locale;
  CountOptions options;
};

std::vector<Setting> all_settings() {
  std::vector<Setting> settings;
  for (WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents}) {
    const bool v95 = rule == WordRule::non_space_constituents;
    settings.push_back({v95 ? "C 9.5" : "C 9.1", "C", make_options(Encoding::single_byte, rule)});
    settings.push_back(
        {v95 ? "UTF-8 9.5" : "UTF-8 9.1", "C.UTF-8", make_options(Encoding::utf8, rule)});
    settings.push_back({v95 ? "UTF-8 POSIXLY_CORRECT 9.5" : "UTF-8 POSIXLY_CORRECT 9.1", "C.UTF-8",
                        make_options(Encoding::utf8, rule, false)});
    settings.push_back({v95 ? "mbrtowc 9.5" : "mbrtowc 9.1", "C.UTF-8",
                        make_options(Encoding::other_multibyte, rule)});
  }
  return settings;
}

}  // namespace

TEST_CASE("reference counter: spec 1.6 grid, C locale (9.1 and 9.5)") {
  const GlobalLocale global("C");
  for (const GridRow &row : grid) {
    CAPTURE(row.input);
    const Counts want = from_array(row.c);
    CHECK(show(count_one(row.input, make_options(Encoding::single_byte,
                                                 WordRule::printable_constituents))) == show(want));
    // POSIXLY_CORRECT changes nothing in C under 9.1: byte 0xA0, the one
    // byte that is a no-break space there, is not printable, so transparent.
    CHECK(show(count_one(row.input, make_options(Encoding::single_byte,
                                                 WordRule::printable_constituents, false))) ==
          show(want));
    Counts want95 = want;
    want95.words = row.words95[0];
    CHECK(show(count_one(row.input,
                         make_options(Encoding::single_byte, WordRule::non_space_constituents))) ==
          show(want95));
    // Under 9.5+ byte 0xA0 is a no-break space in C (gnulib's btoc32), so
    // POSIXLY_CORRECT joins what it separated.
    if (row.input.find('\240') != std::string_view::npos) {
      CHECK(count_one(row.input,
                      make_options(Encoding::single_byte, WordRule::non_space_constituents, false))
                .words < want95.words);
    }
  }
}

TEST_CASE("reference counter: spec 1.6 grid, C.UTF-8 with and without POSIXLY_CORRECT") {
  const GlobalLocale global("C.UTF-8");
  for (const GridRow &row : grid) {
    CAPTURE(row.input);
    for (Encoding encoding : {Encoding::utf8, Encoding::other_multibyte}) {
      CAPTURE(int(encoding));
      const Counts want = from_array(row.utf8);
      const Counts want_posix = from_array(row.posix);
      CHECK(show(count_one(row.input, make_options(encoding, WordRule::printable_constituents))) ==
            show(want));
      CHECK(show(count_one(row.input, make_options(encoding, WordRule::printable_constituents,
                                                   false))) == show(want_posix));
      Counts want95 = want;
      want95.words = row.words95[1];
      Counts want95_posix = want_posix;
      want95_posix.words = row.words95[2];
      CHECK(show(count_one(row.input, make_options(encoding, WordRule::non_space_constituents))) ==
            show(want95));
      CHECK(show(count_one(row.input, make_options(encoding, WordRule::non_space_constituents,
                                                   false))) == show(want95_posix));
    }
  }
}

TEST_CASE("reference counter: 9.5 changes of spec 1.7 and checklist 8.1") {
  const auto v91 = WordRule::printable_constituents;
  const auto v95 = WordRule::non_space_constituents;
  struct Case {
    const char *locale;
    Encoding encoding;
    std::string_view input;
    std::uint64_t words91, words95;
  };
  const Case cases[] = {
      {"C", Encoding::single_byte, "\001\n"sv, 0, 1},    // upstream test d1, C07
      {"C", Encoding::single_byte, "a \001 b"sv, 2, 3},  // C08
      {"C", Encoding::single_byte, "\000"sv, 0, 1},
      {"C", Encoding::single_byte, "a\000b \000"sv, 1, 2},  // C09
      {"C", Encoding::single_byte, "a \377 b"sv, 2, 3},     // C10
      {"C", Encoding::single_byte, "\303\251"sv, 0, 1},
      {"C.UTF-8", Encoding::utf8, "\377"sv, 0, 1},            // U03
      {"C.UTF-8", Encoding::utf8, "a\342\200\250b"sv, 1, 2},  // U08
      {"C.UTF-8", Encoding::utf8, "a\342\200\251b"sv, 1, 2},  // U+2029
      {"C.UTF-8", Encoding::utf8, "\344\270"sv, 0, 1},        // U13
      {"C.UTF-8", Encoding::utf8, "a \344\270"sv, 1, 2},      // U14
      {"C.UTF-8", Encoding::utf8, "\364\220\200\200"sv, 0, 1},
      // An invalid byte starts a word, and a second one continues it.
      {"C.UTF-8", Encoding::utf8, "\377\377 \377"sv, 0, 2},
      // A truncated tail at EOF joins the word before it.
      {"C.UTF-8", Encoding::utf8, "ab\360\237\230"sv, 1, 1},
  };
  for (const Case &c : cases) {
    const GlobalLocale global(c.locale);
    CAPTURE(c.input);
    const Counts counts91 = count_one(c.input, make_options(c.encoding, v91));
    const Counts counts95 = count_one(c.input, make_options(c.encoding, v95));
    CHECK(counts91.words == c.words91);
    CHECK(counts95.words == c.words95);
    // -m, -c, -l and -L are the same under both rules (spec 1.7).
    Counts same = counts95;
    same.words = counts91.words;
    CHECK(show(same) == show(counts91));
  }
  // U13 in full: `printf '\344\270' | wc -wmc` gives "1 0 2" in 9.5.
  const GlobalLocale global("C.UTF-8");
  const Counts u13 = count_one("\344\270"sv, make_options(Encoding::utf8, v95));
  CHECK(show(u13) == show(lwmcL(0, 1, 0, 2, 0)));
}

TEST_CASE("reference counter: an LF after a broken sequence counts; CR/FF end -L lines") {
  const GlobalLocale global("C.UTF-8");
  const auto options = make_options(Encoding::utf8, WordRule::printable_constituents);
  CHECK(show(count_one("\344\n"sv, options)) == show(lwmcL(1, 0, 1, 2, 0)));
  CHECK(show(count_one("ab\ncdefg"sv, options)) == show(lwmcL(1, 2, 8, 8, 5)));
  // A tab at column 8 goes to 16; VT adds nothing; BS does not move back.
  CHECK(count_one("12345678\tx"sv, options).max_line_length == 17);
  CHECK(count_one("ab\vcd"sv, options).max_line_length == 4);
  CHECK(count_one("ab\bcd"sv, options).max_line_length == 4);
  // Widths are added without grapheme logic: man, ZWJ, woman = 2 + 0 + 2.
  CHECK(count_one("\360\237\221\250\342\200\215\360\237\221\251"sv, options).max_line_length == 4);
  CHECK(count_one("abc\rxy\fz"sv, options).max_line_length == 3);
}

TEST_CASE("reference counter: finish() resets the counter; finish_after_error() drops the tail") {
  const GlobalLocale global("C.UTF-8");
  ReferenceCounter counter(make_options(Encoding::utf8, WordRule::non_space_constituents));
  counter.update(as_bytes("a \344\270"sv));
  CHECK(counter.finish().words == 2);
  counter.update(as_bytes("a \344\270"sv));
  CHECK(show(counter.finish_after_error()) == show(lwmcL(0, 1, 2, 4, 2)));
  counter.update(as_bytes("xyz"sv));
  CHECK(show(counter.finish()) == show(lwmcL(0, 1, 3, 3, 3)));
  CHECK(show(counter.finish()) == show(Counts{}));
}

TEST_CASE("reference counter: class API agrees with the counter for every code point") {
  const GlobalLocale global("C.UTF-8");
  const CharClasses &classes = CharClasses::current();
  long mismatches = 0;
  for (WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents}) {
    for (bool nbsp : {true, false}) {
      const CountOptions options = make_options(Encoding::utf8, rule, nbsp);
      for (char32_t c = 0; c < 0x110000; ++c) {
        if (c >= 0xD800 && c <= 0xDFFF) continue;
        if (c == '\n' || c == '\r' || c == '\f' || c == '\t') continue;  // line controls
        std::string encoded;
        if (c < 0x80) {
          encoded = std::string(1, static_cast<char>(c));
        } else if (c < 0x800) {
          encoded = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
        } else if (c < 0x10000) {
          encoded = {static_cast<char>(0xE0 | (c >> 12)),
                     static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
                     static_cast<char>(0x80 | (c & 0x3F))};
        } else {
          encoded = {
              static_cast<char>(0xF0 | (c >> 18)), static_cast<char>(0x80 | ((c >> 12) & 0x3F)),
              static_cast<char>(0x80 | ((c >> 6) & 0x3F)), static_cast<char>(0x80 | (c & 0x3F))};
        }
        const WordClass cls =
            c < 0x80 ? classes.byte_word_class(static_cast<unsigned char>(c), rule, nbsp)
                     : classes.wide_word_class(c, rule, nbsp);
        const unsigned width = c < 0x80 ? classes.byte_width(static_cast<unsigned char>(c))
                                        : classes.wide_width(c, rule);
        const Counts alone = count_one(encoded, options);
        const Counts between = count_one("a" + encoded + "b", options);
        const bool ok = alone.chars == 1 && alone.max_line_length == width &&
                        alone.words == (cls == WordClass::constituent ? 1u : 0u) &&
                        between.words == (cls == WordClass::separator ? 2u : 1u);
        if (!ok && mismatches++ < 10) FAIL_CHECK("U+" << std::hex << std::uint32_t(c));
      }
    }
  }
  CHECK(mismatches == 0);
}

namespace {

/// Generators of test inputs: each returns a string of about `size` bytes.
using Generator = std::string (*)(std::mt19937 &, std::size_t);

std::string pick_pieces(std::mt19937 &rng, std::size_t size,
                        std::span<const std::string_view> pool) {
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  std::string out;
  while (out.size() < size) out += pool[pick(rng)];
  return out;
}

std::string gen_ascii(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",    "word",     "Hello", " ",    "  ",   "\t",
                                          "\n",   "\r\n",     "\f",    "\v",   "\001", "\177",
                                          "x\by", "12345678", ".",     "\033["};
  return pick_pieces(rng, size, pool);
}

std::string gen_multilingual(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",
                                          "héllo",
                                          " ",
                                          "\n",
                                          "\t",
                                          "中文",
                                          "日本語",
                                          "😀",
                                          "👨‍👩",
                                          "\u00a0",
                                          "\u2007",
                                          "\u202f",
                                          "\u2060",
                                          "\u3000",
                                          "\u2003",
                                          "\u1680",
                                          "\u2028",
                                          "\u2029",
                                          "e\u0301",
                                          "\u0301",
                                          "\u200b",
                                          "\ufeff",
                                          "\u00ad",
                                          "\u0085",
                                          "\uffff",
                                          "\u0378",
                                          "Ωμέγα",
                                          "русский",
                                          "\r",
                                          "\364\220\200\200",
                                          "\370\210\200\200\200",
                                          "\375\277\277\277\277\277",
                                          "🇫🇷",
                                          "ｆｕｌｌ"};
  return pick_pieces(rng, size, pool);
}

std::string gen_invalid(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",
                                          " ",
                                          "\n",
                                          "é",
                                          "中",
                                          "\344\270",
                                          "\344",
                                          "\360\237\230",
                                          "\360\237",
                                          "\340\200",
                                          "\355\240",
                                          "\355\240\200",
                                          "\300\200",
                                          "\301",
                                          "\200",
                                          "\277",
                                          "\376",
                                          "\377",
                                          "\370\200",
                                          "\374\203\200",
                                          "\370\210\200\200",
                                          "\375\277\277\277\277",
                                          "\344\n",
                                          "b\t"};
  return pick_pieces(rng, size, pool);
}

std::string gen_nul(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"\0"sv,   "a\0b"sv, " \0 "sv, "\0\n"sv,
                                          "word"sv, "\0\0"sv, "中\0"sv, "\344\0\270"sv};
  return pick_pieces(rng, size, pool);
}

std::string gen_binary(std::mt19937 &rng, std::size_t size) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string out(size, '\0');
  for (char &ch : out) ch = static_cast<char>(byte(rng));
  return out;
}

std::string gen_utf8_continuations(std::mt19937 &rng, std::size_t size) {
  // Bytes drawn from the ranges that matter to the decoder, so that long
  // and truncated forms are common.
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<int> cont(0x80, 0xBF);
  std::uniform_int_distribution<int> lead(0xC0, 0xFF);
  std::uniform_int_distribution<int> ascii(0, 0x7F);
  std::string out;
  while (out.size() < size) {
    const int k = kind(rng);
    out += static_cast<char>(k < 5 ? cont(rng) : k < 8 ? lead(rng) : ascii(rng));
  }
  return out;
}

std::string gen_long_lines(std::mt19937 &rng, std::size_t size) {
  std::uniform_int_distribution<int> pick(0, 15);
  std::string out;
  while (out.size() < size) {
    switch (pick(rng)) {
      case 0:
        out += '\t';
        break;
      case 1:
        out += '\r';
        break;
      case 2:
        out += "\xe3\x80\x80";
        break;  // U+3000, width 2
      case 3:
        out += "\xe4\xb8\xad";
        break;  // width 2
      case 4:
        out += ' ';
        break;
      default:
        out += static_cast<char>('a' + pick(rng));
        break;
    }
  }
  out += '\n';
  return out;
}

struct NamedGenerator {
  const char *name;
  Generator generate;
};

const NamedGenerator generators[] = {
    {"ascii", gen_ascii},           {"multilingual", gen_multilingual},
    {"invalid", gen_invalid},       {"nul", gen_nul},
    {"binary", gen_binary},         {"continuations", gen_utf8_continuations},
    {"long lines", gen_long_lines},
};

std::size_t count_newlines(std::string_view s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("reference counter: split invariance over generated inputs") {
  const std::vector<Setting> settings = all_settings();
  std::mt19937 rng(7);
  long inputs = 0;
  long comparisons = 0;
  long mismatches = 0;
  for (const NamedGenerator &gen : generators) {
    for (int round = 0; round < 24; ++round) {
      std::uniform_int_distribution<std::size_t> length(1, round < 16 ? 300 : 1500);
      const std::string input = gen.generate(rng, length(rng));
      ++inputs;
      Counts utf8_whole[2] = {};  // the utf8 loop's counts, per word rule
      for (const Setting &setting : settings) {
        const GlobalLocale global(setting.locale);
        CAPTURE(gen.name);
        CAPTURE(setting.name);
        const Counts whole = count_one(input, setting.options);
        // Invariants that hold in every setting.
        CHECK(whole.bytes == input.size());
        CHECK(whole.lines == count_newlines(input));
        if (setting.options.encoding == Encoding::single_byte) CHECK(whole.chars == whole.bytes);
        const auto rule_index = static_cast<std::size_t>(setting.options.word_rule);
        if (setting.options.encoding == Encoding::utf8 && setting.options.nbsp_separates_words)
          utf8_whole[rule_index] = whole;
        // The mbrtowc loop and fastwc's decoder agree in C.UTF-8 (settings
        // list the utf8 loop first).
        if (setting.options.encoding == Encoding::other_multibyte)
          CHECK(show(whole) == show(utf8_whole[rule_index]));

        // Two pieces, at every split point (0 and size give an empty piece).
        for (std::size_t cut = 0; cut <= input.size(); ++cut) {
          const Counts split = count_pieces(input, setting.options, {cut});
          ++comparisons;
          if (!(split == whole) && mismatches++ < 10)
            FAIL_CHECK("split at " << cut << ": " << show(split) << " vs " << show(whole));
        }
        // Random k pieces, empty pieces included; and one byte at a time.
        std::uniform_int_distribution<std::size_t> offset(0, input.size());
        std::uniform_int_distribution<int> pieces(3, 40);
        for (int trial = 0; trial < 20; ++trial) {
          std::vector<std::size_t> cuts(static_cast<std::size_t>(pieces(rng)) - 1);
          for (std::size_t &c : cuts) c = offset(rng);
          std::sort(cuts.begin(), cuts.end());
          const Counts split = count_pieces(input, setting.options, cuts);
          ++comparisons;
          if (!(split == whole) && mismatches++ < 10)
            FAIL_CHECK("random pieces: " << show(split) << " vs " << show(whole));
        }
        std::vector<std::size_t> every(input.size());
        for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
        ++comparisons;
        CHECK(show(count_pieces(input, setting.options, every)) == show(whole));
      }
    }
  }
  MESSAGE(inputs << " inputs, " << settings.size() << " settings, " << comparisons
                 << " split comparisons");
  CHECK(mismatches == 0);
}

TEST_CASE("reference counter: a large input in random pieces, both rules") {
  std::mt19937 rng(99);
  std::string input;
  for (const NamedGenerator &gen : generators) input += gen.generate(rng, 40'000);
  for (const Setting &setting : all_settings()) {
    const GlobalLocale global(setting.locale);
    CAPTURE(setting.name);
    const Counts whole = count_one(input, setting.options);
    std::uniform_int_distribution<std::size_t> offset(0, input.size());
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<std::size_t> cuts(200);
      for (std::size_t &c : cuts) c = offset(rng);
      std::sort(cuts.begin(), cuts.end());
      CHECK(show(count_pieces(input, setting.options, cuts)) == show(whole));
    }
  }
}
