// SPDX-License-Identifier: GPL-3.0-or-later
// Words and widths in stride by cell (count/kernels/cells_in_stride.hpp,
// with the census of count/cell_census.hpp): the census against the classes
// and widths of every code point, and the stride kernels against the scalar
// kernel on text that mixes more cells in one call than their cache holds
// and more in one block than their rounds allow, under both word rules.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "count/cell_census.hpp"
#include "count/unit_classes.hpp"
#include "kernel_test_support.hpp"
#include "locale/char_classes.hpp"

using namespace kernel_test;
using fastwc::count::CellCensus;
using fastwc::count::CellMasks;
namespace unit_props = fastwc::count::unit_props;

namespace {

const fastwc::locale::CharClasses &utf8_locale() {
  static const fastwc::locale::CharClasses classes("C.UTF-8");
  return classes;
}

bool constituent(const UnitClasses &classes, char32_t c) {
  return (classes.wide(c) & unit_props::word_mask) == unit_props::constituent;
}

/// More ASCII than the stride rests after a block it leaves to the other
/// classifiers (StridePolicy::pause), so that the stride meets the cells
/// that follow.
std::string stride_gap() {
  std::string a;
  while (a.size() < 2200) a += "ww ";
  return a;
}

std::vector<Case> cell_census_cases() {
  std::vector<Case> cases;
  for (const Case &c : all_cases())
    if (c.name.rfind("cells ", 0) == 0) cases.push_back(c);
  return cases;
}

unsigned columns(const UnitClasses &classes, char32_t c) {
  return (classes.wide(c) & unit_props::width_mask) >> unit_props::width_shift;
}

/// The sets of CellCensus a cell or lead belongs to: constituents alone (1),
/// one column alone (2), two columns alone (4).
unsigned uniform_sets(const CellMasks &m) {
  constexpr std::uint64_t all = ~std::uint64_t{0};
  return ((m.separators | m.transparent) == 0 ? 1u : 0u) | (m.narrow == all ? 2u : 0u) |
         (m.wide == all ? 4u : 0u);
}

unsigned lead_sets(const CellCensus &census, unsigned lead) {
  const unsigned i = lead - 0xC0;
  return static_cast<unsigned>(((census.constituent_leads >> i) & 1) |
                               (((census.narrow_leads >> i) & 1) << 1) |
                               (((census.wide_leads >> i) & 1) << 2));
}

unsigned cell_sets(const std::uint64_t (&constituent)[16], const std::uint64_t (&narrow)[16],
                   const std::uint64_t (&wide)[16], unsigned h, unsigned s) {
  return static_cast<unsigned>(((constituent[h] >> s) & 1) | (((narrow[h] >> s) & 1) << 1) |
                               (((wide[h] >> s) & 1) << 2));
}

}  // namespace

