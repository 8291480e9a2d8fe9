// SPDX-License-Identifier: GPL-3.0-or-later
// The first classifier of multibyte characters: those whose lead byte
// alone settles their word class and width (UnitClasses::lead_planes:
// Cyrillic, CJK ideographs, Hangul...), by byte lookups of the lead.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/kernel.hpp"
// Only LeadPlanes, a plain struct, is used here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct LeadClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using Base::table;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;

  /// Lead-byte planes (UnitClasses::lead_planes) as byte lookup tables:
  /// a lead's low nibble selects a byte whose bits 0-3 (or 4-7) say, for
  /// high nibbles C-F, whether the plane holds it. With has_permute64, one
  /// 64-byte table indexed by the lead's low six bits says it all.
  struct LeadTables {
    B class_con;                       ///< bits 0-3: same_class, bits 4-7: constituent
    B width_one;                       ///< bits 0-3: same_width, bits 4-7: width1
    B width_two;                       ///< bits 0-3: width2, bits 4-7: separator_pattern
    B high_select;                     ///< high nibble C-F: 0x11 << (nibble - 0xC)
    B by_lead;                         ///< byte k, for lead C0 + k: the by_lead_* bits
    const std::uint8_t *bmp;           ///< LeadPlanes::bmp
    const SeparatorGroup *separators;  ///< LeadPlanes::separators
    unsigned separator_count;          ///< LeadPlanes::separator_count
    std::uint64_t cells_known;         ///< LeadPlanes::cells_known
    const std::uint8_t (*cells)[64];   ///< LeadPlanes::cells
  };

  static constexpr std::uint8_t by_lead_same_class = 1;
  static constexpr std::uint8_t by_lead_constituent = 2;
  static constexpr std::uint8_t by_lead_same_width = 4;
  static constexpr std::uint8_t by_lead_width1 = 8;
  static constexpr std::uint8_t by_lead_width2 = 16;
  static constexpr std::uint8_t by_lead_separator_pattern = 32;

  static LeadTables lead_tables(const LeadPlanes &planes) noexcept {
    alignas(64) std::uint8_t t[4][64] = {};
    for (unsigned k = 0; k < 64; ++k) {
      const auto plane_bit = [k](std::uint64_t plane, std::uint8_t bit) {
        return static_cast<std::uint8_t>(((plane >> k) & 1) != 0 ? bit : 0);
      };
      t[3][k] = static_cast<std::uint8_t>(
          plane_bit(planes.same_class, by_lead_same_class) |
          plane_bit(planes.constituent, by_lead_constituent) |
          plane_bit(planes.same_width, by_lead_same_width) |
          plane_bit(planes.width1, by_lead_width1) | plane_bit(planes.width2, by_lead_width2) |
          plane_bit(planes.separator_pattern, by_lead_separator_pattern));
      const unsigned lo = k & 15;
      const unsigned hi = k >> 4;  // 0 for C, ... 3 for F
      const auto put = [&](unsigned table, std::uint64_t plane, unsigned shift) {
        if (((plane >> k) & 1) != 0)
          for (unsigned lane = 0; lane < 64; lane += 16)
            t[table][lane + lo] =
                static_cast<std::uint8_t>(t[table][lane + lo] | (1u << (hi + shift)));
      };
      put(0, planes.same_class, 0);
      put(0, planes.constituent, 4);
      put(1, planes.same_width, 0);
      put(1, planes.width1, 4);
      put(2, planes.width2, 0);
      put(2, planes.separator_pattern, 4);
    }
    const B select = table(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x22, 0x44, 0x88);
    return {B::load_aligned(t[0]), B::load_aligned(t[1]),
            B::load_aligned(t[2]), select,
            B::load_aligned(t[3]), planes.bmp,
            planes.separators,     planes.separator_count,
            planes.cells_known,    planes.cells};
  }

  /// The multibyte characters that their lead byte alone classifies, with
  /// their bits, for a block's leads `leads`.
  template <bool Words, bool Width>
  static std::uint64_t classify(const LeadTables &t, const Block &b, std::uint64_t leads,
                                CharMasks &m) noexcept {
    std::uint64_t same = ~std::uint64_t{0}, con = 0, w1 = 0, w2 = 0;
    std::uint64_t same_class = 0, same_width = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B v = b.v[i];
      const unsigned shift = static_cast<unsigned>(i * width);
      if constexpr (Isa::has_permute64) {
        // One lookup by the lead's low six bits (other bytes get garbage,
        // which `leads` masks off).
        const B p = Isa::permute64(t.by_lead, v);
        const auto has = [&p](std::uint8_t bit) { return Isa::bits((p & B(bit)) != B(0)); };
        if constexpr (Words) {
          same_class |= has(by_lead_same_class) << shift;
          con |= has(by_lead_constituent) << shift;
        }
        if constexpr (Width) {
          same_width |= has(by_lead_same_width) << shift;
          w1 |= has(by_lead_width1) << shift;
          w2 |= has(by_lead_width2) << shift;
        }
        continue;
      }
      const B sel = Isa::lookup(t.high_select, Isa::template shift_right<4>(v));
      const B lo = v & B(0x0F);
      if constexpr (Words) {
        const B a = Isa::lookup(t.class_con, lo) & sel;
        same_class |= Isa::bits((a & B(0x0F)) != B(0)) << shift;
        con |= Isa::bits((a & B(0xF0)) != B(0)) << shift;
      }
      if constexpr (Width) {
        const B c = Isa::lookup(t.width_one, lo) & sel;
        same_width |= Isa::bits((c & B(0x0F)) != B(0)) << shift;
        w1 |= Isa::bits((c & B(0xF0)) != B(0)) << shift;
        w2 |= Isa::bits((Isa::lookup(t.width_two, lo) & sel) != B(0)) << shift;
      }
    }
    if constexpr (Words) same &= same_class;
    if constexpr (Width) same &= same_width;
    const std::uint64_t fast = leads & same;
    m.con |= fast & con;
    m.w1 |= fast & w1;
    m.w2 |= fast & w2;
    return fast;
  }
};

}  // namespace fastwc::count::kernels
