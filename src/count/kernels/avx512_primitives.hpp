// SPDX-License-Identifier: GPL-3.0-or-later
// The IsaOps primitives (isa_primitives.hpp) that every AVX-512 kernel
// shares, over its architecture tag A. Included only by the AVX-512 kernel
// files, which are built with AVX-512 flags: a class template, so that each
// kernel gets its own copy (tests/kernels/check_symbols.py).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace fastwc::count::kernels {

template <class A>
struct Avx512Primitives {
  using batch = xsimd::batch<std::uint8_t, A>;
  using batch_bool = typename batch::batch_bool_type;
  static constexpr bool has_mask_registers = true;
  static constexpr bool has_shuffle = true;
  static constexpr bool has_gather = true;
  using wide = xsimd::batch<std::uint32_t, A>;

  static std::uint64_t bits(batch_bool m) noexcept {
    return static_cast<std::uint64_t>(static_cast<__mmask64>(m));
  }
  static std::uint64_t sign_bits(batch v) noexcept {
    return static_cast<std::uint64_t>(_mm512_movepi8_mask(v));
  }
  static batch to_bytes(batch_bool m) noexcept {
    return batch(_mm512_movm_epi8(static_cast<__mmask64>(m)));
  }
  static std::uint64_t sum_bytes(batch v) noexcept {
    // By hand, with zero-masked extracts: gcc 12's _mm512_reduce_add_epi64
    // reads an undefined register and trips -Wuninitialized.
    const __m512i s = _mm512_sad_epu8(v, _mm512_setzero_si512());
    const __m256i t = _mm256_add_epi64(_mm512_maskz_extracti64x4_epi64(0xF, s, 0),
                                       _mm512_maskz_extracti64x4_epi64(0xF, s, 1));
    const __m128i u = _mm_add_epi64(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(u)) +
           static_cast<std::uint64_t>(_mm_extract_epi64(u, 1));
  }
  static batch_bool le(batch a, batch b) noexcept { return a <= b; }
  static batch_bool continuation(batch v) noexcept {
    return batch_bool(_mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64)));
  }
  static batch count_into(batch counts, batch_bool m) noexcept {
    return batch(
        _mm512_mask_sub_epi8(counts, static_cast<__mmask64>(m), counts, _mm512_set1_epi8(-1)));
  }
  /// Unsigned saturating a - b per byte (xsimd's ssub does not compile at
  /// -O0 for AVX-512, where gcc's intrinsics are macros with C casts).
  static batch subs(batch a, batch b) noexcept { return batch(_mm512_subs_epu8(a, b)); }
  /// Each byte shifted right by K bits.
  template <int K>
  static batch shift_right(batch v) noexcept {
    return batch(
        _mm512_and_si512(_mm512_srli_epi16(v, K), _mm512_set1_epi8(static_cast<char>(0xFF >> K))));
  }
  static batch lookup(batch table, batch index) noexcept {
    return batch(_mm512_shuffle_epi8(table, index));
  }
  template <int K>
  static batch shift_in(batch cur, batch prev) noexcept {
    // [prev's lane 3, cur's lanes 0-2], then per-lane byte alignment. (The
    // zero-masked form of valignq: gcc 12's plain one reads an undefined
    // register and trips -Wmaybe-uninitialized.)
    const __m512i lanes_up = _mm512_maskz_alignr_epi64(0xFF, cur, prev, 6);
    return batch(_mm512_alignr_epi8(cur, lanes_up, 16 - K));
  }
  // The zero-masked forms again: gcc 12's plain ones read an undefined
  // register and trip -Wmaybe-uninitialized.
  template <int K>
  static wide widen(batch v) noexcept {
    return wide(_mm512_maskz_cvtepu8_epi32(0xFFFF, _mm512_maskz_extracti32x4_epi32(0xFF, v, K)));
  }
  template <int N>
  static wide shift_left(wide v) noexcept {
    return wide(_mm512_maskz_slli_epi32(0xFFFF, v, N));
  }
  static wide gather(const std::uint8_t *base, wide offset, std::uint32_t active) noexcept {
    return wide(_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), static_cast<__mmask16>(active),
                                            offset, base, 1));
  }
  static std::uint32_t wide_bits(typename wide::batch_bool_type m) noexcept {
    return static_cast<std::uint32_t>(static_cast<__mmask16>(m));
  }
  static constexpr bool has_compress = true;
  static wide compress(wide v, std::uint32_t mask) noexcept {
    return wide(_mm512_maskz_compress_epi32(static_cast<__mmask16>(mask), v));
  }
  static wide expand(wide v, std::uint32_t mask) noexcept {
    return wide(_mm512_maskz_expand_epi32(static_cast<__mmask16>(mask), v));
  }
  static std::uint64_t deposit(std::uint64_t bits, std::uint64_t mask) noexcept {
    return _pdep_u64(bits, mask);
  }
};

}  // namespace fastwc::count::kernels
