// SPDX-License-Identifier: GPL-3.0-or-later
// Over any bytes, each lead judged alone, with census_tables.hpp's tables
// and cells_in_stride.hpp's looks: GNU 9.1's words without -m or -L
// (Plan::utf8_lead_words, lead_run's comment says why that is exact) and
// -L without -m or -w (Plan::utf8_lead_width, lead_block's).
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/cells_in_stride.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/stride_policy.hpp"
#include "count/kernels/utf8_validation.hpp"
#include "count/summary_ops.hpp"

namespace fastwc::count::kernels {

template <class A>
struct LeadsAlone : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::load;
  using Base::popcount;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Validation = Utf8Validation<A>;
  using Classes = CByteClasses<A>;
  using Acc = Accumulate<A>;
  using Stride = CellsInStride<A>;
  using Tables = typename Stride::Tables;
  using CellCache = typename Stride::CellCache;
  using Found = typename Stride::Found;
  using LeadSets = typename Stride::LeadSets;

  /// Plan::utf8_lead_words (GNU 9.1's words without -m or -L) over any
  /// bytes, in stride from the body's start until fewer than
  /// simd_block_with_lookahead bytes remain; returns where it stopped. Under
  /// 9.1 every byte that is not part of a standard sequence is transparent
  /// whichever way glibc's decoder takes it (an error skipped a byte at a
  /// time, or one of its longer forms or values above U+10FFFF, which are
  /// not printable), as are the continuation bytes of a character whose
  /// lead carries its class, so nothing needs validating but each lead:
  /// followed by as many continuation bytes as it announces, and not one of
  /// start_errors' pairs (the marked leads of the Tables of words alone).
  /// No decoder takes a lead byte into another unit, so each lead is judged
  /// alone. The stop may be inside a character or among stray continuation
  /// bytes, all of them transparent.
  static std::size_t lead_run(const UnitClasses &classes,
                              const typename Validation::Validator &check, const Tables &t,
                              CellCache &cache, const std::uint8_t *p, std::size_t n,
                              UnitAccumulator &result) noexcept {
    return judged_run<true, false, false>(classes, check, t, cache, p, 0, n, result);
  }

  /// From the block at p + pos, which failed the validator, and each block
  /// after it that fails too (a block that passes starts at a unit
  /// boundary), judged as lead_run judges them; returns where it stopped,
  /// which may be inside a character counted already or among stray
  /// continuation bytes. kernel_driver.hpp's UTF-8 loop calls it.
  template <bool Words, bool Width>
  static std::size_t failed_run(const UnitClasses &classes,
                                const typename Validation::Validator &check, const Tables &t,
                                CellCache &cache, const std::uint8_t *p, std::size_t pos,
                                std::size_t n, UnitAccumulator &result) noexcept {
    return judged_run<Words, Width, true>(classes, check, t, cache, p, pos, n, result);
  }

  /// Blocks from p + pos, 64 bytes a step, judged by lead_block<Words, Width>, until fewer than
  /// simd_block_with_lookahead bytes remain or, with UntilValid, a block
  /// passes the validator; returns where it stopped. Out of line: the same
  /// loop inline in kernel_driver.hpp's UTF-8 loop slowed VBMI's -L on
  /// valid text 0.82-0.93x.
  template <bool Words, bool Width, bool UntilValid>
  [[gnu::noinline]] static std::size_t judged_run(const UnitClasses &classes,
                                                  const typename Validation::Validator &check,
                                                  const Tables &t, CellCache &cache,
                                                  const std::uint8_t *p, std::size_t pos,
                                                  std::size_t n, UnitAccumulator &result) noexcept {
    const typename Validation::Validator validator = check;  // in registers
    const Tables lookup = t;
    const typename Classes::Constants k = Classes::constants();
    UnitAccumulator acc = result;
    std::uint64_t lines = 0;
    while (pos + simd_block_with_lookahead <= n) {
      lines += lead_block<Words, Width>(classes, validator, lookup, cache, p + pos, k, acc);
      pos += 64;
      if constexpr (UntilValid) {
        if (pos + simd_block_with_lookahead <= n &&
            Validation::valid_utf8(validator, load(p + pos)))
          break;
      }
    }
    acc.summary.lines += lines;
    result = acc;
    return pos;
  }

