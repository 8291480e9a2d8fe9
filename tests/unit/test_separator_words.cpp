// SPDX-License-Identifier: GPL-3.0-or-later
// GNU 9.5+'s words by the separators' byte patterns (Plan::utf8_separator_words,
// count/kernels/separator_bytes.hpp): the census of separators against a walk
// of every code point, when it is taken, and the pattern kernels against the
// scalar kernel where they are most likely to go wrong: a separator or a
// look-alike cut by a block's end, followed by bytes that do not decode, by
// four-byte characters and glibc's longer forms (which the kernel decodes
// one by one), and at the end of the data.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "count/unit_classes.hpp"
#include "kernel_test_support.hpp"
#include "locale/char_classes.hpp"

using namespace kernel_test;

namespace {

const fastwc::locale::CharClasses &utf8_locale() {
  static const fastwc::locale::CharClasses classes("C.UTF-8");
  return classes;
}

/// The code points the census describes, from its groups.
std::set<char32_t> census_code_points(const fastwc::count::SeparatorCensus &census) {
  std::set<char32_t> out;
  for (unsigned g = 0; g < census.count; ++g) {
    const fastwc::count::SeparatorGroup &group = census.groups[g];
    for (unsigned k = 0; k < 64; ++k) {
      if (((group.last >> k) & 1) == 0) continue;
      if (group.second == 0)
        out.insert((char32_t{group.lead & 0x1Fu} << 6) | k);
      else
        out.insert((char32_t{group.lead & 0x0Fu} << 12) | (char32_t{group.second & 0x3Fu} << 6) |
                   k);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("separator census: every separator above U+007F, taken past its threshold") {
  for (const bool nbsp : {true, false}) {
    CAPTURE(nbsp);
    const UnitClasses classes(utf8_locale(), WordRule::non_space_constituents, nbsp);
    std::set<char32_t> bmp;
    bool above = false;
    bool transparent = false;
    for (char32_t c = 0x80; c < 0x110000; ++c) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      const std::uint8_t word = classes.wide(c) & fastwc::count::unit_props::word_mask;
      transparent = transparent || word == 0;
      if (word != fastwc::count::unit_props::separator) continue;
      if (c < 0x10000)
        bmp.insert(c);
      else
        above = true;
    }
    CHECK_FALSE(transparent);  // nothing is, under the 9.5 rule
    CHECK(bmp.count(0x00A0) == (nbsp ? 1 : 0));
    CHECK(bmp.count(0x3000) == 1);
    // Below the threshold nothing is walked; the call that passes it takes
    // the census of two- and three-byte characters.
    CHECK(classes.separator_census(UnitClasses::census_threshold - 1) == nullptr);
    const fastwc::count::SeparatorCensus *census = classes.separator_census(1);
    REQUIRE(census != nullptr);
    CHECK(census_code_points(*census) == bmp);
    CHECK_FALSE(census->four_byte_clear);
    // Four-byte characters looked up for want of the rest take it.
    classes.note_four_byte_lookups(UnitClasses::four_byte_census_threshold - 1);
    CHECK_FALSE(classes.separator_census(0)->four_byte_clear);
    classes.note_four_byte_lookups(1);
    census = classes.separator_census(0);
    CHECK(census->four_byte_clear == !above);
    CHECK(census_code_points(*census) == bmp);
  }
  // GNU 9.1's rule has transparent characters: no census.
  const UnitClasses old_rule(utf8_locale(), WordRule::printable_constituents, true);
  CHECK_FALSE(old_rule.take_separator_census(true));
  CHECK(old_rule.separator_census(UnitClasses::census_threshold) == nullptr);
}

TEST_CASE("separator words: separators and look-alikes at every offset around a block's end") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  std::vector<Case> cases;
  for (const Case &c : all_cases())
    if (c.request.plan == Plan::utf8_separator_words || c.name.starts_with("separator chars"))
      cases.push_back(c);
  REQUIRE(cases.size() >= 16);
  const std::uint64_t before = comparisons;
  // Separators of every length and lead, GNU's no-break spaces, and
  // characters that share a separator's lead, second byte or nibbles.
  const std::string separators[] = {"\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u202f",
                                    "\u205f", "\u2060", "\u3000", "\u2026", "\u200d", "\u00a1",
                                    "\u2020", "\u2061", "\u3001", "\u16a0", "\u2028", "x"};
  const std::string followers[] = {"y",
                                   " ",
                                   "\x80",
                                   "\x80\x80\x80",
                                   "\xe2\x80",
                                   "\U0001F600",
                                   "\xf4\x90\x80\x80",
                                   "\xf8\x88\x80\x80\x80",
                                   "\xfc\x84\x80\x80\x80\x80",
                                   "\xff",
                                   "\u00e9"};
  for (std::size_t offset = 52; offset < 68; ++offset)
    for (const std::string &sep : separators)
      for (const std::string &follower : followers) {
        // Twice, the second after a block with the follower; then the
        // data's end right after the follower.
        std::string s(offset, 'a');
        s += sep + follower;
        s += std::string(64 - s.size() % 64 + offset, ' ') + sep + follower + sep;
        s.append(80, 'b');
        s += sep + follower;
        check_exact(s, cases);
        check_exact(s.substr(0, s.size() - 1), cases);
      }
  CHECK(comparisons > before);
}

TEST_CASE("separator words: bytes beyond the census among runs of text, at every distance") {
  // With VBMI the pattern kernel's lean loops stop at a block with bytes
  // beyond the census (F4..FF always, four-byte leads until the census has
  // walked their planes), and the full loop hands back after eight blocks
  // without: runs of text of every length in blocks between them, with
  // separators cut by the blocks' ends where the loops change hands. Text
  // whose blocks mostly hold a separator's lead takes the dense loop, text
  // where they are few the sparse one (separators_in_stride.hpp). With -m
  // the valid runs go in stride too (separator_chars_in_stride.hpp), which
  // decodes the characters beyond the census where it meets them.
  if (simd_kernels().empty()) return;
  std::vector<Case> cases;
  for (const Case &c : all_cases())
    if (c.request.plan == Plan::utf8_separator_words || c.name.starts_with("separator chars"))
      cases.push_back(c);
  REQUIRE(!cases.empty());
  const std::string plain[] = {"\u0436\u0438\u0437\u043d\u044c", " ", "\u65e5\u672c", "x"};
  const std::string watched[] = {"\u00a0", "\u3000", "\u2003", "x\u202f", "\u2060", "\u3042"};
  const std::string beyond[] = {"\xf4\x90\x80\x80", "\xff", "\xf8\x88\x80\x80\x80",
                                "\U0001F600",       "\xf5", "\U00020000"};
  for (const unsigned watched_in_64 : {40u, 1u}) {
    CAPTURE(watched_in_64);
    std::mt19937 rng(20261206);
    const std::uint64_t before = comparisons;
    std::string s;
    for (unsigned blocks = 0; blocks < 20; ++blocks)
      for (const std::string &odd : beyond) {
        // `blocks` blocks of text (give or take a character), then the odd
        // bytes, twice in a row at times.
        const std::size_t end = s.size() + blocks * 64 + rng() % 64;
        while (s.size() < end)
          s += rng() % 64 < watched_in_64 ? watched[rng() % std::size(watched)]
                                          : plain[rng() % std::size(plain)];
        s += odd;
        if (rng() % 3 == 0) s += odd;
      }
    check_exact(s, cases);
    CHECK(comparisons > before);
  }
}
