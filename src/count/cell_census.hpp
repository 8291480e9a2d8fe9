// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 characters' word classes and -L widths by cell, for the kernels
// that count in stride over valid text (kernels/cells_in_stride.hpp). A
// cell is 64 code points from a multiple of 64: they share every byte of
// their UTF-8 form but the last, so one 64-bit mask, indexed by the last
// byte's low six bits, says which of them separate words (or are one or
// two columns wide). The census says which lead bytes, and which cells of
// a three-byte lead, hold constituents alone or characters of one width
// alone, so that most characters of most scripts need no lookup at all;
// every answer comes from UnitClasses::wide, the scalar paths' own, for
// UnitClasses' word rule.
#pragma once

#include <cstdint>

namespace fastwc::count {

class UnitClasses;

/// The characters of one cell (bit k: code point 64 * cell + k) that
/// separate words and those that are transparent (under GNU 9.1's rule the
/// non-printable ones; none under 9.5's): every other one is a
/// constituent; and those -L counts one column wide and two columns wide:
/// every other one adds nothing (GNU wc adds wcwidth only when it is
/// positive, for printable characters).
struct CellMasks {
  std::uint64_t separators;
  std::uint64_t transparent;
  std::uint64_t narrow;
  std::uint64_t wide;
};

/// What a kernel needs to classify most characters without a lookup.
/// Complete when UnitClasses publishes it, never changed afterwards. Each
/// set of leads or cells below has one bit a lead or cell; leads that start
/// no valid character (C0, C1, F5..FF) and the four-byte leads (their cells
/// are looked up) are in none of them.
struct CellCensus {
  /// Bit i: every character lead byte 0xC0 + i starts is a constituent.
  std::uint64_t constituent_leads;
  /// ... is one column wide, two columns wide.
  std::uint64_t narrow_leads;
  std::uint64_t wide_leads;
  /// Two-byte lead 0xC0 + i: its one cell, bit k its character with second
  /// byte 0x80 + k.
  CellMasks two_byte[32];
  /// Three-byte lead 0xE0 + h: bit s says that every character of the cell
  /// of second byte 0x80 + s is a constituent (never for second bytes the
  /// lead cannot take: E0 80..9F are overlong, ED A0..BF surrogates);
  /// ... is one column wide, two columns wide.
  std::uint64_t constituent_cells[16];
  std::uint64_t narrow_cells[16];
  std::uint64_t wide_cells[16];
  /// The same for plane 1 (emoji, F0 9F): bit t says so of the cell of
  /// third byte 0x80 + t.
  std::uint64_t plane1_constituent_cells;
  std::uint64_t plane1_narrow_cells;
  std::uint64_t plane1_wide_cells;
};

/// Walks U+0080..U+FFFF and U+1F000..U+1FFFF (about 67,000 lookups in the
/// UnitClasses' lazy table, which this fills: 2-4 ms,
/// UnitClasses::cell_census_threshold).
CellCensus walk_cell_census(const UnitClasses &classes) noexcept;

/// The cells below U+110000 (cell 64 * k holds code points 64 * k ..
/// 64 * k + 63).
inline constexpr std::uint32_t unicode_cell_count = 0x110000 >> 6;

/// The cell `cell` (at least 2, below unicode_cell_count: U+0080..U+10FFFF),
/// computed; UnitClasses::cell_masks keeps what this computes.
CellMasks compute_cell_masks(const UnitClasses &classes, std::uint32_t cell) noexcept;

}  // namespace fastwc::count
