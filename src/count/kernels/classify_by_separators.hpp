// SPDX-License-Identifier: GPL-3.0-or-later
// The word classes of the characters whose lead byte has a separator
// pattern (LeadPlanes::separator_pattern): every one of them is a word
// constituent except the few separators, which are found by matching their
// bytes. Under GNU 9.5+'s rule that is most of non-ASCII text whose lead is
// not uniform: in glibc's locales every non-ASCII separator is C2 A0 or a
// three-byte form led by E1, E2 or E3 (white space U+1680, U+2000-U+200A,
// U+2028, U+2029, U+205F, U+3000, and GNU's no-break spaces U+00A0, U+2007,
// U+202F, U+2060), so kana, CJK punctuation, typographic quotes and dashes
// need no lookup at all. The groups come from the C library's answers
// (UnitClasses::resolve_lead), never from this list.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/classify_by_cell.hpp"
#include "count/kernels/classify_by_lead.hpp"
#include "count/kernels/kernel.hpp"
// Only SeparatorGroup, a plain struct, is used here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct SeparatorClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::load;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Lead = LeadClassifier<A>;
  using LeadTables = typename Lead::LeadTables;

  /// Bit i: the lead byte b[i] has a separator pattern.
  static std::uint64_t pattern_leads(const LeadTables &t, const Block &b) noexcept {
    std::uint64_t out = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B v = b.v[i];
      const unsigned shift = static_cast<unsigned>(i * width);
      if constexpr (Isa::has_permute64) {
        const B p = Isa::permute64(t.by_lead, v);
        out |= Isa::bits((p & B(Lead::by_lead_separator_pattern)) != B(0)) << shift;
      } else {
        const B sel = Isa::lookup(t.high_select, Isa::template shift_right<4>(v));
        const B a = Isa::lookup(t.width_two, v & B(0x0F)) & sel;
        out |= Isa::bits((a & B(0xF0)) != B(0)) << shift;
      }
    }
    return out;
  }

  /// Classifies the characters among `slow` (valid, starting at their bits)
  /// whose lead has a separator pattern; returns the others. With
  /// `all_or_none`, does nothing unless that leaves no character. q[64..66]
  /// must be readable.
  static std::uint64_t classify(const LeadTables &t, const Block &b, const std::uint8_t *q,
                                std::uint64_t slow, CharMasks &m, bool all_or_none) noexcept {
    const std::uint64_t mine = slow & pattern_leads(t, b);
    if (mine == 0 || (all_or_none && mine != slow)) return slow;
    const Block next1 = load(q + 1);
    const Block next2 = load(q + 2);
    std::uint64_t sep = 0;
    for (unsigned g = 0; g < t.separator_count; ++g) {
      const SeparatorGroup &group = t.separators[g];
      const std::uint8_t lead = group.lead;
      std::uint64_t hit = mine & bits(b, [lead](B v) { return v == B(lead); });
      if (hit == 0) continue;
      if (group.second == 0) {
        hit &= CellClassifier<A>::exception_bits(next1, group.last);
      } else {
        const std::uint8_t second = group.second;
        hit &= bits(next1, [second](B v) { return v == B(second); });
        if (hit != 0) hit &= CellClassifier<A>::exception_bits(next2, group.last);
      }
      sep |= hit;
    }
    m.sep |= sep;
    m.con |= mine & ~sep;
    return slow & ~mine;
  }
};

}  // namespace fastwc::count::kernels
