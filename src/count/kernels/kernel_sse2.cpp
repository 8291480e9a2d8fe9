// SPDX-License-Identifier: GPL-3.0-or-later
// The SSE2 kernel: kernel_driver.hpp instantiated for xsimd::sse2, built with
// -msse2 only (the x86-64 baseline). Without SSSE3's byte shuffle UTF-8 is
// validated with compares, and -m and words count valid blocks in stride
// (the stride by cell's lookups by compares too); the other blocks with
// non-ASCII bytes take the exact paths with masks or the scalar kernel's
// (kernel_driver.hpp and stride_policy.hpp say which).
#include "count/kernels/kernel_driver.hpp"
#include "count/kernels/sse_primitives.hpp"

namespace fastwc::count::kernels {

template <>
struct IsaOps<xsimd::sse2> : SsePrimitives<xsimd::sse2> {
  static constexpr bool has_shuffle = false;
  // Unused without has_shuffle; declared so that the template compiles.
  static batch lookup(batch table, batch index) noexcept;
};

template BodyResult count_body<xsimd::sse2>(const Request &, const std::uint8_t *,
                                            std::size_t) noexcept;

}  // namespace fastwc::count::kernels
