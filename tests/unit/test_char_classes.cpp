// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of locale/char_classes: the cached classes equal the C library's
// answers for every code point, the word classes reproduce the separator
// sets that GNU wc 9.1 shows (wc.c's isspace/iswspace and isprint/iswprint tests) and their 9.5
// changes, and concurrent first use from several threads gives the same tables.
#include <doctest/doctest.h>
#include <wchar.h>

#include <cctype>
#include <clocale>
#include <cstdint>
#include <cwctype>
#include <ios>
#include <thread>
#include <vector>

#include "locale/char_classes.hpp"

namespace {

using fastwc::WordRule;
using fastwc::locale::CharClasses;
using fastwc::locale::CharInfo;
using fastwc::locale::WordClass;

constexpr auto v91 = WordRule::printable_constituents;
constexpr auto v95 = WordRule::non_space_constituents;

struct GlobalLocale {
  explicit GlobalLocale(const char *name) { REQUIRE(std::setlocale(LC_ALL, name) != nullptr); }
  ~GlobalLocale() { std::setlocale(LC_ALL, "C"); }
  GlobalLocale(const GlobalLocale &) = delete;
  GlobalLocale &operator=(const GlobalLocale &) = delete;
};

}  // namespace

TEST_CASE("char classes: CharInfo packing") {
  const CharInfo info = CharInfo::make(true, false, true, 2);
  CHECK(info.space());
  CHECK_FALSE(info.print());
  CHECK(info.nbsp());
  CHECK(info.width() == 2);
  CHECK(CharInfo::make(false, true, false, -1).width() == 0);
  CHECK(CharInfo::make(false, true, false, 0).width() == 0);
  CHECK(CharInfo::make(false, true, false, 1).width() == 1);
  CHECK(CharInfo::make(false, false, false, 0) == CharInfo{});
}

TEST_CASE("char classes: the C locale's byte table is isspace/isprint (GNU wc.c)") {
  const CharClasses classes("C");
  CHECK(classes.mb_cur_max() == 1);
  // The global locale is "C" here, so <cctype> answers for the same locale.
  for (int b = 0; b < 256; ++b) {
    const auto byte = static_cast<unsigned char>(b);
    const CharInfo info = classes.byte_info(byte);
    CAPTURE(b);
    CHECK(info.space() == (std::isspace(b) != 0));
    CHECK(info.print() == (std::isprint(b) != 0));
    // glibc's btowc fails for 0x80..0xFF in C, but GNU 9.5+'s btoc32
    // (gnulib) maps them to U+0080..U+00FF: 0xA0 is a no-break space.
    CHECK(info.nbsp() == (b == 0xA0));
    CHECK(classes.byte_width(byte) == (std::isprint(b) != 0 ? 1u : 0u));

    // GNU wc in C: separators 09-0D and 20, constituents 21-7E, the rest
    // (00-08, 0E-1F, 7F, 80-FF) transparent; 9.5 makes them constituents.
    const bool sep = (b >= 0x09 && b <= 0x0D) || b == 0x20;
    const bool con = b >= 0x21 && b <= 0x7E;
    const WordClass want91 = sep   ? WordClass::separator
                             : con ? WordClass::constituent
                                   : WordClass::transparent;
    CHECK(classes.byte_word_class(byte, v91, true) == want91);
    CHECK(classes.byte_word_class(byte, v91, false) == want91);
    CHECK(classes.byte_word_class(byte, v95, true) ==
          (sep || b == 0xA0 ? WordClass::separator : WordClass::constituent));
    CHECK(classes.byte_word_class(byte, v95, false) ==
          (sep ? WordClass::separator : WordClass::constituent));
  }
  CHECK(CharClasses::invalid_word_class(v91) == WordClass::transparent);
  CHECK(CharClasses::invalid_word_class(v95) == WordClass::constituent);
}

TEST_CASE("char classes: every code point below U+110000 equals iswspace/iswprint/wcwidth") {
  const GlobalLocale global("C.UTF-8");
  const CharClasses classes("C.UTF-8");
  CHECK(classes.mb_cur_max() == 6);
  long mismatches = 0;
  for (char32_t c = 0; c < 0x110000; ++c) {
    const CharInfo info = classes.wide_info(c);
    const auto wide = static_cast<wint_t>(c);
    const int width = wcwidth(static_cast<wchar_t>(c));
    const bool ok = info.space() == (std::iswspace(wide) != 0) &&
                    info.print() == (std::iswprint(wide) != 0) &&
                    info.width() == static_cast<unsigned>(width > 0 ? width : 0) &&
                    info.nbsp() == (c == 0xA0 || c == 0x2007 || c == 0x202F || c == 0x2060);
    if (!ok && mismatches++ < 10) FAIL_CHECK("mismatch at U+" << std::hex << std::uint32_t(c));
  }
  CHECK(mismatches == 0);
  // Beyond the cache: 0x110000..0x7FFFFFFF are computed directly.
  for (char32_t c : {char32_t{0x110000}, char32_t{0x1FFFFF}, char32_t{0x200000},
                     char32_t{0x4000000}, char32_t{0x7FFFFFFF}}) {
    const CharInfo info = classes.wide_info(c);
    CHECK(info.print() == (std::iswprint(static_cast<wint_t>(c)) != 0));
    CHECK(info.space() == (std::iswspace(static_cast<wint_t>(c)) != 0));
    CHECK(info.width() == 0);
  }
}

