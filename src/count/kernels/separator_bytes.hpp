// SPDX-License-Identifier: GPL-3.0-or-later
// Words under GNU 9.5+'s rule without decoding (Plan::utf8_separator_words).
// From 9.5 on every character but white space is part of a word, encoding
// errors included (wc.c: in_word2 = !c32isspace (wc) && !maybe_c32isnbspace
// (wc)), so once each byte has its character's class the words are the
// constituent bytes that follow a separator byte, as in the C locale. The
// separator bytes are ASCII white space and the bytes of the patterns of
// UnitClasses' census. A pattern is a complete valid sequence, and its lead
// byte is never a continuation byte, so no decoder takes it as part of
// another unit (both of GNU's decoders skip one byte an error): wherever a
// pattern matches, the decoder finds that separator too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/kernel.hpp"
// Only SeparatorCensus and SeparatorGroup, plain structs, are used here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct SeparatorBytes : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::load;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;

  static constexpr unsigned max_patterns = UnitClasses::max_separator_groups;

  /// The census as the kernel matches it. With a byte shuffle, a byte's
  /// two nibbles each look up a byte whose bit k says whether the nibble
  /// occurs at that place in sub-pattern k, and the AND of the two says
  /// whether the byte fits there: at the lead (place 0), the byte after it
  /// (1) and the one after that (2; any byte, for two-byte patterns). A
  /// sub-pattern is a pattern's characters whose last bytes share a high
  /// nibble, so each place has one high nibble and the AND is exact (in
  /// glibc's locales there are 5 to 7 of them). Past eight (`exact` false),
  /// and in kernels without a byte shuffle, every byte equal to a pattern's
  /// lead is checked one by one instead.
  struct Patterns {
    B low[3];
    B high[3];
    B two_byte;    ///< the sub-patterns' bits of two-byte patterns
    B three_byte;  ///< and of three-byte ones
    bool exact;
    unsigned count;
    std::uint8_t lead[max_patterns];
    std::uint8_t second[max_patterns];  ///< 0 for two-byte patterns
    std::uint64_t last[max_patterns];   ///< bit k: the last byte 0x80 + k
    unsigned lead_count;                ///< the distinct leads
    std::uint8_t distinct_lead[max_patterns];
  };

  static Patterns patterns(const SeparatorCensus &census) noexcept {
    Patterns t{};
    std::uint8_t low[3][16] = {};
    std::uint8_t high[3][16] = {};
    const auto fits = [&low, &high](unsigned place, unsigned byte, unsigned bit) {
      low[place][byte & 0x0F] = static_cast<std::uint8_t>(low[place][byte & 0x0F] | bit);
      high[place][byte >> 4] = static_cast<std::uint8_t>(high[place][byte >> 4] | bit);
    };
    unsigned two_byte = 0, three_byte = 0, subpatterns = 0;
    t.count = census.count;  // at most max_patterns
    for (unsigned g = 0; g < t.count; ++g) {
      const SeparatorGroup &group = census.groups[g];
      t.lead[g] = group.lead;
      t.second[g] = group.second;
      t.last[g] = group.last;
      unsigned d = 0;
      while (d < t.lead_count && t.distinct_lead[d] != group.lead) ++d;
      if (d == t.lead_count) t.distinct_lead[t.lead_count++] = group.lead;
      const bool two = group.second == 0;
      for (unsigned nibble = 0; nibble < 4; ++nibble) {  // last bytes 8x, 9x, Ax, Bx
        const unsigned lows = static_cast<unsigned>((group.last >> (16 * nibble)) & 0xFFFF);
        if (lows == 0) continue;
        const unsigned bit = 1u << (subpatterns < 8 ? subpatterns : 7);
        ++subpatterns;
        (two ? two_byte : three_byte) |= bit;
        fits(0, group.lead, bit);
        if (!two) fits(1, group.second, bit);
        for (unsigned k = 0; k < 16; ++k) {
          if (((lows >> k) & 1) != 0) fits(two ? 1 : 2, ((8 + nibble) << 4) | k, bit);
          if (two) fits(2, k * 0x11, bit);  // any byte after a two-byte pattern
        }
      }
    }
    t.exact = subpatterns <= 8;
    const auto row = [](const std::uint8_t(&r)[16]) {
      return Base::table(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11],
                         r[12], r[13], r[14], r[15]);
    };
    for (unsigned place = 0; place < 3; ++place) {
      t.low[place] = row(low[place]);
      t.high[place] = row(high[place]);
    }
    t.two_byte = B(static_cast<std::uint8_t>(two_byte));
    t.three_byte = B(static_cast<std::uint8_t>(three_byte));
    return t;
  }

  struct Match {
    std::uint64_t bytes;  ///< bit i: byte q[i] belongs to a separator
    std::uint64_t spill;  ///< bit i: so does q[64 + i] (a separator the block's end cuts)
  };

  /// With permute64, a table of 64 entries, entry i for byte 0xC0 + i (by
  /// its low six bits): the sub-patterns it leads (its fit at place 0),
  /// 0xFF for a lead beyond the census (F4..FF, or F0..FF until
  /// four_byte_clear), 0 for any other byte. Not a member of Patterns:
  /// with it there, GCC laid out the other kernels' loop anew (AVX-512BW
  /// 0.92-0.95x).
  static B leads_from_c0(const Patterns &t, bool four_byte_clear) noexcept {
    alignas(64) std::uint8_t low[Base::width];
    alignas(64) std::uint8_t high[Base::width];
    t.low[0].store_aligned(low);
    t.high[0].store_aligned(high);
    alignas(64) std::uint8_t entries[64] = {};
    for (unsigned byte = 0xC0; byte <= 0xFF; ++byte)
      entries[byte - 0xC0] = static_cast<std::uint8_t>(low[byte & 0x0F] & high[byte >> 4]);
    for (unsigned lead = four_byte_clear ? 0xF4 : 0xF0; lead <= 0xFF; ++lead)
      entries[lead - 0xC0] = 0xFF;
    return B::load_aligned(entries);
  }

  /// With permute64, bit i: q[i] leads a pattern or a character beyond
  /// the census (bytes C0..FF in `from_c0`, leads_from_c0's table, by
  /// their low six bits: one permute). Most blocks of most scripts hold
  /// none (Cyrillic, Greek, Arabic, CJK ideographs, Hangul) and need no
  /// other test.
  static std::uint64_t watched_leads(B from_c0, const Block &b, std::uint64_t high) noexcept {
    const B v = b.v[0];
    const std::uint64_t c0_to_ff = high & Isa::sign_bits(Isa::template shift_left_words<1>(v));
    return c0_to_ff & Isa::bits(Isa::permute64(from_c0, v) != B(0));
  }

  /// With permute64 and at most eight sub-patterns, separator_bits of the
  /// block b at q whose pattern leads are at the bits of `leads` (found by
  /// watched_leads), their sub-patterns by the same permute: exact_match
  /// for one vector, without its two lookups for the leads. A body of its
  /// own: exact_match's parts shared changed GCC's inlining there and cost
  /// AVX2 and AVX-512BW 0.56-0.93x.
  static Match leads_match(const Patterns &t, B from_c0, const Block &b, const std::uint8_t *q,
                           std::uint64_t leads) noexcept {
    const auto fit = [&t](unsigned place, B v) {
      return Isa::lookup(t.low[place], v & B(0x0F)) &
             Isa::lookup(t.high[place], Isa::template shift_right<4>(v));
    };
    const B all = Isa::permute64_where(from_c0, b.v[0], leads) & fit(1, load(q + 1).v[0]) &
                  fit(2, load(q + 2).v[0]);
    const std::uint64_t two = Isa::bits((all & t.two_byte) != B(0));
    const std::uint64_t three = Isa::bits((all & t.three_byte) != B(0));
    return {two | (two << 1) | three | (three << 1) | (three << 2),
            (two >> 63) | (three >> 62) | (three >> 63)};
  }

  /// separator_bits with a byte shuffle and at most eight sub-patterns:
  /// three lookups a byte, no branch but the first.
  static Match exact_match(const Patterns &t, const Block &b, const std::uint8_t *q) noexcept {
    const auto fit = [&t](unsigned place, B v) {
      return Isa::lookup(t.low[place], v & B(0x0F)) &
             Isa::lookup(t.high[place], Isa::template shift_right<4>(v));
    };
    // Most blocks of most scripts hold no lead of a pattern: test that
    // before loading the bytes after each.
    B leads[Base::lanes];
    B any(0);
    for (std::size_t i = 0; i < Base::lanes; ++i) any = any | (leads[i] = fit(0, b.v[i]));
    if (Isa::bits(any != B(0)) == 0) return {0, 0};
    const Block next1 = load(q + 1);
    const Block next2 = load(q + 2);
    std::uint64_t two = 0, three = 0;
    for (std::size_t i = 0; i < Base::lanes; ++i) {
      const B all = leads[i] & fit(1, next1.v[i]) & fit(2, next2.v[i]);
      const unsigned shift = static_cast<unsigned>(i * Base::width);
      two |= Isa::bits((all & t.two_byte) != B(0)) << shift;
      three |= Isa::bits((all & t.three_byte) != B(0)) << shift;
    }
    return {two | (two << 1) | three | (three << 1) | (three << 2),
            (two >> 63) | (three >> 62) | (three >> 63)};
  }

  /// The bytes of the census' separators that start in the block b at q
  /// (q[64] and q[65] must be readable). The exact match inline, the
  /// compares out of line where there is a byte shuffle (they serve more
  /// than eight sub-patterns alone): GCC split it so when one loop called
  /// it, not when two did (AVX2 -mw 9.5 on Arabic 0.57x, the loops' state
  /// in memory), and the whole inline cost AVX-512BW -w 9.5 0.57-0.88x.
  [[gnu::always_inline]] static Match separator_bits(const Patterns &t, const Block &b,
                                                     const std::uint8_t *q) noexcept {
    if constexpr (Isa::has_shuffle) {
      if (t.exact) return exact_match(t, b, q);
      return compared_outlined(t, b, q);
    } else {
      return compared(t, b, q);
    }
  }

  [[gnu::noinline]] static Match compared_outlined(const Patterns &t, const Block &b,
                                                   const std::uint8_t *q) noexcept {
    return compared(t, b, q);
  }

  /// separator_bits by compares: each distinct lead, then each candidate.
  [[gnu::always_inline]] static Match compared(const Patterns &t, const Block &b,
                                               const std::uint8_t *q) noexcept {
    std::uint64_t leads = 0;
    for (unsigned d = 0; d < t.lead_count; ++d) {
      const std::uint8_t lead = t.distinct_lead[d];
      leads |= bits(b, [lead](B v) { return v == B(lead); });
    }
    if (leads == 0) return {0, 0};
    std::uint64_t candidates = leads;
    // Many leads (kana share E3 with U+3000): their second bytes too,
    // compared in registers, so that fewer go one by one.
    if (Base::popcount(leads) > 4) {
      const Block next = load(q + 1);
      candidates = 0;
      for (unsigned g = 0; g < t.count; ++g) {
        const std::uint8_t lead = t.lead[g];
        std::uint64_t hit = leads & bits(b, [lead](B v) { return v == B(lead); });
        const std::uint8_t second = t.second[g];
        if (hit != 0 && second != 0) hit &= bits(next, [second](B v) { return v == B(second); });
        candidates |= hit;
      }
    }
    Match m{0, 0};
    for (; candidates != 0; candidates &= candidates - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(candidates));
      for (unsigned g = 0; g < t.count; ++g) {
        if (q[i] != t.lead[g]) continue;
        const unsigned length = t.second[g] == 0 ? 2 : 3;
        if (length == 3 && q[i + 1] != t.second[g]) continue;
        const std::uint8_t end = q[i + length - 1];
        if ((end & 0xC0) != 0x80 || ((t.last[g] >> (end & 0x3F)) & 1) == 0) continue;
        const std::uint64_t all = length == 2 ? 3 : 7;
        m.bytes |= all << i;
        if (i + length > 64) m.spill |= all >> (64 - i);
        break;
      }
    }
    return m;
  }

  /// separators_beyond_census for those of the leads `odd` at q that a
  /// continuation byte follows: only they may decode to more than a byte.
  /// In binary data most are encoding errors (constituents), told apart
  /// here without a branch each (bench_kernels -w 9.5, VBMI: random bytes
  /// 1.9 -> 3.4 GB/s, invalid-heavy text 5.3 -> 8.3). Out of line, with
  /// registers of its own: blocks of text in most scripts never come here.
  [[gnu::noinline]] static std::uint64_t beyond_census(const Request &request,
                                                       const std::uint8_t *q, std::uint64_t odd,
                                                       std::uint64_t &spill,
                                                       std::uint64_t &decoded) noexcept {
    const Block b = load(q);
    odd &= (Base::continuation_bits(b, Base::sign_bits(b)) >> 1) |
           (std::uint64_t{(q[64] & 0xC0) == 0x80} << 63);
    return odd == 0 ? 0 : separators_beyond_census(request, q, odd, spill, decoded);
  }
};

}  // namespace fastwc::count::kernels