  /// One block at q (q[64..66] readable, any bytes): adds what the
  /// characters whose leads it holds do to the words (lead_run's plan) or
  /// to -L (Plan::utf8_lead_width) to acc; returns its newlines. A lead
  /// counts when a standard sequence follows it: its continuation bytes,
  /// and not one of start_errors' pairs (overlong forms, surrogates, values
  /// above U+10FFFF). What else a decoder makes of the bytes (errors a byte
  /// at a time, glibc's 5- and 6-byte forms and values above U+10FFFF, or
  /// RFC 3629's errors) is no width in any GNU version (wc.c adds wcwidth
  /// only for printable characters) and, under 9.1, transparent to words;
  /// no decoder takes a lead byte into another unit. The tables are those
  /// of words alone (their marked leads: start_lead's) or -L alone (the
  /// wide ones).
  template <bool Words, bool Width>
  [[gnu::always_inline]] static std::uint64_t lead_block(
      const UnitClasses &classes, const typename Validation::Validator &validator,
      const Tables &lookup, CellCache &cache, const std::uint8_t *q,
      const typename Classes::Constants &k, UnitAccumulator &acc) noexcept {
    static_assert(Words != Width, "words alone or -L alone");
    const Block cur = load(q);
    std::uint64_t space = 0;
    std::uint64_t con = 0;
    if constexpr (Words) {
      space = Classes::space_bits(cur, k);
      con = Classes::graph_bits(cur, k);  // ASCII controls are transparent
    }
    std::uint64_t narrow = 0;
    std::uint64_t wide = 0;
    if constexpr (Width) narrow = Classes::print_bits(cur, k);
    Found f{0, 0, 0, 0};
    const std::uint64_t high = sign_bits(cur);
    if (high != 0) {
      const std::uint64_t cont = bits(cur, [](B v) { return Isa::continuation(v); });
      std::uint64_t good = high & ~cont;
      if (good != 0) {
        // Bit i of cN: byte i + N is a continuation byte (q[64..66] too).
        const std::uint64_t after = ((q[64] & 0xC0) == 0x80 ? 1u : 0u) |
                                    ((q[65] & 0xC0) == 0x80 ? 2u : 0u) |
                                    ((q[66] & 0xC0) == 0x80 ? 4u : 0u);
        const std::uint64_t c1 = (cont >> 1) | (after << 63);
        const std::uint64_t c2 = (cont >> 2) | (after << 62);
        const std::uint64_t c3 = (cont >> 3) | (after << 61);
        const std::uint64_t three = bits(cur, [](B v) { return Isa::le(B(0xE0), v); });
        const std::uint64_t four = bits(cur, [](B v) { return Isa::le(B(0xF0), v); });
        good &= c1 & (~three | c2) & (~four | c3);
        const LeadSets sets = Stride::lead_sets(lookup, cur);
        // -L's tables mark the wide leads, not start_lead's: every good
        // lead is checked then.
        if (Width || (good & sets.marked) != 0)
          good &= ~Validation::start_errors(validator, cur, load(q + 1));
        std::uint64_t pending = good & sets.unsettled;
        // GNU 9.1's words or -L: the plans the slots serve.
        constexpr bool slots = StridePolicy<A>::template cell_slots<false, Width>;
        if constexpr (slots) {
          if (pending != 0)
            pending &= ~Stride::template in_slots<Words, Width>(cache, q, cur, pending, f);
        }
        if (pending != 0)
          Stride::template classify_leads<Words, Width, Stride::Busy::never, slots>(
              classes, lookup, cache, q, cur, pending, f);
        if constexpr (Words) con |= good & ~(f.sep | f.trans);
        if constexpr (Width) {
          narrow |= (good & ~(sets.unsettled | sets.marked)) | f.narrow;
          wide = (good & sets.marked) | f.wide;
        }
      }
    }
    if constexpr (Words) Acc::words(acc, space | f.sep, con);
    if constexpr (Width)
      Acc::widths(acc, narrow, wide, Classes::tab_bits(cur, k), Classes::break_bits(cur, k), 64);
    return popcount(Classes::newline_bits(cur, k));
  }
};

}  // namespace fastwc::count::kernels