TEST_CASE("char classes: the classes do not depend on the global locale") {
  // Built and filled while the global locale is "C": still C.UTF-8 answers.
  const CharClasses utf8("C.UTF-8");
  CHECK(utf8.wide_info(0x4E2D).print());
  CHECK(utf8.wide_info(0x4E2D).width() == 2);
  CHECK(utf8.wide_info(0x3000).space());
  const CharClasses c_locale("C");
  CHECK_FALSE(c_locale.wide_info(0x4E2D).print());
}

TEST_CASE("char classes: the 17 non-ASCII separators of 9.1 (13 with POSIXLY_CORRECT)") {
  const CharClasses classes("C.UTF-8");
  std::vector<char32_t> separators;
  std::vector<char32_t> posix_separators;
  std::vector<char32_t> separators95;
  for (char32_t c = 0x80; c < 0x110000; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    if (classes.wide_word_class(c, v91, true) == WordClass::separator) separators.push_back(c);
    if (classes.wide_word_class(c, v91, false) == WordClass::separator)
      posix_separators.push_back(c);
    if (classes.wide_word_class(c, v95, true) == WordClass::separator) separators95.push_back(c);
  }
  const std::vector<char32_t> want = {0xA0,   0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
                                      0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
                                      0x200A, 0x202F, 0x205F, 0x2060, 0x3000};
  CHECK(separators == want);
  CHECK(posix_separators.size() == 13);
  // 9.5: non-printable white space (U+2028, U+2029) separates too.
  std::vector<char32_t> want95 = want;
  want95.insert(want95.begin() + 13, {0x2028, 0x2029});
  CHECK(separators95 == want95);
}

TEST_CASE("char classes: word classes and widths of the grid's characters") {
  const CharClasses classes("C.UTF-8");
  struct Row {
    char32_t c;
    WordClass v91;
    WordClass v91_posix;
    WordClass v95;
    unsigned width;
  };
  const auto S = WordClass::separator;
  const auto C = WordClass::constituent;
  const auto T = WordClass::transparent;
  const Row rows[] = {
      {'a', C, C, C, 1},        {0x00, T, T, C, 0},   {0x01, T, T, C, 0},    {0x7F, T, T, C, 0},
      {0xE9, C, C, C, 1},       {0xA0, S, C, S, 1},   {0x2007, S, C, S, 1},  {0x202F, S, C, S, 1},
      {0x2060, S, C, S, 0},     {0x2003, S, S, S, 1}, {0x3000, S, S, S, 2},  {0x1680, S, S, S, 1},
      {0x200B, C, C, C, 0},     {0x2028, T, T, S, 0}, {0x2029, T, T, S, 0},  {0x85, T, T, C, 0},
      {0xFEFF, C, C, C, 0},     {0x4E2D, C, C, C, 2}, {0x1F600, C, C, C, 2}, {0x301, C, C, C, 0},
      {0xAD, C, C, C, 1},       {0xFFFF, T, T, C, 0}, {0x378, T, T, C, 0},   {0x110000, T, T, C, 0},
      {0x7FFFFFFF, T, T, C, 0}, {'\t', S, S, S, 0},   {'\v', S, S, S, 0},
  };
  for (const Row &row : rows) {
    CAPTURE(std::uint32_t(row.c));
    CHECK(classes.wide_word_class(row.c, v91, true) == row.v91);
    CHECK(classes.wide_word_class(row.c, v91, false) == row.v91_posix);
    CHECK(classes.wide_word_class(row.c, v95, true) == row.v95);
    if (row.c >= 0x80) {
      CHECK(classes.wide_width(row.c, v91) == row.width);
      CHECK(classes.wide_width(row.c, v95) == row.width);
    }
  }
  CHECK(classes.byte_width(' ') == 1);
  CHECK(classes.byte_width('\v') == 0);
}

TEST_CASE("char classes: concurrent first use fills identical blocks") {
  std::vector<CharInfo> expected;
  {
    const CharClasses reference("C.UTF-8");
    for (char32_t c = 0; c < 0x110000; ++c) expected.push_back(reference.wide_info(c));
  }
  const CharClasses shared("C.UTF-8");
  constexpr int thread_count = 8;
  std::vector<long> mismatches(thread_count, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      // Every thread walks all blocks. Even threads start together at U+0000
      // and race for the same fresh blocks; odd ones start elsewhere and meet
      // the others' blocks half-way through.
      const char32_t start = t % 2 == 0 ? 0 : static_cast<char32_t>(t) * 0x22000;
      for (char32_t i = 0; i < 0x110000; ++i) {
        const char32_t c = (start + i) % 0x110000;
        if (!(shared.wide_info(c) == expected[c])) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto &thread : threads) thread.join();
  for (long m : mismatches) CHECK(m == 0);
}

TEST_CASE("char classes: current() follows setlocale and is shared") {
  {
    const GlobalLocale global("C.UTF-8");
    const CharClasses &a = CharClasses::current();
    const CharClasses &b = CharClasses::current();
    CHECK(&a == &b);
    CHECK(a.mb_cur_max() == 6);
  }
  const CharClasses &c = CharClasses::current();
  CHECK(c.mb_cur_max() == 1);
  CHECK_THROWS(CharClasses("xx_YY.NOPE"));
}
