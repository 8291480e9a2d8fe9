// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of count/reference_counter: a grid of examples (values from GNU wc
// 9.1 and 9.5) in C, C.UTF-8 and C.UTF-8 with POSIXLY_CORRECT,
// the 9.5 word rule (coreutils 9.5 NEWS), agreement of the class API with the
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
#include "reference_test_support.hpp"

using namespace std::string_view_literals;

namespace {

using namespace reference_test;

/// One row of the grid: the input, `wc -lwmcL` in C, C.UTF-8 and
/// C.UTF-8 with POSIXLY_CORRECT (9.1), and the word counts of 9.5 in the
/// same three settings (only -w changes).
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

}  // namespace

TEST_CASE("reference counter: the grid, C locale (9.1 and 9.5)") {
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

TEST_CASE("reference counter: the grid, C.UTF-8 with and without POSIXLY_CORRECT") {
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

TEST_CASE("reference counter: what the 9.5 word rule changes") {
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
    // -m, -c, -l and -L are the same under both rules.
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
