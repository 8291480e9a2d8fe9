// SPDX-License-Identifier: GPL-3.0-or-later
// A 64-byte block, the unit every stage works in: whatever the vector
// width, every class of byte becomes one 64-bit mask, so the word and -L
// logic (summary_ops.hpp) is shared by all ISAs. ODR hygiene, for this and
// every stage: each is a class template over the xsimd architecture A, so
// each ISA gets its own symbols, never an inline function that two objects
// compiled with different flags both emit (tests/kernels/check_symbols.py).
#pragma once

#include <cstddef>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "count/kernels/isa_primitives.hpp"
#include "count/summary_ops.hpp"

namespace fastwc::count::kernels {

template <class A>
struct Blocks {
  using Isa = IsaOps<A>;
  using B = typename Isa::batch;
  using M = typename B::batch_bool_type;
  static constexpr std::size_t width = B::size;
  static constexpr std::size_t lanes = 64 / width;
  static_assert(lanes * width == 64);

  struct Block {
    B v[lanes];
  };

  static Block load(const std::uint8_t *p) noexcept {
    Block b;
    for (std::size_t i = 0; i < lanes; ++i) b.v[i] = B::load_unaligned(p + i * width);
    return b;
  }

  /// Loads the last size (< 64) bytes at p into a block padded with zeros;
  /// the caller masks the padding off.
  static Block load_partial(const std::uint8_t *p, std::size_t size) noexcept {
    alignas(64) std::uint8_t copy[64] = {};
    for (std::size_t i = 0; i < size; ++i) copy[i] = p[i];
    return load(copy);
  }

  template <class Pred>
  static std::uint64_t bits(const Block &b, Pred pred) noexcept {
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) m |= Isa::bits(pred(b.v[i])) << (i * width);
    return m;
  }

  static std::uint64_t sign_bits(const Block &b) noexcept {
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) m |= Isa::sign_bits(b.v[i]) << (i * width);
    return m;
  }

  /// The continuation bytes (10xxxxxx) of b, whose sign bits are `high`.
  /// With VBMI (AVX-512), bit 6 by a word shift to the sign bit and a move
  /// to a mask, not a compare: compares take the port that the permutes
  /// need (bench/micro/RESULTS.md).
  static std::uint64_t continuation_bits(const Block &b, std::uint64_t high) noexcept {
    if constexpr (Isa::has_permute64 && lanes == 1)
      return high & ~Isa::sign_bits(Isa::template shift_left_words<1>(b.v[0]));
    else
      return bits(b, [](B v) { return Isa::continuation(v); });
  }

  /// B(byte), which the compiler cannot see is a constant. With AVX-512,
  /// GCC builds a splat at each use, in loops too, by a broadcast from a
  /// general register: an operation on the vector port that bounds these
  /// kernels (bench/micro/RESULTS.md). Hot loops make their constants
  /// before the loop with kept(): they stay in registers or are reloaded.
  static B kept(std::uint8_t byte) noexcept {
    typename B::register_type r = B(byte);
    if constexpr (Isa::has_mask_registers) asm("" : "+v"(r));
    return B(r);
  }

  static std::uint64_t popcount(std::uint64_t x) noexcept { return Accumulate<A>::ones(x); }

  static constexpr std::uint64_t live_mask(std::size_t end) noexcept {
    return end >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << end) - 1;
  }

  /// A 16-byte lookup table, repeated in every 16-byte lane.
  static B table(std::uint8_t t0, std::uint8_t t1, std::uint8_t t2, std::uint8_t t3,
                 std::uint8_t t4, std::uint8_t t5, std::uint8_t t6, std::uint8_t t7,
                 std::uint8_t t8, std::uint8_t t9, std::uint8_t ta, std::uint8_t tb,
                 std::uint8_t tc, std::uint8_t td, std::uint8_t te, std::uint8_t tf) noexcept {
    alignas(64) std::uint8_t t[64];
    const std::uint8_t row[16] = {t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, ta, tb, tc, td, te, tf};
    for (std::size_t i = 0; i < 64; ++i) t[i] = row[i % 16];
    return B::load_aligned(t);
  }
};

}  // namespace fastwc::count::kernels
