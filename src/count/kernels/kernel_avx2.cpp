// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX2 kernel: kernel_driver.hpp instantiated for xsimd::avx2, built with
// -mavx2 -mbmi -mbmi2 -mpopcnt (the kernel table in src/count/meson.build lists each).
#include <immintrin.h>

#include "count/kernels/kernel_driver.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<xsimd::avx2> {
  using batch = xsimd::batch<std::uint8_t, xsimd::avx2>;
  using batch_bool = batch::batch_bool_type;
  static constexpr bool has_mask_registers = false;
  static constexpr bool has_shuffle = true;
  static constexpr bool has_permute64 = false;
  static constexpr bool has_gather = true;
  static constexpr bool has_compress = false;
  using wide = xsimd::batch<std::uint32_t, xsimd::avx2>;

  static std::uint64_t bits(batch_bool m) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(m));
  }
  static std::uint64_t sign_bits(batch v) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
  }
  static batch to_bytes(batch_bool m) noexcept { return batch(static_cast<__m256i>(m)); }
  static std::uint64_t sum_bytes(batch v) noexcept {
    const __m256i s = _mm256_sad_epu8(v, _mm256_setzero_si256());
    const __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(t)) +
           static_cast<std::uint64_t>(_mm_extract_epi64(t, 1));
  }
  static batch_bool le(batch a, batch b) noexcept { return xsimd::min(a, b) == a; }
  static batch_bool continuation(batch v) noexcept {
    return batch_bool(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v));
  }
  /// A true byte of m is 0xFF, that is -1.
  static batch count_into(batch counts, batch_bool m) noexcept {
    return batch(_mm256_sub_epi8(counts, static_cast<__m256i>(m)));
  }
  /// Unsigned saturating a - b per byte (xsimd's ssub does not compile at
  /// -O0 for AVX-512, where gcc's intrinsics are macros with C casts).
  static batch subs(batch a, batch b) noexcept { return batch(_mm256_subs_epu8(a, b)); }
  /// Each byte shifted right by K bits.
  template <int K>
  static batch shift_right(batch v) noexcept {
    return batch(
        _mm256_and_si256(_mm256_srli_epi16(v, K), _mm256_set1_epi8(static_cast<char>(0xFF >> K))));
  }
  static batch lookup(batch table, batch index) noexcept {
    return batch(_mm256_shuffle_epi8(table, index));
  }
  template <int K>
  static batch shift_in(batch cur, batch prev) noexcept {
    // [prev's high lane, cur's low lane], then per-lane byte alignment.
    return batch(_mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 16 - K));
  }
  template <int K>
  static wide widen(batch v) noexcept {
    const __m128i half = K < 2 ? _mm256_castsi256_si128(v) : _mm256_extracti128_si256(v, 1);
    return wide(_mm256_cvtepu8_epi32(K % 2 == 0 ? half : _mm_srli_si128(half, 8)));
  }
  template <int N>
  static wide shift_left(wide v) noexcept {
    return wide(_mm256_slli_epi32(v, N));
  }
  static wide gather(const std::uint8_t *base, wide offset, std::uint32_t active) noexcept {
    // One sign bit a lane: lane i takes part when bit i of `active` is set.
    const __m256i lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i mask = _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(active)), lane_bits), lane_bits);
    return wide(_mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                            reinterpret_cast<const int *>(base), offset, mask, 1));
  }
  static std::uint32_t wide_bits(wide::batch_bool_type m) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
  }
};

template BodyResult count_body<xsimd::avx2>(const Request &, const std::uint8_t *,
                                            std::size_t) noexcept;

}  // namespace fastwc::count::kernels
