// SPDX-License-Identifier: GPL-3.0-or-later
// GNU 9.5+'s words with -m (Plan::utf8_words under Rule95) in stride over
// valid text, from the separators' byte patterns (separator_bytes.hpp)
// instead of each character's cell: from 9.5 on, every character but white
// space is part of a word (wc.c: in_word2 = !c32isspace (wc) &&
// !maybe_c32isnbspace (wc)), so a valid block needs the patterns for its
// words and its continuation bytes for its characters, as -m alone
// (chars_in_stride.hpp), and no lookup of any cell. kernel_driver.hpp's
// UTF-8 loop hands it a block that passed the validator once UnitClasses
// has the census of separators.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/separator_bytes.hpp"
#include "count/kernels/utf8_validation.hpp"
#include "count/summary_ops.hpp"

namespace fastwc::count::kernels {

template <class A>
struct SeparatorCharsInStride : Blocks<A> {
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
  using Validation = Utf8Validation<A>;

  /// From a block at a unit boundary that passed the validator, while the
  /// block after it passes too (valid_utf8_at): every character that
  /// starts in it is valid, so it is counted whole at its lead, and each of
  /// its bytes takes its class; the bytes of a separator cut by the
  /// block's end are carried to the next. Stops before a block whose
  /// successor fails or that would pass the chunk's lookahead, or at a
  /// block of plain ASCII; returns where, which may be inside a character
  /// counted already (its bytes there have its class: they change no word
  /// state). The characters whose leads lie beyond the census
  /// (F4, and F0..F3 until `four_byte_clear`) are decoded
  /// (separators_beyond_census), and `looked_up` counts them. Two blocks
  /// a step where Validation::in_pairs says (a block of ASCII between two
  /// others stays in the stride; a separator cut by the first's end is
  /// carried to the second as from any block to the next): measured, -mw
  /// under 9.5 on new text (4 MiB of each 64 MiB script corpus), VBMI
  /// 1.04-1.25x (Chinese 1.55x), AVX-512BW 1.0-1.56x; at 256 KiB, VBMI
  /// 1.02-1.11x.
  [[gnu::noinline]] static std::size_t run(const Request &request,
                                           const typename Validation::Validator &check,
                                           const typename SeparatorPatterns::Patterns &patterns,
                                           bool four_byte_clear, const std::uint8_t *p,
                                           std::size_t pos, std::size_t n, UnitAccumulator &result,
                                           std::uint64_t &looked_up) noexcept {
    const typename Validation::Validator validator = check;  // in registers
    const typename Classes::Constants k = Classes::constants();
    const B beyond_census(four_byte_clear ? 0xF4 : 0xF0);
    B from_c0{};
    if constexpr (Isa::has_permute64)
      from_c0 = SeparatorPatterns::leads_from_c0(patterns, four_byte_clear);
    UnitAccumulator acc = result;
    const std::size_t start = pos;
    std::uint64_t lines = 0;
    std::uint64_t conts = 0;
    std::uint64_t carry = 0;  // the bytes of a separator that a block's end cuts
    // The block cur at q: its characters, lines and words.
    const auto count = [&](const Block &cur, const std::uint8_t *q) {
      const std::uint64_t high = sign_bits(cur);
      const std::uint64_t cont = Base::continuation_bits(cur, high);
      const std::uint64_t space = Classes::space_bits(cur, k);
      std::uint64_t sep = space | carry;
      carry = 0;
      if (high != 0) {
        std::uint64_t odd = 0;
        if constexpr (Isa::has_permute64) {
          const std::uint64_t watched = SeparatorPatterns::watched_leads(from_c0, cur, high);
          if (watched != 0) {
            odd = watched & bits(cur, [&beyond_census](B v) { return Isa::le(beyond_census, v); });
            const std::uint64_t leads = watched & ~odd;
            if (leads != 0) {
              const typename SeparatorPatterns::Match match =
                  patterns.exact ? SeparatorPatterns::leads_match(patterns, from_c0, cur, q, leads)
                                 : SeparatorPatterns::separator_bits(patterns, cur, q);
              sep |= match.bytes;
              carry = match.spill;
            }
          }
        } else {
          const typename SeparatorPatterns::Match match =
              SeparatorPatterns::separator_bits(patterns, cur, q);
          sep |= match.bytes;
          carry = match.spill;
          odd = bits(cur, [&beyond_census](B v) { return Isa::le(beyond_census, v); });
        }
        if (odd != 0) [[unlikely]]
          sep |= SeparatorPatterns::beyond_census(request, q, odd, carry, looked_up);
      }
      // Every byte has its character's class (separator_bytes.hpp), so
      // every byte is a separator or a constituent, ASCII controls
      // included (9.5: every character but white space is part of a word).
      Acc::words(acc, sep, ~sep);
      lines += popcount(Classes::newline_bits(cur, k));
      conts += popcount(cont);
    };
    bool ascii_next = false;
    if constexpr (Validation::in_pairs) {
      while (pos + 192 + 5 <= n) {
        const Block cur = load(p + pos);
        const Block next = load(p + pos + 64);
        const Block after = load(p + pos + 128);
        if (!Validation::valid_utf8_pair_at(validator, next, after, cur.v[Base::lanes - 1],
                                            p + pos + 64))
          break;
        count(cur, p + pos);
        count(next, p + pos + 64);
        pos += 128;
        ascii_next = sign_bits(after) == 0;
        if (ascii_next) break;
      }
    }
    // Both blocks loaded anew each step (L1 hits): a block carried from
    // one step to the next went through memory on AVX2.
    while (!ascii_next && pos + 128 + 5 <= n) {
      const Block cur = load(p + pos);
      const Block next = load(p + pos + 64);
      if (!Validation::valid_utf8_at(validator, next, cur.v[Base::lanes - 1], p + pos + 64)) break;
      count(cur, p + pos);
      pos += 64;
      if (sign_bits(next) == 0) break;
    }
    acc.summary.lines += lines;
    acc.summary.chars += (pos - start) - conts;
    result = acc;
    return pos;
  }
};

}  // namespace fastwc::count::kernels
