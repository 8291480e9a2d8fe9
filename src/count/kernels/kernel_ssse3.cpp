// SPDX-License-Identifier: GPL-3.0-or-later
// The SSSE3 kernel: kernel_driver.hpp instantiated for xsimd::ssse3, built
// with -mssse3 -mpopcnt. SSSE3's byte shuffle (pshufb) is what the UTF-8
// stages need (validation, classification by lead byte, separator patterns,
// cells); with 16-byte registers and no gathers it is AVX2's kernel at half
// the width, for the CPUs that lack AVX2 (before Haswell; Atom-class cores).
#include <tmmintrin.h>

#include "count/kernels/kernel_driver.hpp"
#include "count/kernels/sse_primitives.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<xsimd::ssse3> : SsePrimitives<xsimd::ssse3> {
  static constexpr bool has_shuffle = true;
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
