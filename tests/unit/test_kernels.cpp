// SPDX-License-Identifier: GPL-3.0-or-later
// checkasm-style differential tests of the SIMD kernels (count/kernels/)
// against the scalar kernel, for every kernel this machine runs, every plan
// and both word rules: all lengths 0..4096 and lengths just past 255 vectors
// (8-bit accumulators), all 64 misalignments, canary bytes around the data
// (a kernel that counts what lies outside its range fails), buffers that end
// exactly at the end of their allocation (sanitizer builds catch
// over-reads), all-newline / all-space / all-0x80 / all-0xFF buffers, and
// random ASCII, text, UTF-8, invalid UTF-8 and binary, with multibyte
// sequences cut at every offset around a block boundary. The scalar kernel
// itself is checked against the reference engine in test_chunk_summary.cpp.
#include <doctest/doctest.h>

#include "kernel_test_support.hpp"

using namespace kernel_test;

TEST_CASE("kernels: every length from 0 to 4096") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  std::mt19937 rng(1);
  // One mixed buffer; each length is a prefix of it, so every length sees a
  // different last block.
  std::string mixed;
  for (int i = 0; i < 64; ++i) mixed += make(all_styles[static_cast<std::size_t>(i) % 9], 64, rng);
  const std::string text = make(Style::text, 4096, rng) + make(Style::utf8, 4096, rng);
  // Unoptimized and sanitizer builds take every 7th length (still every
  // residue mod 64).
#ifdef __OPTIMIZE__
  constexpr std::size_t step = sweep::stride(7);
#else
  constexpr std::size_t step = 7;
