// SPDX-License-Identifier: GPL-3.0-or-later
// What the machine offers the pipeline and how the pipeline sizes itself to
// it: the CPUs this process may use (affinity mask and cgroup v2 quota),
// the cache sizes (sysfs, else sysconf), and from them the default read
// size, pool size and read depth. The pool is sized to the cache on
// purpose: bytes in flight must still be in cache when a counting thread
// reads them (a bare read() loop here pulls 13.5 GB/s with 1 MiB reads and
// 5.6 GB/s with 16 MiB ones).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "fastwc/diagnostics.hpp"
#include "pipeline/read_settings.hpp"

namespace fastwc::pipeline {

struct CacheSizes {
  std::size_t l2 = 0;  ///< per core, bytes (0: unknown)
  std::size_t l3 = 0;  ///< the L3 instance cpu0 uses, bytes (0: unknown)
};

/// From /sys/devices/system/cpu/cpu0/cache, else sysconf(_SC_LEVEL*_CACHE_SIZE).
CacheSizes cache_sizes() noexcept;

/// CPUs in this thread's affinity mask, capped by the cgroup v2 cpu.max
/// quotas of this process's cgroup and its ancestors (rounded up); >= 1.
unsigned usable_cpus() noexcept;

/// The CPU quota of a cgroup v2 cpu.max line ("max 100000" or
/// "150000 100000"): the quota in CPUs rounded up, or nullopt for none.
std::optional<unsigned> cpu_max_quota(std::string_view line) noexcept;

struct Sizing {
  unsigned jobs = 1;             ///< counting threads, caller included
  std::size_t read_size = 0;     ///< bytes per read and per buffer
  std::size_t buffers = 0;       ///< pool size
  std::size_t depth = 0;         ///< reads in flight at most (< buffers)
  bool register_buffers = true;  ///< worth pinning the pool for this input

  friend bool operator==(const Sizing &, const Sizing &) = default;
};

/// Explicit options win; zeros are filled in from the caches and CPUs.
/// The pool stays within options.max_pool_bytes (when a single read fits),
/// has at least two buffers, and keeps one buffer per counting thread out
/// of the reads in flight. `expected_bytes` (0: unknown, a pipe) shrinks
/// the pool of a smaller input to what it can fill, and decides whether
/// registering the pool pays for itself.
Sizing choose_sizing(const ReadSettings &options, const CacheSizes &caches, unsigned cpus,
                     std::uint64_t expected_bytes = 0) noexcept;

}  // namespace fastwc::pipeline
