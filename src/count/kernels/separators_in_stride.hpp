// SPDX-License-Identifier: GPL-3.0-or-later
// GNU 9.5+'s words without -m or -L in stride (kernel_driver.hpp's
// separator_words_plan, once UnitClasses has the census of separators):
// every byte takes its character's class by pattern (separator_bytes.hpp),
// whatever the unit boundaries, so blocks go 64 bytes a step, with the
// bytes of a separator cut by a block's end carried to the next.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/separator_bytes.hpp"
#include "count/summary_ops.hpp"

namespace fastwc::count::kernels {

template <class A>
struct SeparatorsInStride : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::load;
  using Base::popcount;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Acc = Accumulate<A>;
  using Classes = CByteClasses<A>;
  using SeparatorPatterns = SeparatorBytes<A>;

  /// Plan::utf8_separator_words' blocks from the body's start,
  /// until fewer than simd_block_with_lookahead bytes remain; returns where
  /// it stopped. `carry_out` (bit i: the byte i after that ends a separator
  /// that began before it) is for the tail; `looked_up` counts the
  /// characters beyond the census that were decoded. With VBMI and exact
  /// patterns, blocks go through a loop without calls (sparse or dense, by
  /// the body's first blocks), which stops at a block with leads beyond
  /// the census, and from there through the loop that decodes them, which
  /// hands back after calm_blocks blocks without: a call in the loop, even
  /// on a path few blocks take, costs it the registers its tables and
  /// constants keep.
  static std::size_t run(const Request &request,
                         const typename SeparatorPatterns::Patterns &patterns, bool four_byte_clear,
                         const std::uint8_t *p, std::size_t n, UnitAccumulator &result,
                         std::uint64_t &carry_out, std::uint64_t &looked_up) noexcept {
    State s{result, 0, 0};
    if constexpr (Isa::has_permute64) {
      const B from_c0 = SeparatorPatterns::leads_from_c0(patterns, four_byte_clear);
      if (patterns.exact) {
        const bool dense = mostly_watched(from_c0, p, n);
        for (;;) {
          const Exit e = dense ? loop<Body::dense>(request, patterns, from_c0, four_byte_clear, p,
                                                   n, s, looked_up)
                               : loop<Body::sparse>(request, patterns, from_c0, four_byte_clear, p,
                                                    n, s, looked_up);
          if (e == Exit::done) break;
          loop<Body::hand_back>(request, patterns, from_c0, four_byte_clear, p, n, s, looked_up);
        }
      } else {
        loop<Body::full>(request, patterns, from_c0, four_byte_clear, p, n, s, looked_up);
      }
    } else {
      loop<Body::full>(request, patterns, B{}, four_byte_clear, p, n, s, looked_up);
    }
    result = s.acc;
    carry_out = s.carry;
    return s.pos;
  }

 private:
  /// Whether the body's text goes faster through the dense loop: when at
  /// least dense_samples of its first sample_blocks blocks hold a watched
  /// lead. Text keeps to its script for long, and the first blocks are read
  /// next anyway (sampled across the body, the scattered loads cost the
  /// fastest scripts 2-3% at 256 KiB).
  static constexpr std::size_t sample_blocks = 16;
  static constexpr std::size_t dense_samples = 11;
  static bool mostly_watched(const B &from_c0, const std::uint8_t *p, std::size_t n) noexcept {
    if (n < sample_blocks * 64 + simd_block_with_lookahead) return false;
    std::size_t watched = 0;
    for (std::size_t i = 0; i < sample_blocks; ++i) {
      const Block b = load(p + i * 64);
      const std::uint64_t high = sign_bits(b);
      watched += high != 0 && SeparatorPatterns::watched_leads(from_c0, b, high) != 0 ? 1 : 0;
    }
    return watched >= dense_samples;
  }

  struct State {
    UnitAccumulator acc;
    std::uint64_t carry;
    std::size_t pos;
  };

  /// The loop's bodies. With VBMI and exact patterns, a sparse body asks
  /// one permute whether a block holds a watched lead (a pattern's, or one
  /// beyond the census) and matches only the blocks that do (Cyrillic,
  /// Greek, Arabic, Devanagari, CJK ideographs and Hangul hold none in most
  /// blocks); a dense body matches every block with high bytes by the
  /// nibble lookups, as the kernels without VBMI do, which costs less where
  /// nearly every block holds a lead (kana and U+3000's E3, typographic
  /// punctuation's E2, U+00A0's C2): measured in bench/micro/RESULTS.md.
  /// Both stop before a block with leads beyond the census (lean); the
  /// hand_back body takes those out of line, and stops after calm_blocks
  /// blocks in a row without (binary data has them in most blocks). `full`
  /// is the other kernels' one body, and VBMI's with patterns that are not
  /// exact. Out of line, so that each loop's state stays in registers.
  enum class Body { full, sparse, dense, hand_back };
  enum class Exit { done, beyond_census, calm };

