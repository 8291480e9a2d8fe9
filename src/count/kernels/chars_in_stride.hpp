// SPDX-License-Identifier: GPL-3.0-or-later
// -m on valid multibyte text in stride (kernel_driver.hpp's UTF-8 loop
// hands it a block that passed the validator): characters are the bytes
// that are not continuation bytes, 64 bytes a step while the next block is
// valid too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/utf8_validation.hpp"
#include "count/summary_ops.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CharsInStride : Blocks<A> {
  using Base = Blocks<A>;
  using Base::load;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Validation = Utf8Validation<A>;

  /// -m in stride, from a block at a unit boundary that passed the
  /// validator: while the block after it passes too (valid_utf8_at),
  /// every character that starts in it is valid, those its end cuts
  /// included, so it is counted whole (a character, at its lead) and the
  /// next one starts 64 bytes on, whatever characters cross between them.
  /// Stops before a block whose successor fails or that would pass the
  /// chunk's lookahead, or at a block of plain ASCII (ascii_run's); returns
  /// where, which may be inside a character counted already. A loop of its
  /// own, with no call in it, keeps the validator's tables and constants in
  /// registers, and no position depends on the data. Measured (Cyrillic,
  /// avx512vbmi): 8.8 GB/s in utf8_plan's loop, 12.5 here, 15.9 with the
  /// per-byte counters and VBMI's nibble lookups, when the loop is bound by
  /// its vector instructions. Decoded words and -L gained nothing from a
  /// stride, and lost 10-20%: their classifiers' calls spill the loop's
  /// state anyway (GNU 9.5+'s words without decoding go in stride:
  /// separators_in_stride.hpp). With AVX-512, two blocks a step
  /// (Validation::in_pairs), the verdicts on the blocks after them tested
  /// at once; a block of ASCII between two others stays in the stride,
  /// which counts it alike. Measured on new text (4 MiB of each 64 MiB
  /// script corpus), VBMI and AVX-512BW: 1.15-1.22x on every script; four
  /// blocks a step 0.92-0.96x; with pairs, AVX2 0.84-0.91x, SSSE3 and SSE2
  /// 1.01-1.08x.
  [[gnu::noinline]] static std::size_t run(const typename Validation::Validator &check,
                                           const std::uint8_t *p, std::size_t pos, std::size_t n,
                                           UnitAccumulator &result) noexcept {
    const typename Validation::Validator tables = check;  // in registers, not behind a pointer
    const std::size_t start = pos;
    std::uint64_t lines = 0;
    std::uint64_t conts = 0;
    // Per-byte counters: a compare and a (masked) add a class, where a
    // mask's popcount costs a move, the count and an add. One counter a
    // class, which each of a block's vectors adds to (with more than one
    // vector a block, a counter a vector took AVX2 registers that the
    // validator's tables need), summed at the end and every
    // blocks_per_sum blocks, before a byte can wrap.
    constexpr unsigned blocks_per_sum = 255 / Base::lanes;
    B newline_counts(0);
    B cont_counts(0);
    const auto sum_counts = [&] {
      lines += Isa::sum_bytes(newline_counts);
      conts += Isa::sum_bytes(cont_counts);
      newline_counts = cont_counts = B(0);
    };
    const auto count = [&](const Block &b) {
      for (std::size_t i = 0; i < Base::lanes; ++i) {
        newline_counts = Isa::count_into(newline_counts, b.v[i] == B('\n'));
        cont_counts = Isa::count_into(cont_counts, Isa::continuation(b.v[i]));
      }
    };
    Block cur = load(p + pos);
    unsigned since_sum = 0;
    bool ascii_next = false;
    if constexpr (Validation::in_pairs) {
      while (pos + 192 + 5 <= n) {
        if (since_sum + 2 > blocks_per_sum) {
          sum_counts();
          since_sum = 0;
        }
        const Block next = load(p + pos + 64);
        const Block after = load(p + pos + 128);
        if (!Validation::valid_utf8_pair_at(tables, next, after, cur.v[Base::lanes - 1],
                                            p + pos + 64))
          break;  // the loop below finds which block stops the stride
        count(cur);
        count(next);
        since_sum += 2;
        pos += 128;
        cur = after;
        ascii_next = sign_bits(after) == 0;
        if (ascii_next) break;
      }
    }
    for (; !ascii_next && pos + 128 + 5 <= n; ++since_sum) {
      if (since_sum + 1 > blocks_per_sum) {
        sum_counts();
        since_sum = 0;
      }
      const Block next = load(p + pos + 64);
      if (!Validation::valid_utf8_at(tables, next, cur.v[Base::lanes - 1], p + pos + 64)) break;
      count(cur);
      pos += 64;
      if (sign_bits(next) == 0) break;
      cur = next;
    }
    sum_counts();
    result.summary.lines += lines;
    result.summary.chars += (pos - start) - conts;
    return pos;
  }
};

}  // namespace fastwc::count::kernels
