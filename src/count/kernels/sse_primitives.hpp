// SPDX-License-Identifier: GPL-3.0-or-later
// The IsaOps primitives (isa_primitives.hpp) that the 16-byte kernels (SSE2
// and SSSE3) share, over their architecture tag A: SSE2 instructions only.
// Included only by those kernel files: a class template, so that each kernel
// gets its own copy (tests/kernels/check_symbols.py).
#pragma once

#include <emmintrin.h>

#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace fastwc::count::kernels {

template <class A>
struct SsePrimitives {
  using batch = xsimd::batch<std::uint8_t, A>;
  using batch_bool = typename batch::batch_bool_type;
  static constexpr bool has_mask_registers = false;
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
  /// Unsigned saturating a - b per byte (xsimd's ssub does not compile at
  /// -O0 for AVX-512, where gcc's intrinsics are macros with C casts).
  static batch subs(batch a, batch b) noexcept { return batch(_mm_subs_epu8(a, b)); }
  /// SSE2's two whole-register byte shifts (SSSE3's IsaOps hides this
  /// with palignr, one instruction).
  template <int K>
  static batch shift_in(batch cur, batch prev) noexcept {
    return batch(_mm_or_si128(_mm_slli_si128(cur, K), _mm_srli_si128(prev, 16 - K)));
  }
  /// Each byte shifted right by K bits.
  template <int K>
  static batch shift_right(batch v) noexcept {
    return batch(_mm_and_si128(_mm_srli_epi16(v, K), _mm_set1_epi8(static_cast<char>(0xFF >> K))));
  }
};

}  // namespace fastwc::count::kernels
