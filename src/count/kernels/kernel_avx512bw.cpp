// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX-512 kernel without VBMI (Skylake-SP, Cascade Lake, Zen 3 and
// earlier lack it): kernel_driver.hpp instantiated for xsimd::avx512bw,
// built with -mavx512f -mavx512cd -mavx512dq -mavx512bw -mavx512vl plus
// AVX2, BMI1/2 and POPCNT (the kernel table in src/count/meson.build lists each). A 64-byte
// block is one register and each byte class one mask register.
#include <immintrin.h>

#include "count/kernels/avx512_primitives.hpp"
#include "count/kernels/kernel_driver.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<xsimd::avx512bw> : Avx512Primitives<xsimd::avx512bw> {
  static constexpr bool has_permute64 = false;
};

template BodyResult count_body<xsimd::avx512bw>(const Request &, const std::uint8_t *,
                                                std::size_t) noexcept;

}  // namespace fastwc::count::kernels