TEST_CASE("cell census: every code point's class and width, under both rules") {
  for (const WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents})
    for (const bool nbsp : {true, false}) {
      CAPTURE(static_cast<int>(rule));
      CAPTURE(nbsp);
      const UnitClasses classes(utf8_locale(), rule, nbsp);
      // Not below its threshold, then at once.
      CHECK(classes.cell_census(UnitClasses::cell_census_threshold - 1) == nullptr);
      const CellCensus *census = classes.cell_census(1);
      REQUIRE(census != nullptr);
      for (unsigned lead = 0xC0; lead <= 0xFF; ++lead) {
        CAPTURE(lead);
        const unsigned settled = lead_sets(*census, lead);
        if (lead < 0xC2 || lead >= 0xF0) {
          CHECK(settled == 0);  // no valid character, or four bytes
          continue;
        }
        const bool two = lead < 0xE0;
        const char32_t first = two ? (char32_t{lead & 0x1Fu} << 6) : (char32_t{lead & 0x0Fu} << 12);
        unsigned all = 7;
        for (unsigned s = 0; s < (two ? 1u : 64u); ++s) {
          const char32_t cell = first + (two ? 0 : s << 6);
          if (cell < 0x800 && !two) continue;              // overlong
          if (cell >= 0xD800 && cell <= 0xDFFF) continue;  // surrogates
          CellMasks want{0, 0, 0, 0};
          for (unsigned k = 0; k < 64; ++k) {
            const std::uint64_t bit = std::uint64_t{1} << k;
            const std::uint8_t word = classes.wide(cell + k) & unit_props::word_mask;
            if (word == unit_props::separator) want.separators |= bit;
            if (word == 0) want.transparent |= bit;
            if (columns(classes, cell + k) == 1) want.narrow |= bit;
            if (columns(classes, cell + k) == 2) want.wide |= bit;
          }
          const CellMasks got = classes.cell_masks(cell >> 6);
          CHECK(got.separators == want.separators);
          CHECK(got.transparent == want.transparent);
          CHECK(got.narrow == want.narrow);
          CHECK(got.wide == want.wide);
          if (two) {
            const CellMasks &census_cell = census->two_byte[lead & 0x1F];
            CHECK(census_cell.separators == want.separators);
            CHECK(census_cell.transparent == want.transparent);
            CHECK(census_cell.narrow == want.narrow);
            CHECK(census_cell.wide == want.wide);
          } else {
            CHECK(cell_sets(census->constituent_cells, census->narrow_cells, census->wide_cells,
                            lead & 0x0F, s) == uniform_sets(want));
          }
          all &= uniform_sets(want);
        }
        CHECK(settled == all);
      }
      // Plane 1's cells (emoji), by their third byte.
      for (unsigned t = 0; t < 64; ++t) {
        bool constituents = true;
        bool narrow = true;
        bool wide = true;
        for (char32_t c = 0x1F000 + 64 * t; c < 0x1F000 + 64 * (t + 1); ++c) {
          constituents = constituents && constituent(classes, c);
          narrow = narrow && columns(classes, c) == 1;
          wide = wide && columns(classes, c) == 2;
        }
        CHECK(((census->plane1_constituent_cells >> t) & 1) == (constituents ? 1u : 0u));
        CHECK(((census->plane1_narrow_cells >> t) & 1) == (narrow ? 1u : 0u));
        CHECK(((census->plane1_wide_cells >> t) & 1) == (wide ? 1u : 0u));
      }
    }
  // glibc's C.UTF-8: the CJK ideographs' leads settle their characters,
  // two columns wide; Cyrillic's D0 and D1 one column wide; E2 and E3 hold
  // white space, so never for words.
  const UnitClasses classes(utf8_locale(), WordRule::printable_constituents, true);
  const CellCensus *census = classes.take_cell_census();
  for (const unsigned lead : {0xE4u, 0xE5u, 0xE6u, 0xE7u, 0xE8u, 0xE9u})
    CHECK(lead_sets(*census, lead) == 5u);
  for (const unsigned lead : {0xD0u, 0xD1u}) CHECK(lead_sets(*census, lead) == 3u);
  for (const unsigned lead : {0xC2u, 0xE2u, 0xE3u})
    CHECK(((census->constituent_leads >> (lead - 0xC0)) & 1) == 0);
  CHECK(constituent(classes, 0x4E00));
  // U+1F600..U+1F63F (emoticons) are all assigned and two columns wide;
  // U+1F1C0..U+1F1E5, before the regional indicators, are not assigned.
  CHECK(((census->plane1_constituent_cells >> 0x18) & 1) == 1);
  CHECK(((census->plane1_wide_cells >> 0x18) & 1) == 1);
  CHECK(((census->plane1_constituent_cells >> 0x07) & 1) == 0);
}

