// SPDX-License-Identifier: GPL-3.0-or-later
// What UnitClasses' census by cell (cell_census.hpp) settles for a plan
// that counts words, -L widths or both, as the tables the stride by cell
// (cells_in_stride.hpp) and leads_alone.hpp read: the lead bytes whose
// characters need no lookup, the three-byte and emoji cells that need
// none, and with VBMI the two-byte cells as bit maps (classify_two_byte.hpp);
// and the lead sets of a block by those tables.
#pragma once

#include <cstdint>
#include <type_traits>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"
#include "count/kernels/classify_two_byte.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CensusTables : Blocks<A> {
  using Base = Blocks<A>;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using TwoByte = TwoByteClassifier<A>;

  /// The cells of the census settled for a plan: bit s of three_byte[h],
  /// the cell of second byte 0x80 + s of lead 0xE0 + h; plane1's bit t,
  /// the cell F0 9F (0x80 + t). The wide sets: those of them whose
  /// characters are two columns wide (plans with -L; the others are one).
  /// With VBMI, every two-byte cell too, as bit maps (classify_two_byte.hpp).
  struct SettledCells {
    std::uint64_t three_byte[16];
    std::uint64_t three_byte_wide[16];
    std::uint64_t plane1;
    std::uint64_t plane1_wide;
    typename TwoByte::Maps two_byte;
  };

  struct LeadBits {
    std::uint64_t unsettled;
    std::uint64_t marked;
  };
  struct NoLeadBits {};
  struct NoTable {};
  struct Tables {
    /// Two sets of lead bytes by nibble, the AND of a byte's two lookups:
    /// bits 0-3 (bit h - 0xC for lead (h << 4) | l) the leads the census
    /// does not settle for the plan, bits 4-7 the marked ones: for plans
    /// with -L the settled leads whose characters are two columns wide, for
    /// words alone (leads_alone.hpp) those whose second byte may make them
    /// no standard sequence (start_lead).
    B lead_low;
    B lead_high;
    /// With VBMI, by a lead's low six bits: bit 7 unsettled, bit 6 marked
    /// (sign bits, which need no compare: RESULTS.md's port 5).
    B by_lead;
    const CellCensus *census;
    const SettledCells *cells;
    /// Without byte shuffles (SSE2), the two sets as bits by lead - 0xC0.
    [[no_unique_address]] std::conditional_t<Isa::has_shuffle, NoLeadBits, LeadBits> lead_bits;
    /// Without byte shuffles, the table of planes 0 and 1 once the stride
    /// has it (UnitClasses::bmp_table; CellLooks::by_table), or nullptr.
    [[no_unique_address]] std::conditional_t<Isa::has_shuffle, NoTable, const std::uint8_t *> bmp;
  };

  /// C0, C1 (overlong), E0 (overlong below A0), ED (surrogates from A0),
  /// F0 (overlong below 90), F4 (above U+10FFFF from 90), F5..FF.
  static constexpr bool start_lead(unsigned lead) noexcept {
    return lead <= 0xC1 || lead == 0xE0 || lead == 0xED || lead == 0xF0 || lead >= 0xF4;
  }

  /// The tables of a plan that counts words, widths or both; `cells` holds
  /// its settled cells and must outlive the tables.
  static Tables tables(const CellCensus &census, bool words, bool width,
                       SettledCells &cells) noexcept {
    constexpr std::uint64_t all = ~std::uint64_t{0};
    const std::uint64_t settled = (words ? census.constituent_leads : all) &
                                  (width ? census.narrow_leads | census.wide_leads : all);
    for (unsigned h = 0; h < 16; ++h) {
      cells.three_byte[h] = (words ? census.constituent_cells[h] : all) &
                            (width ? census.narrow_cells[h] | census.wide_cells[h] : all);
      cells.three_byte_wide[h] = width ? cells.three_byte[h] & census.wide_cells[h] : 0;
    }
    cells.plane1 = (words ? census.plane1_constituent_cells : all) &
                   (width ? census.plane1_narrow_cells | census.plane1_wide_cells : all);
    cells.plane1_wide = width ? cells.plane1 & census.plane1_wide_cells : 0;
    if constexpr (Isa::has_permute64) cells.two_byte = TwoByte::maps(census);
    std::uint8_t low[16] = {};
    alignas(64) std::uint8_t by_lead[64] = {};
    LeadBits lead_bits{0, 0};
    for (unsigned lead = 0xC0; lead <= 0xFF; ++lead) {
      const unsigned row = (lead >> 4) - 0xC;
      const std::uint64_t bit = std::uint64_t{1} << (lead - 0xC0);
      const bool unsettled = (settled & bit) == 0;
      const bool marked = width ? (settled & census.wide_leads & bit) != 0 : start_lead(lead);
      const unsigned set = (unsettled ? 1u << row : 0u) | (marked ? 0x10u << row : 0u);
      low[lead & 0x0F] = static_cast<std::uint8_t>(low[lead & 0x0F] | set);
      by_lead[lead - 0xC0] =
          static_cast<std::uint8_t>((unsettled ? 0x80 : 0) | (marked ? 0x40 : 0));
      if (unsettled) lead_bits.unsettled |= bit;
      if (marked) lead_bits.marked |= bit;
    }
    Tables t{Base::table(low[0], low[1], low[2], low[3], low[4], low[5], low[6], low[7], low[8],
                         low[9], low[10], low[11], low[12], low[13], low[14], low[15]),
             Base::table(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x22, 0x44, 0x88),
             B::load_aligned(by_lead),
             &census,
             &cells,
             {},
             {}};
    if constexpr (!Isa::has_shuffle) t.lead_bits = lead_bits;
    return t;
  }

  /// The bytes of the block in Tables' two sets: the leads the census
  /// does not settle, and the marked ones.
  struct LeadSets {
    std::uint64_t unsettled;
    std::uint64_t marked;
  };

  /// Without byte shuffles, lead values looked at with compares (all of a
  /// value's bytes at once) before the rest go one by one: two measured
  /// best (SSE2 -mw 9.1: Cyrillic and Arabic gain by the compares,
  /// Chinese's many leads lose by them; 0 and 4 rounds each lost a row).
  static constexpr unsigned lead_rounds = 2;
  static LeadSets lead_sets(const Tables &t, const Block &b) noexcept {
    if constexpr (Isa::has_permute64) {
      const B set = Isa::permute64(t.by_lead, b.v[0]);
      return {Isa::sign_bits(set), Isa::sign_bits(Isa::template shift_left_words<1>(set))};
    }
    LeadSets out{0, 0};
    if constexpr (!Isa::has_shuffle) {
      // A lead value at a time, all of its bytes in the block at once by a
      // compare: text keeps to a few leads (Cyrillic's D0 and D1, the
      // CJK ideographs' E4..E9).
      alignas(64) std::uint8_t bytes[64];
      for (std::size_t i = 0; i < Base::lanes; ++i) b.v[i].store_aligned(bytes + i * Base::width);
      std::uint64_t leads = Base::bits(b, [](B v) { return Isa::le(B(0xC0), v); });
      for (unsigned round = 0; leads != 0 && round < lead_rounds; ++round) {
        const std::uint8_t lead = bytes[__builtin_ctzll(leads)];
        const std::uint64_t same = Base::bits(b, [lead](B v) { return v == B(lead); });
        if (((t.lead_bits.unsettled >> (lead - 0xC0)) & 1) != 0) out.unsettled |= same;
        if (((t.lead_bits.marked >> (lead - 0xC0)) & 1) != 0) out.marked |= same;
        leads &= ~same;
      }
      for (; leads != 0; leads &= leads - 1) {
        const unsigned i = static_cast<unsigned>(__builtin_ctzll(leads));
        const unsigned lead = bytes[i] & 63u;
        out.unsettled |= ((t.lead_bits.unsettled >> lead) & 1) << i;
        out.marked |= ((t.lead_bits.marked >> lead) & 1) << i;
      }
      return out;
    }
    for (std::size_t i = 0; i < Base::lanes; ++i) {
      const B v = b.v[i];
      const B set = Isa::lookup(t.lead_low, v & B(0x0F)) &
                    Isa::lookup(t.lead_high, Isa::template shift_right<4>(v));
      const unsigned shift = static_cast<unsigned>(i * Base::width);
      out.unsettled |= Isa::bits((set & B(0x0F)) != B(0)) << shift;
      out.marked |= Isa::bits((set & B(0xF0)) != B(0)) << shift;
    }
    return out;
  }
};

}  // namespace fastwc::count::kernels
