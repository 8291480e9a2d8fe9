// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 characters' word classes by cell, for the kernels that count words
// in stride over valid text (kernels/words_in_stride.hpp). A cell is 64
// code points from a multiple of 64: they share every byte of their UTF-8
// form but the last, so one 64-bit mask, indexed by the last byte's low six
// bits, says which of them separate words. The census says which lead
// bytes start constituents alone and which cells of a three-byte lead hold
// constituents alone, so that most characters of most scripts need no
// lookup at all; every answer comes from UnitClasses::wide, the scalar
// paths' own, for UnitClasses' word rule.
#pragma once

#include <cstdint>

namespace fastwc::count {

class UnitClasses;

/// The characters of one cell (bit k: code point 64 * cell + k) that
/// separate words and those that are transparent (under GNU 9.1's rule the
/// non-printable ones; none under 9.5's). Every other one is a constituent.
struct WordCell {
  std::uint64_t separators;
  std::uint64_t transparent;
};

/// What a kernel needs to classify most characters without a lookup.
/// Complete when UnitClasses publishes it, never changed afterwards.
struct WordCellCensus {
  /// Bit i: every character lead byte 0xC0 + i starts is a constituent.
  /// Never set for the four-byte leads (their cells are looked up) nor for
  /// bytes that lead no valid character (C0, C1, F5..FF).
  std::uint64_t constituent_leads;
  /// Two-byte lead 0xC0 + i: its one cell, bit k its character with second
  /// byte 0x80 + k.
  WordCell two_byte[32];
  /// Three-byte lead 0xE0 + h: bit s says that every character of the cell
  /// of second byte 0x80 + s is a constituent (never for second bytes the
  /// lead cannot take: E0 80..9F are overlong, ED A0..BF surrogates).
  std::uint64_t constituent_cells[16];
  /// The same for plane 1 (emoji, F0 9F): bit t says so of the cell of
  /// third byte 0x80 + t.
  std::uint64_t plane1_constituent_cells;
};

/// Walks U+0080..U+FFFF and U+1F000..U+1FFFF (about 67,000 lookups in the UnitClasses' lazy
/// table, which this fills: 2-4 ms, UnitClasses::word_cell_threshold).
WordCellCensus walk_word_cells(const UnitClasses &classes) noexcept;

/// The cells below U+110000 (cell 64 * k holds code points 64 * k ..
/// 64 * k + 63).
inline constexpr std::uint32_t word_cell_count = 0x110000 >> 6;

/// The cell `cell` (at least 2, below word_cell_count: U+0080..U+10FFFF),
/// computed; UnitClasses::word_cell keeps what this computes.
WordCell compute_word_cell(const UnitClasses &classes, std::uint32_t cell) noexcept;

}  // namespace fastwc::count
