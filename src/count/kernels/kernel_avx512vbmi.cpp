// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX-512 kernel with VBMI (Ice Lake and later, Zen 4): the avx512bw
// kernel's primitives plus vpermb, one byte lookup in a 64-byte table, which
// classifies a multibyte character by its lead byte in one instruction
// (classify_by_lead.hpp). Built with the avx512bw kernel's flags and
// -mavx512vbmi.
#include <immintrin.h>

#include "count/kernels/avx512_primitives.hpp"
#include "count/kernels/kernel.hpp"

// xsimd sees the VBMI tag as avx512bw: the same registers and operations.
namespace xsimd::types {
template <class T>
struct get_bool_simd_register<T, fastwc::count::kernels::avx512vbmi> {
  using type = simd_avx512_bool_register<T>;
};
XSIMD_DECLARE_SIMD_REGISTER_ALIAS(fastwc::count::kernels::avx512vbmi, avx512bw);
}  // namespace xsimd::types

#include "count/kernels/kernel_driver.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<avx512vbmi> : Avx512Primitives<avx512vbmi> {
  static constexpr bool has_permute64 = true;
  static batch permute64(batch table, batch index) noexcept {
    // The zero-masked form: gcc 12's plain one reads an undefined register
    // and trips -Wmaybe-uninitialized.
    return batch(_mm512_maskz_permutexvar_epi8(~__mmask64{0}, index, table));
  }
  static batch permute64_where(batch table, batch index, std::uint64_t m) noexcept {
    return batch(_mm512_maskz_permutexvar_epi8(static_cast<__mmask64>(m), index, table));
  }
  static batch permute128(const batch (&t)[2], batch index) noexcept {
    return batch(_mm512_permutex2var_epi8(t[0], index, t[1]));
  }
  static batch permute256(const batch (&t)[4], batch index) noexcept {
    const __m512i low = _mm512_permutex2var_epi8(t[0], index, t[1]);
    const __m512i high = _mm512_permutex2var_epi8(t[2], index, t[3]);
    return batch(_mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high));
  }
  template <int K>
  static batch shift_left_words(batch v) noexcept {
    return batch(_mm512_slli_epi16(v, K));
  }
  template <int K>
  static batch shift_right_words(batch v) noexcept {
    return batch(_mm512_srli_epi16(v, K));
  }
};

template BodyResult count_body<avx512vbmi>(const Request &, const std::uint8_t *,
                                           std::size_t) noexcept;

}  // namespace fastwc::count::kernels
