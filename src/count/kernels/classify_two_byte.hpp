// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of two-byte characters (U+0080..U+07FF: Latin, Greek,
// Cyrillic, Armenian, Hebrew, Arabic...) for ISAs with 64-byte permutes
// (VBMI), all of a block's at once whatever leads they mix: the 32 cells of
// the two-byte range, lead 0xC0 + r's cell in row r, as bit maps
// (cell_bit_maps.hpp), from the census (cell_census.hpp). The lead's row
// comes from a word shift. (The cell looks of cells_in_stride.hpp take a
// round a lead: Greek's CE and CF, accented Latin's C2..C5.)
#pragma once

#include <cstdint>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"
#include "count/kernels/cell_bit_maps.hpp"

namespace fastwc::count::kernels {

template <class A>
struct TwoByteClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Bits = CellBitMaps<A, 32>;
  using Maps = typename Bits::Maps;

  static Maps maps(const CellCensus &census) noexcept {
    Maps out;
    Bits::clear(out);
    for (unsigned r = 0; r < 32; ++r) Bits::set_cell(out, r, census.two_byte[r]);
    return out;
  }

  /// The characters whose leads are the bits of `two` (complete two-byte
  /// sequences) in the block cur, `second` the block one byte on, as
  /// CellMasks' bits at their leads.
  template <bool Words, bool Width>
  [[gnu::always_inline]] static CellMasks classify(const Maps &maps, const Block &cur,
                                                   const Block &second,
                                                   std::uint64_t two) noexcept {
    // (lead & 0x1F) << 3, from a word shift: the neighbour's bits it
    // brings in land in bits 0..2, masked off.
    const B rows = Isa::template shift_left_words<3>(cur.v[0]) & maps.row;
    return Bits::template classify<Words, Width>(maps, Bits::place(maps, rows, second.v[0]), two);
  }
};

}  // namespace fastwc::count::kernels
