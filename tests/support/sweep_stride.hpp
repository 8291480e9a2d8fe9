// SPDX-License-Identifier: GPL-3.0-or-later
// How much of an exhaustive sweep a test takes. A release build takes all of
// it: that is where a wrong count shows, and CI runs it first. Under ASan or
// TSan (five to ten times slower, and there to find memory errors and races,
// not wrong counts) a sweep takes every n-th step, n chosen by each test so
// that what the sanitizer checks is still reached: an odd n over lengths or
// code points still reaches every residue modulo a 64-byte block and every
// 64-code-point cell, so every tail and table index a kernel computes is
// still checked for its bounds.
#pragma once

#include <cstddef>

namespace sweep {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool under_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool under_sanitizer = true;
#else
inline constexpr bool under_sanitizer = false;
#endif
#else
inline constexpr bool under_sanitizer = false;
#endif

/// 1 in a release build, `sanitized` under a sanitizer.
constexpr std::size_t stride(std::size_t sanitized) noexcept {
  return under_sanitizer ? sanitized : 1;
}

/// `size` in a release build, `sanitized` under a sanitizer.
constexpr std::size_t size(std::size_t full, std::size_t sanitized) noexcept {
  return under_sanitizer ? sanitized : full;
}

}  // namespace sweep
