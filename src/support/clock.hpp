// SPDX-License-Identifier: GPL-3.0-or-later
// The monotonic clock the pipeline's per-stage timings (--stats) use.
#pragma once

#include <time.h>

#include <cstdint>

namespace fastwc::support {

/// CLOCK_MONOTONIC in nanoseconds. Thread-safe, noexcept, about 20 ns (vDSO).
inline std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace fastwc::support