  static constexpr unsigned calm_blocks = 8;
  /// Blocks from s.pos while simd_block_with_lookahead bytes remain before n.
  template <Body body>
  [[gnu::noinline]] static Exit loop(const Request &request,
                                     const typename SeparatorPatterns::Patterns &patterns,
                                     const B from_c0, bool four_byte_clear, const std::uint8_t *p,
                                     std::size_t n, State &state,
                                     std::uint64_t &looked_up) noexcept {
    constexpr bool lean = body == Body::sparse || body == Body::dense;
    constexpr bool by_permute = Isa::has_permute64 && body != Body::dense;
    // Leads of characters the census does not cover: F4..FF always (above
    // U+10FFFF, or no character), F0..F3 until it has walked their planes.
    const B beyond_census(four_byte_clear ? 0xF4 : 0xF0);
    const typename Classes::Constants k = Classes::constants();
    UnitAccumulator acc = state.acc;
    std::uint64_t carry = state.carry;
    std::uint64_t lines = 0;
    std::size_t pos = state.pos;
    Exit exit = Exit::done;
    unsigned calm = 0;
    for (; pos + simd_block_with_lookahead <= n; pos += 64) {
      const std::uint8_t *q = p + pos;
      const Block b = load(q);
      std::uint64_t sep = Classes::space_bits(b, k) | carry;
      std::uint64_t next_carry = 0;
      if constexpr (by_permute) {
        const std::uint64_t high = sign_bits(b);
        const std::uint64_t watched =
            high == 0 ? 0 : SeparatorPatterns::watched_leads(from_c0, b, high);
        if (watched != 0) {
          // Patterns are two or three bytes long: their leads lie below
          // the census' bounds.
          const std::uint64_t odd =
              watched & bits(b, [&beyond_census](B v) { return Isa::le(beyond_census, v); });
          if constexpr (lean) {
            if (odd != 0) {
              exit = Exit::beyond_census;
              break;
            }
          }
          const std::uint64_t leads = watched & ~odd;
          if (leads != 0) [[likely]] {
            const typename SeparatorPatterns::Match match =
                lean || patterns.exact
                    ? SeparatorPatterns::leads_match(patterns, from_c0, b, q, leads)
                    : SeparatorPatterns::separator_bits(patterns, b, q);
            sep |= match.bytes;
            next_carry = match.spill;
          }
          if constexpr (!lean) {
            if (odd != 0) {
              sep |= SeparatorPatterns::beyond_census(request, q, odd, next_carry, looked_up);
              calm = 0;
            }
          }
        }
        if constexpr (body == Body::hand_back) ++calm;
      } else if constexpr (body == Body::dense) {
        if (sign_bits(b) != 0) {
          const typename SeparatorPatterns::Match match =
              SeparatorPatterns::exact_match(patterns, b, q);
          if (bits(b, [&beyond_census](B v) { return Isa::le(beyond_census, v); }) != 0) {
            exit = Exit::beyond_census;
            break;
          }
          sep |= match.bytes;
          next_carry = match.spill;
        }
      } else if (sign_bits(b) != 0) {
        const typename SeparatorPatterns::Match match =
            SeparatorPatterns::separator_bits(patterns, b, q);
        sep |= match.bytes;
        next_carry = match.spill;
        const std::uint64_t odd =
            bits(b, [&beyond_census](B v) { return Isa::le(beyond_census, v); });
        if (odd != 0)
          sep |= SeparatorPatterns::beyond_census(request, q, odd, next_carry, looked_up);
      }
      carry = next_carry;
      lines += popcount(Classes::newline_bits(b, k));
      Acc::words(acc, sep, ~sep);
      if constexpr (body == Body::hand_back) {
        if (calm > calm_blocks) {
          pos += 64;
          exit = Exit::calm;
          break;
        }
      }
    }
    acc.summary.lines += lines;
    state.acc = acc;
    state.carry = carry;
    state.pos = pos;
    return exit;
  }
};

}  // namespace fastwc::count::kernels