TEST_CASE("words in stride: more cells than the cache, and than a block's rounds") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  const std::vector<Case> cases = cell_census_cases();
  REQUIRE(cases.size() >= 6);
  // The characters of cells that hold separators or transparent
  // characters (so that the kernels look their cells up), in every plane
  // where glibc has such cells, with some of their neighbours.
  const UnitClasses &classes = cell_census_classes(WordRule::printable_constituents, true);
  std::vector<char32_t> pool;
  for (char32_t c = 0x80; c < 0x110000; c += (c < 0x30000 ? 1 : 61)) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    const CellMasks w = classes.cell_masks(c >> 6);
    if ((w.separators | w.transparent) != 0 || c % 97 == 0) pool.push_back(c);
  }
  REQUIRE(pool.size() > 10000);
  std::mt19937 rng(20261202);
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  std::uniform_int_distribution<int> spacing(0, 9);
  const std::uint64_t before = comparisons;
  for (const std::size_t run : {1u, 3u, 40u}) {
    // Runs of one cell's characters (`run` long), so that blocks hold from
    // one cell to a dozen and more.
    std::string s;
    while (s.size() < (1u << 16)) {
      const char32_t base = pool[pick(rng)];
      for (std::size_t k = 0; k < run; ++k) {
        append_utf8(s, (base & ~char32_t{63}) | ((base + k * 7) & 63));
        const int gap = spacing(rng);
        if (gap == 0) s += ' ';
        if (gap == 1) s += '\x01';
        if (gap == 2) s += 'w';
      }
    }
    check_exact(s, cases);
  }
  CHECK(comparisons > before);
}

TEST_CASE("words in stride: cells met again after their slots went to others") {
  // With VBMI the stride keeps the three-byte cells it meets in 13 slots,
  // for the cells of eight rows (a lead's cells whose second bytes share
  // bit 5), taken in turn (classify_three_byte.hpp): text that goes through
  // more cells than that, again and again, meets cells whose slots went to
  // others; the leads after eight rows look where no cell may be, whatever
  // cell the eighth row's last one (EF BF) is.
  if (simd_kernels().empty()) return;
  const std::vector<Case> cases = cell_census_cases();
  const UnitClasses &classes = cell_census_classes(WordRule::printable_constituents, true);
  std::vector<char32_t> cells;  // first code points of cells that need a look
  for (const char32_t first : {0x1000u, 0x2000u, 0x3000u})
    for (char32_t c = first; c < first + 0x1000; c += 64) {
      const CellMasks w = classes.cell_masks(c >> 6);
      if ((w.separators | w.transparent) != 0) cells.push_back(c);
    }
  REQUIRE(cells.size() > 40);
  std::set<char32_t> rows;  // by lead and second byte's bit 5: c >> 11
  for (const char32_t c : cells) rows.insert(c >> 11);
  REQUIRE(rows.size() == 5);  // of E1, E2 and E3
  cells.push_back(0x0900);    // lead E0 (Devanagari), second byte A4: the sixth
  cells.push_back(0x0940);
  cells.push_back(0xA800);  // EA A0: the seventh
  cells.push_back(0xFFC0);  // lead EF, second byte BF: the eighth row's last
  cells.push_back(0xD7C0);  // ED 9F and EA 99: after eight rows
  cells.push_back(0xA640);
  const std::uint64_t before = comparisons;
  std::string s;
  // Each cell's characters, then a gap, so that the stride meets every cell.
  const std::string ascii = stride_gap();
  for (int round = 0; round < 3; ++round)
    for (const char32_t first : cells) {
      for (char32_t k = 0; k < 64; ++k) {
        append_utf8(s, first + k);
        if (k % 5 == 0) s += ' ';
      }
      s += ascii;
    }
  check_exact(s, cases);
  CHECK(comparisons > before);
}

