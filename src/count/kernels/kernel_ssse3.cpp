// SPDX-License-Identifier: GPL-3.0-or-later
// The SSSE3 kernel: kernel_driver.hpp instantiated for xsimd::ssse3, built
// with -mssse3 -mpopcnt. SSSE3's byte shuffle (pshufb) is what the UTF-8
// stages need (validation, classification by lead byte, separator patterns,
// cells); with 16-byte registers and no gathers it is AVX2's kernel at half
// the width, for the CPUs that lack AVX2 (before Haswell; Atom-class cores).
#include <immintrin.h>

#include "count/kernels/kernel_driver.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<xsimd::ssse3> {
  using batch = xsimd::batch<std::uint8_t, xsimd::ssse3>;
  using batch_bool = batch::batch_bool_type;
  static constexpr bool has_mask_registers = false;
  static constexpr bool has_shuffle = true;
  static constexpr bool has_permute64 = false;
  static constexpr bool has_gather = false;  // no 32-bit gathers before AVX2
  static constexpr bool has_compress = false;

  static std::uint64_t bits(batch_bool m) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(m));
  }
  static std::uint64_t sign_bits(batch v) noexcept {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(v));
  }
  static batch to_bytes(batch_bool m) noexcept { return batch(static_cast<__m128i>(m)); }
  static std::uint64_t sum_bytes(batch v) noexcept {
    const __m128i s = _mm_sad_epu8(v, _mm_setzero_si128());
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) +
           static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
  }
  static batch_bool le(batch a, batch b) noexcept { return xsimd::min(a, b) == a; }
  static batch_bool continuation(batch v) noexcept {
    return batch_bool(_mm_cmpgt_epi8(_mm_set1_epi8(-64), v));
  }
  /// A true byte of m is 0xFF, that is -1.
  static batch count_into(batch counts, batch_bool m) noexcept {
    return batch(_mm_sub_epi8(counts, static_cast<__m128i>(m)));
  }
  static batch subs(batch a, batch b) noexcept { return batch(_mm_subs_epu8(a, b)); }
  /// Each byte shifted right by K bits.
  template <int K>
  static batch shift_right(batch v) noexcept {
    return batch(_mm_and_si128(_mm_srli_epi16(v, K), _mm_set1_epi8(static_cast<char>(0xFF >> K))));
  }
  static batch lookup(batch table, batch index) noexcept {
    return batch(_mm_shuffle_epi8(table, index));
  }
  template <int K>
  static batch shift_in(batch cur, batch prev) noexcept {
    return batch(_mm_alignr_epi8(cur, prev, 16 - K));
  }
};

template BodyResult count_body<xsimd::ssse3>(const Request &, const std::uint8_t *,
                                             std::size_t) noexcept;

}  // namespace fastwc::count::kernels