#endif
  for (std::size_t n = 0; n <= 4096; n += step) {
    check_all(reinterpret_cast<const std::uint8_t *>(mixed.data()), n, cases);
    check_all(reinterpret_cast<const std::uint8_t *>(text.data()) + 4096 - n / 2, n, cases);
  }
  MESSAGE("kernel-vs-scalar comparisons: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: fill patterns and random styles, lengths past 255 vectors") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  std::mt19937 rng(2);
  // 255 rounds of 64 bytes is the most an 8-bit counter may take.
  const std::size_t lengths[] = {0,
                                 1,
                                 63,
                                 64,
                                 65,
                                 255 * 64 - 1,
                                 255 * 64,
                                 255 * 64 + 1,
                                 255 * 64 + 64,
                                 256 * 64,
                                 2 * 255 * 64 + 37,
                                 65536 + 7,
                                 300000};
  for (const Style style : all_styles)
    for (const std::size_t n : lengths) {
      CAPTURE(static_cast<int>(style));
      check_exact(make(style, n, rng), cases);
    }
  MESSAGE("kernel-vs-scalar comparisons: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: all 64 misalignments, with canaries around the data") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  std::mt19937 rng(3);
  for (const Style style : all_styles) {
    const std::string data = make(style, 700, rng);
    // Canaries that would change every count if a kernel used them: line
    // ends, a word, a tab and bytes that would complete a cut sequence.
    std::vector<std::uint8_t> arena(1024 + 256);
    for (std::size_t i = 0; i < arena.size(); ++i)
      arena[i] = static_cast<std::uint8_t>("\n\x80x\t\xbf "[i % 6]);
    for (std::size_t offset = 0; offset < 64; ++offset) {
      std::uint8_t *at = arena.data() + 128 + offset;
      std::memcpy(at, data.data(), data.size());
      CAPTURE(offset);
      check_all(at, data.size(), cases);
    }
  }
  MESSAGE("kernel-vs-scalar comparisons: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: sequences cut at every offset around block boundaries") {
  if (simd_kernels().empty()) return;  // nothing to compare with the scalar kernel
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  // Valid text, then a (possibly truncated or invalid) sequence placed so
  // that it straddles the first 64-byte block's end at each offset, then
  // more text: every way a block can end inside a sequence.
  static constexpr std::string_view seqs[] = {"\303\251",
                                              "\344\270\255",
                                              "\360\237\230\200",
                                              "\344\270",
                                              "\360\237\230",
                                              "\360\237",
                                              "\303",
                                              "\364\220\200\200",
                                              "\370\210\200\200\200",
                                              "\375\277\277\277\277\277",
                                              "\340\200\200",
                                              "\355\240\200",
                                              "\300\200",
                                              "\200",
                                              "\377",
                                              "\u3000",
                                              "\u00a0",
                                              "\u2028"};
  const std::string before = "Ж word\tend\n";
  for (const std::string_view seq : seqs)
    for (std::size_t at = 50; at <= 70; ++at) {
      std::string s;
      while (s.size() < at) s += before;
      s.resize(at);
      // Keep the text before the sequence valid: cut at a character boundary.
      while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
      if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
      s += seq;
      for (const std::string_view next : {"a b\n", "\200\200", "", "中文 text"}) {
        std::string t = s;
        t += next;
        t += before + before + before + before + before + before;
        CAPTURE(at);
        check_exact(t, cases);
        check_exact(t.substr(0, s.size()), cases);  // ends in the sequence
      }
    }
  MESSAGE("kernel-vs-scalar comparisons: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: errors right after blocks counted in stride") {
  if (simd_kernels().empty()) return;
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  // Valid multibyte text long enough that -m counts blocks in stride
  // (each starting 64 bytes after the last, maybe inside a character),
  // shifted by 0-3 bytes so that the characters cut by block ends have
  // every length and cut, then an error (or glibc's long forms, or a valid
  // character) at every offset around the second and third block ends: a
  // block counted in stride must never take a character whose last bytes
  // turn out to be invalid. Each rule of the validators on its own (the
  // overlong, surrogate and too-large second bytes on either side of their
  // bounds), since SSE2's validator states each with compares of its own.
  static constexpr std::string_view text = "Жé中😀 ñ\u3000文\tд😀中é\nя";
  static constexpr std::string_view errors[] = {"\200",
                                                "\377",
                                                "\303",
                                                "\344\270",
                                                "\360\237\230",
                                                "\370\210\200\200\200",
                                                "\355\240\200",
                                                "\355\237\277",
                                                "\300\200",
                                                "\301\277",
                                                "\340\237\277",
                                                "\340\240\200",
                                                "\360\217\277\277",
                                                "\360\220\200\200",
                                                "\364\220\200\200",
                                                "\364\217\277\277",
                                                "\365\200\200\200",
                                                "a",
                                                "\u00a0"};
  for (std::size_t shift = 0; shift < 4; ++shift)
    for (const std::string_view error : errors)
      for (std::size_t at = 110; at <= 200; ++at) {
        if (at > 136 && at < 174) continue;
        std::string s(shift, 'x');
        while (s.size() < at) s += text;
        s.resize(at);
        s += error;
        while (s.size() < at + 200) s += text;
        CAPTURE(shift);
        CAPTURE(at);
        check_exact(s, cases);
      }
  MESSAGE("kernel-vs-scalar comparisons: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: characters looked up in the table of planes 0 and 1") {
  if (simd_kernels().empty()) return;
  // The table is built once enough characters went the per-character way
  // (UnitClasses::bmp_table_threshold, about a million); build it now for
  // every UTF-8 instance, so that the kernels with gathers use it from here
  // on (the instances are process-wide: later tests use it too).
  for (const WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents})
    for (const bool nbsp : {true, false}) {
      const UnitClasses &classes = unit_classes(true, rule, nbsp);
      REQUIRE(classes.build_bmp_table());
      REQUIRE(classes.lead_planes().bmp != nullptr);
      // Its entries are the per-character answers.
      for (char32_t c = 0x80; c < 0x20000; c += 7)
        if (c < 0xD800 || c > 0xDFFF) REQUIRE(classes.lead_planes().bmp[c] == classes.wide(c));
    }
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  std::mt19937 rng(20261130);
  // Code points from every two- and three-byte lead and from plane 1 (in
  // the table), from planes 2-16 (not in it), with ASCII, spaces and
  // invalid bytes between them.
  std::uniform_int_distribution<std::uint32_t> code_point(0x80, 0xFFFF);
  std::uniform_int_distribution<std::uint32_t> plane1(0x10000, 0x1FFFF);
  std::uniform_int_distribution<std::uint32_t> beyond(0x20000, 0x10FFFF);
  std::uniform_int_distribution<std::uint32_t> cjk_b(0x20000, 0x2A6DF);  // wide, unlike plane 1
  std::uniform_int_distribution<int> other(0, 9);
  const auto random_text = [&](std::size_t size) {
    std::string s;
    while (s.size() < size) {
      const int kind = other(rng);
      if (kind == 0) {
        s += " ";
      } else if (kind == 1) {
        const int pick = other(rng);
        const std::uint32_t c = pick < 6 ? plane1(rng) : pick < 8 ? cjk_b(rng) : beyond(rng);
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
      } else if (kind == 2) {
        s += "\377";
      } else if (kind == 3) {
        s += "a\n";
      } else {
        std::uint32_t c = code_point(rng);
        if (c >= 0xD800 && c <= 0xDFFF) c -= 0x800;
        if (c < 0x800) {
          s += static_cast<char>(0xC0 | (c >> 6));
        } else {
          s += static_cast<char>(0xE0 | (c >> 12));
          s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        }
        s += static_cast<char>(0x80 | (c & 0x3F));
      }
    }
    s.resize(size);
    return s;
  };
  for (std::size_t size = 0; size <= 1100; ++size) check_exact(random_text(size), cases);
  for (int round = 0; round < 8; ++round) check_exact(random_text(65536 + 17 * round), cases);
  for (const Style style : {Style::utf8, Style::invalid})
    for (std::size_t size = 60; size <= 700; size += 13) check_exact(make(style, size, rng), cases);
  MESSAGE("kernel-vs-scalar comparisons with the BMP table: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}

TEST_CASE("kernels: text that keeps to a few cells, then with every lead's row known") {
  if (simd_kernels().empty()) return;
  // Text in one script uses the same few cells (64 code points that share
  // all bytes but the last) block after block: VBMI keeps them hot and
  // classifies their characters by permutes of their tables, and once a
  // lead is examined, by its row of uniform cells. Every code point of each
  // chosen cell may occur, so a hot cell's exceptions (unassigned,
  // combining, spaces) and a row's mixed cells are exercised too.
  const std::vector<Case> cases = all_cases();
  const std::uint64_t before_case = comparisons;
  static constexpr char32_t cells[] = {0x0080, 0x00C0, 0x0380, 0x03C0, 0x0900,  0x1680, 0x2000,
                                       0x3000, 0x3040, 0x3080, 0x30C0, 0x4DC0,  0xA000, 0xAC00,
                                       0xD000, 0xD780, 0xD7C0, 0xFF00, 0x1F3C0, 0x1F600};
  std::mt19937 rng(20261201);
  std::uniform_int_distribution<std::size_t> pick_cell(0, std::size(cells) - 1);
  std::uniform_int_distribution<int> pick(0, 63);
  const auto few_cells_text = [&](std::size_t size) {
    char32_t chosen[8];
    const int used = 1 + pick(rng) % 8;
    for (int k = 0; k < used; ++k) chosen[k] = cells[pick_cell(rng)];
    std::string s;
    while (s.size() < size) {
      const int kind = pick(rng);
      if (kind < 6) {
        s += kind < 4 ? " " : kind == 4 ? "a\n" : "\377";
      } else {
        const char32_t base = chosen[pick(rng) % used];
        // Mostly the cell's common characters, sometimes any of its 64.
        append_utf8(s, base + static_cast<char32_t>(kind < 40 ? 10 + pick(rng) % 8 : pick(rng)));
      }
    }
    s.resize(size);
    return s;
  };
  for (const bool rows : {false, true}) {
    if (rows)
      for (const WordRule rule :
           {WordRule::printable_constituents, WordRule::non_space_constituents})
        for (const bool nbsp : {true, false}) unit_classes(true, rule, nbsp).resolve_all_leads();
    for (int round = 0; round < 150; ++round)
      check_exact(few_cells_text(static_cast<std::size_t>(64 + 37 * round)), cases);
    for (int round = 0; round < 3; ++round) check_exact(few_cells_text(40000 + 5 * round), cases);
  }
  MESSAGE("kernel-vs-scalar comparisons on few-cell text: " << comparisons - before_case);
  CHECK(comparisons - before_case > 1000);
}