TEST_CASE("words in stride: a lead without a row while the slots span fewer vectors") {
  // With VBMI, while eight slots and two rows (four) hold every three-byte
  // cell met, the stride looks in the slot table's first vector (two)
  // alone, where a lead without a row looks at byte 63 (127): the second
  // (fourth) row's last cell, settled here (E3 9F, E3 BF), must not take
  // it, or the separators, transparent and wide characters of E1 (EA) met
  // next would count as that cell's. Then the slots widen mid-run.
  if (simd_kernels().empty()) return;
  const std::vector<Case> cases = cell_census_cases();
  const std::string ascii = stride_gap();
  std::string s = ascii;
  const auto add = [&s, &ascii](std::initializer_list<char32_t> chars) {
    for (int k = 0; k < 9; ++k)
      for (const char32_t c : chars) {
        append_utf8(s, c);
        s += k % 2 == 0 ? "x" : " ";
      }
    s += ascii;
  };
  const std::uint64_t before = comparisons;
  for (int round = 0; round < 2; ++round) {
    add({0x2010, 0x201C, 0x3001, 0x37C0});  // E2 80, E3 80, E3 9F: two rows
    add({0x1680, 0x1100, 0x1200, 0x1681});  // E1 at byte 63; then its row, the third
    add({0x3800, 0x3FC0});                  // E3 A0 and E3 BF: the fourth row
    add({0xAC00, 0xA82D, 0xA830, 0xAC01});  // EA at byte 127
    for (char32_t c = 0x2100; c < 0x2F00; c += 0x100) append_utf8(s, c);  // more rows
    s += ascii;
  }
  check_exact(s, cases);
  CHECK(comparisons > before);
}

TEST_CASE("leads alone: every lead with second bytes and endings around a block's end") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  // GNU 9.1's words and -L, without -m: blocks judged by their leads.
  std::vector<Case> cases;
  for (const Case &c : cell_census_cases())
    if (c.request.plan == Plan::utf8_lead_words || c.request.plan == Plan::utf8_lead_width)
      cases.push_back(c);
  REQUIRE(cases.size() == 2 + 6);
  const std::uint64_t before = comparisons;
  // Second bytes at the edges of the ranges that make overlong forms,
  // surrogates and values above U+10FFFF, and bytes that continue nothing.
  const unsigned seconds[] = {0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC3};
  // What follows the lead and its second byte: enough continuation bytes
  // for any lead, one, none, or a lead.
  const std::string endings[] = {"\x80\x80\x80\x80 x", "\x80 x", " x", "\xc3\xa9 x"};
  for (unsigned lead = 0xC0; lead <= 0xFF; ++lead)
    for (const unsigned second : seconds)
      for (const std::string &ending : endings) {
        std::string s = "y ";
        for (std::size_t offset = 60; offset <= 66; ++offset) {
          // The lead `offset` bytes into a block, so that its sequence
          // reaches into the next one from every byte.
          while (s.size() % 64 != offset % 64) s += s.size() % 3 == 0 ? ' ' : 'a';
          s += static_cast<char>(lead);
          s += static_cast<char>(second);
          s += ending;
        }
        s.append(70, 'b');
        check_exact(s, cases);
      }
  CHECK(comparisons > before);
}

