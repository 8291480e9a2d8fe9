// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of last resort before the scalar one, for ISAs with
// gathers: characters of planes 0 and 1 looked up in the table of their
// properties (LeadPlanes::bmp), 16 or 8 at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "count/kernels/blocks.hpp"
#include "count/kernels/kernel.hpp"
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct TableClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;

  /// One quarter of a vector of the block (bytes `shift`.. of it): the
  /// code points of its characters `mine` (two and three bytes, and four
  /// bytes in plane 1) and their table entries, as bits at their leads.
  template <int K, bool Words, bool Width>
  static void table_quarter(const std::uint8_t *table, B lead_bytes, B second_bytes, B third_bytes,
                            B fourth_bytes, std::uint64_t mine, unsigned shift,
                            CharMasks &out) noexcept {
    constexpr unsigned quarter = width / 4;
    const auto active = static_cast<std::uint32_t>((mine >> shift) & live_mask(quarter));
    // The low byte is the entry (table_bits masks it).
    const auto props = Isa::gather(
        table, code_points<K>(lead_bytes, second_bytes, third_bytes, fourth_bytes), active);
    table_bits<Words, Width>(props, shift, out);
  }

  /// The code points of the characters that start in one quarter of a
  /// vector of the block, one per 32-bit lane (garbage in the lanes of
  /// other bytes).
  template <int K>
  static auto code_points(B lead_bytes, B second_bytes, B third_bytes, B fourth_bytes) noexcept {
    using W = typename Isa::wide;
    const W lead = Isa::template widen<K>(lead_bytes);
    const W second = Isa::template widen<K>(second_bytes) & W(0x3F);
    const W third = Isa::template widen<K>(third_bytes) & W(0x3F);
    // C2..DF: 5 + 6 bits. E0..EF: 4 + 6 + 6 bits. F0 9x: plane 1, whose
    // last 16 bits are laid out as a three-byte form's, one byte later.
    const W two = Isa::template shift_left<6>(lead & W(0x1F)) | second;
    const auto four = (lead & W(0xF0)) == W(0xF0);
    const W high = xsimd::select(four, second, lead) & W(0x0F);
    const W middle = xsimd::select(four, third, second);
    const W low = xsimd::select(four, Isa::template widen<K>(fourth_bytes) & W(0x3F), third);
    const W three = Isa::template shift_left<12>(high) | Isa::template shift_left<6>(middle) | low |
                    xsimd::select(four, W(0x10000), W(0));
    return xsimd::select((lead & W(0xE0)) == W(0xE0), three, two);
  }

  /// The bits of table entries `props`, one per 32-bit lane, at `shift`.
  template <bool Words, bool Width, class W>
  static void table_bits(const W &props, unsigned shift, CharMasks &out) noexcept {
    if constexpr (Words) {
      out.sep |= std::uint64_t{Isa::wide_bits((props & W(unit_props::separator)) != W(0))} << shift;
      out.con |= std::uint64_t{Isa::wide_bits((props & W(unit_props::constituent)) != W(0))}
                 << shift;
    }
    if constexpr (Width) {
      const W columns = props & W(unit_props::width_mask);
      out.w1 |= std::uint64_t{Isa::wide_bits(columns == W(1u << unit_props::width_shift))} << shift;
      out.w2 |= std::uint64_t{Isa::wide_bits(columns == W(2u << unit_props::width_shift))} << shift;
    }
  }

  /// classify_by_table's lookups for the characters `mine` of quarters
  /// First.. of the block, at most 16 of them, packed into one gather: a
  /// gather costs the same (3.9 ns on Zen 4) whether 1 or 16 of its lanes
  /// are active, and mixed-script text has about 14 characters a block to
  /// look up (bench/run's multilingual corpus: one gather in three blocks
  /// out of four, two in the others, instead of four; -w 7-12% faster). The
  /// bits come back in packed order and are deposited at their leads.
  template <bool Words, bool Width, int First, int... K>
  static void packed_lookup(const std::uint8_t *table, const Block &b, const Block &next1,
                            const Block &next2, const Block &next3, std::uint64_t mine,
                            CharMasks &m) noexcept {
    using W = typename Isa::wide;
    static_assert(lanes == 1 && W::size == 16, "one 64-byte vector a block, 16 lanes of wide");
    W packed(0);
    unsigned fill = 0;
    (
        [&] {
          const auto active = static_cast<std::uint32_t>((mine >> (16 * (First + K))) & 0xFFFF);
          const W points = Isa::compress(
              code_points<First + K>(b.v[0], next1.v[0], next2.v[0], next3.v[0]), active);
          packed = packed | Isa::expand(points, (0xFFFFu << fill) & 0xFFFF);
          fill += static_cast<unsigned>(popcount(active));
        }(),
        ...);
    CharMasks found{0, 0, 0, 0};
    const auto used = static_cast<std::uint32_t>(live_mask(fill));
    table_bits<Words, Width>(Isa::gather(table, packed, used), 0, found);
    constexpr std::uint64_t quarters = live_mask(16 * sizeof...(K)) << (16 * First);
    const std::uint64_t leads = mine & quarters;
    m.sep |= Isa::deposit(found.sep, leads);
    m.con |= Isa::deposit(found.con, leads);
    m.w1 |= Isa::deposit(found.w1, leads);
    m.w2 |= Isa::deposit(found.w2, leads);
  }

  /// Classifies the characters among `slow` below U+20000 by their entries
  /// in the table of planes 0 and 1; returns the characters left (four-byte
  /// ones beyond plane 1). q[64..67] must be readable.
  /// Out of line, like ascii_run: inlined into utf8_plan it made the
  /// whole loop 10-25% slower (register pressure, measured).
  template <bool Words, bool Width>
  [[gnu::noinline]] static std::uint64_t classify(const std::uint8_t *table, const Block &b,
                                                  const std::uint8_t *q, std::uint64_t slow,
                                                  CharMasks &m) noexcept {
    const Block next1 = load(q + 1);
    // Leads of four bytes, but F0 followed by 90..9F (U+10000..U+1FFFF).
    const std::uint64_t beyond = bits(b, [](B v) { return Isa::le(B(0xF1), v); }) |
                                 (bits(b, [](B v) { return v == B(0xF0); }) &
                                  ~bits(next1, [](B v) { return (v & B(0xF0)) == B(0x90); }));
    const std::uint64_t mine = slow & ~beyond;
    if (mine == 0) return slow;
    const Block next2 = load(q + 2);
    const Block next3 = load(q + 3);
    if constexpr (Isa::has_compress) {
      // One gather for the block, else one a half: characters of two bytes
      // or more start at most 16 in 32 bytes.
      if (popcount(mine) <= 16) {
        packed_lookup<Words, Width, 0, 0, 1, 2, 3>(table, b, next1, next2, next3, mine, m);
      } else {
        packed_lookup<Words, Width, 0, 0, 1>(table, b, next1, next2, next3, mine, m);
        packed_lookup<Words, Width, 2, 0, 1>(table, b, next1, next2, next3, mine, m);
      }
    } else {
      // One gather a quarter of each vector.
      CharMasks found{0, 0, 0, 0};
      for (std::size_t l = 0; l < lanes; ++l) {
        const auto base = static_cast<unsigned>(l * width);
        [&]<int... K>(std::integer_sequence<int, K...>) {
          (table_quarter<K, Words, Width>(table, b.v[l], next1.v[l], next2.v[l], next3.v[l], mine,
                                          base + static_cast<unsigned>(K) * (width / 4), found),
           ...);
        }
        (std::make_integer_sequence<int, 4>{});
      }
      m.sep |= found.sep & mine;
      m.con |= found.con & mine;
      m.w1 |= found.w1 & mine;
      m.w2 |= found.w2 & mine;
    }
    return slow & beyond;
  }
};

}  // namespace fastwc::count::kernels
