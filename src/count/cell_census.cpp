// SPDX-License-Identifier: GPL-3.0-or-later
// The census of word classes and widths by cell (cell_census.hpp), from
// UnitClasses::wide.
#include "count/cell_census.hpp"

#include "count/unit_classes.hpp"

namespace fastwc::count {

namespace {

/// The sets a cell belongs to, as bits: constituents alone (1), one
/// column alone (2), two columns alone (4).
unsigned uniform_sets(const CellMasks &m) noexcept {
  constexpr std::uint64_t all = ~std::uint64_t{0};
  return ((m.separators | m.transparent) == 0 ? 1u : 0u) | (m.narrow == all ? 2u : 0u) |
         (m.wide == all ? 4u : 0u);
}

}  // namespace

CellMasks compute_cell_masks(const UnitClasses &classes, std::uint32_t cell) noexcept {
  CellMasks m{0, 0, 0, 0};
  if (cell < 2 || cell >= unicode_cell_count) return m;
  const auto first = static_cast<char32_t>(cell) << 6;
  for (unsigned k = 0; k < 64; ++k) {
    const std::uint8_t props = classes.wide(first + k);
    const std::uint8_t word = props & unit_props::word_mask;
    const unsigned columns = (props & unit_props::width_mask) >> unit_props::width_shift;
    const std::uint64_t bit = std::uint64_t{1} << k;
    if (word == unit_props::separator)
      m.separators |= bit;
    else if (word != unit_props::constituent)
      m.transparent |= bit;
    if (columns == 1) m.narrow |= bit;
    if (columns == 2) m.wide |= bit;
  }
  return m;
}

CellCensus walk_cell_census(const UnitClasses &classes) noexcept {
  CellCensus census{};
  const auto add_lead = [&census](unsigned index, unsigned sets) {
    const std::uint64_t bit = std::uint64_t{1} << index;
    if ((sets & 1) != 0) census.constituent_leads |= bit;
    if ((sets & 2) != 0) census.narrow_leads |= bit;
    if ((sets & 4) != 0) census.wide_leads |= bit;
  };
  for (std::uint32_t i = 2; i < 32; ++i) {  // C2..DF
    census.two_byte[i] = classes.cell_masks(i);
    add_lead(i, uniform_sets(census.two_byte[i]));
  }
  for (std::uint32_t h = 0; h < 16; ++h) {  // E0..EF
    // The second bytes this lead takes in valid UTF-8 (RFC 3629; the
    // kernels use the census only in blocks that pass the validator).
    const unsigned first = h == 0x0 ? 0x20 : 0;
    const unsigned last = h == 0xD ? 0x1F : 0x3F;
    for (unsigned s = first; s <= last; ++s) {
      const unsigned sets = uniform_sets(classes.cell_masks((h << 6) | s));
      const std::uint64_t bit = std::uint64_t{1} << s;
      if ((sets & 1) != 0) census.constituent_cells[h] |= bit;
      if ((sets & 2) != 0) census.narrow_cells[h] |= bit;
      if ((sets & 4) != 0) census.wide_cells[h] |= bit;
    }
    const std::uint64_t valid =
        (last == 0x3F ? ~std::uint64_t{0} : (std::uint64_t{1} << (last + 1)) - 1) &
        ~((std::uint64_t{1} << first) - 1);
    add_lead(0x20 + h, (census.constituent_cells[h] == valid ? 1u : 0u) |
                           (census.narrow_cells[h] == valid ? 2u : 0u) |
                           (census.wide_cells[h] == valid ? 4u : 0u));
  }
  for (std::uint32_t t = 0; t < 64; ++t) {  // F0 9F 80..BF
    const unsigned sets = uniform_sets(classes.cell_masks((0x1F000 >> 6) + t));
    const std::uint64_t bit = std::uint64_t{1} << t;
    if ((sets & 1) != 0) census.plane1_constituent_cells |= bit;
    if ((sets & 2) != 0) census.plane1_narrow_cells |= bit;
    if ((sets & 4) != 0) census.plane1_wide_cells |= bit;
  }
  return census;
}

}  // namespace fastwc::count
