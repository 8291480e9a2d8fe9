// SPDX-License-Identifier: GPL-3.0-or-later
// The word-class census by cell (word_cells.hpp), from UnitClasses::wide.
#include "count/word_cells.hpp"

#include "count/unit_classes.hpp"

namespace fastwc::count {

WordCell compute_word_cell(const UnitClasses &classes, std::uint32_t cell) noexcept {
  WordCell w{0, 0};
  if (cell < 2 || cell >= word_cell_count) return w;
  const auto first = static_cast<char32_t>(cell) << 6;
  for (unsigned k = 0; k < 64; ++k) {
    const std::uint8_t word = classes.wide(first + k) & unit_props::word_mask;
    const std::uint64_t bit = std::uint64_t{1} << k;
    if (word == unit_props::separator)
      w.separators |= bit;
    else if (word != unit_props::constituent)
      w.transparent |= bit;
  }
  return w;
}

WordCellCensus walk_word_cells(const UnitClasses &classes) noexcept {
  WordCellCensus census{};
  for (std::uint32_t i = 2; i < 32; ++i) {  // C2..DF
    census.two_byte[i] = classes.word_cell(i);
    if ((census.two_byte[i].separators | census.two_byte[i].transparent) == 0)
      census.constituent_leads |= std::uint64_t{1} << i;
  }
  for (std::uint32_t h = 0; h < 16; ++h) {  // E0..EF
    // The second bytes this lead takes in valid UTF-8 (RFC 3629; the
    // kernels use the census only in blocks that pass the validator).
    const unsigned first = h == 0x0 ? 0x20 : 0;
    const unsigned last = h == 0xD ? 0x1F : 0x3F;
    std::uint64_t cells = 0;
    for (unsigned s = first; s <= last; ++s) {
      const WordCell w = classes.word_cell((h << 6) | s);
      if ((w.separators | w.transparent) == 0) cells |= std::uint64_t{1} << s;
    }
    census.constituent_cells[h] = cells;
    const std::uint64_t valid =
        (last == 0x3F ? ~std::uint64_t{0} : (std::uint64_t{1} << (last + 1)) - 1) &
        ~((std::uint64_t{1} << first) - 1);
    if (cells == valid) census.constituent_leads |= std::uint64_t{1} << (0x20 + h);
  }
  for (std::uint32_t t = 0; t < 64; ++t) {  // F0 9F 80..BF
    const WordCell w = classes.word_cell((0x1F000 >> 6) + t);
    if ((w.separators | w.transparent) == 0)
      census.plane1_constituent_cells |= std::uint64_t{1} << t;
  }
  return census;
}

}  // namespace fastwc::count