TEST_CASE("words in stride: the shuffles' slots and rows, refilled and spent") {
  // Without VBMI (SSSE3, AVX2, AVX-512BW) the cells a kernel call meets
  // take eight slots, and two three-byte leads a row of their settled cells
  // (classify_by_cell_slots.hpp). Blocks that mix: a lead's cells in
  // consecutive slots (kana's E3 80..83); two-byte leads of both shuffle
  // tables (C2..CF, D0..DF) beside three-byte characters; four-byte leads
  // whose low nibble a three-byte lead's salt takes (F0 beside E0, F3
  // beside E3); cells of two leads with the same second byte (E2 80, E3
  // 80), which may take each other's slots; a third lead with settled cells
  // once both rows are taken; then more cells than the call's install
  // budget, and the first blocks again, which the slots no longer take.
  if (simd_kernels().empty()) return;
  const std::vector<Case> cases = cell_census_cases();
  const std::string ascii = stride_gap();
  const std::vector<std::vector<char32_t>> blocks = {
      {0x3001, 0x3042, 0x30A2, 0x30FC, 0x3000},                  // E3 80..83
      {0x00A0, 0x00E9, 0x0387, 0x05D0, 0x0627, 0x2019, 0x2014},  // C2 C3 CE D7 D8, E2 80
      {0x05C3, 0x01C8, 0x060C, 0x0482, 0x0640, 0x2026, 0x01CF},  // D7 C7 D8 D2 D9, E2 80
      // DE (Thaana) and CE of one low nibble: CE 80 is unassigned, DE 80 a letter.
      {0x0780, 0x0380, 0x05C3, 0x00A0, 0x2026, 0x0387, 0x07B2, 0x0080},
      {0x0915, 0x10348, 0x0964, 0x1F600, 0x0901},        // E0 A4 A5, F0 90 9F
      {0x3042, 0xD0000, 0x3001, 0xF0000, 0xC1000},       // E3 81 80, F3 90 B0 81
      {0x2000, 0x3000, 0x2028, 0x3003, 0x2060, 0x3004},  // E2 80 81, E3 80
      {0xFF01, 0xFF21, 0xFF41, 0xFF61, 0xFFE0, 0xFFFD},  // EF BC BD BF
      {0x1680, 0x1100, 0x1361, 0xAC00, 0xA830, 0xD7B0},  // E1, EA B0 A0, ED 9E
      {0x4E00, 0x3400, 0x9FFF, 0x2E80, 0x2FF0},          // E4 E9 settled, E2 BA BF
  };
  std::string s = ascii;
  const auto add = [&s, &ascii](const std::vector<char32_t> &chars) {
    for (int k = 0; k < 9; ++k)
      for (const char32_t c : chars) {
        append_utf8(s, c);
        s += k % 3 == 0 ? " " : k % 3 == 1 ? "x" : "";
      }
    s += ascii;
  };
  const std::uint64_t before = comparisons;
  // Twice: the second time, cells whose slots went to others.
  for (int round = 0; round < 2; ++round)
    for (const std::vector<char32_t> &b : blocks) add(b);
  // E2's 64 cells, three at a time: past the budget.
  for (char32_t c = 0x2000; c < 0x3000; c += 3 * 64) add({c + 5, c + 64 + 7, c + 128 + 9});
  for (const std::vector<char32_t> &b : blocks) add(b);
  check_exact(s, cases);
  CHECK(comparisons > before);
}

TEST_CASE("words in stride: four-byte characters met mid-run, at every offset") {
  // With VBMI the stride's loop stops at the first block with four-byte
  // characters to look up and goes on in a loop that classifies emoji
  // inline (CellsInStride::run): they come first, mid-run and last, cut by
  // a block's end, in cells with slots and without, emoji and not.
  if (simd_kernels().empty()) return;
  const std::vector<Case> cases = cell_census_cases();
  const char32_t scripts[][4] = {{0x043F, 0x0440, 0x0438, 0x0432},   // Cyrillic
                                 {0x03B1, 0x03AC, 0x0390, 0x03C9},   // Greek, one mixed cell
                                 {0x00E9, 0x00A0, 0x2019, 0x20AC},   // Latin, NBSP, quote
                                 {0x6F22, 0x5B57, 0x3001, 0x30AB}};  // CJK, kana
  const char32_t four_byte[] = {0x1F600, 0x1F3FD, 0x1F1EB, 0x1F46A, 0x1F9D1, 0x1D400,
                                0x20000, 0x1FAFF, 0x1F004, 0x10348, 0xE0041};
  const std::uint64_t before = comparisons;
  std::string s;
  for (const auto &script : scripts)
    for (const char32_t c : four_byte)
      for (unsigned offset = 0; offset < 70; offset += 3) {
        std::string text;
        for (unsigned k = 0; text.size() < 200 + offset; ++k) {
          append_utf8(text, script[k % 4]);
          if (k % 5 == 4) text += ' ';
        }
        append_utf8(text, c);
        if (offset % 2 == 0) append_utf8(text, 0x200D);  // a ZWJ sequence's joiner
        append_utf8(text, c);
        for (unsigned k = 0; k < 80; ++k) append_utf8(text, script[k % 4]);
        s += text;
        s += offset % 9 == 0 ? stride_gap() : " ";
      }
  check_exact(s, cases);
  CHECK(comparisons > before);
}
