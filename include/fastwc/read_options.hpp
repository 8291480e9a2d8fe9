// SPDX-License-Identifier: GPL-3.0-or-later
// How count_fd reads: which I/O backend, how many counting threads, how
// large each read is, and a byte counter for progress. Dependency-free, like
// the rest of include/fastwc/: no liburing or oneTBB type appears here.
// The engine's tuning knobs are in fastwc/tuning.hpp, what one call did in
// fastwc/diagnostics.hpp (both unstable).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace fastwc {

/// The reading strategy for large regular files. Pipes, ttys and other
/// inputs without a known size are always read with read(2).
enum class IoBackend : std::uint8_t {
  automatic,  ///< io_uring where the kernel allows it, else read(2)
  uring,      ///< io_uring; still falls back to read(2) when the ring cannot be set up
  read,       ///< a reader thread calling read(2)
  /// Every counting thread reads its own chunks with pread(2) into a buffer
  /// of its own and counts each at once: no reader thread, no hand-off.
  /// What `automatic` picks for a regular file.
  pread,
};

/// "auto", "uring", "read" or "pread".
const char *io_backend_name(IoBackend backend) noexcept;

/// The counting threads that ReadOptions::jobs = 0 stands for: the CPUs
/// this process may use (sched_getaffinity, capped by a cgroup v2 cpu.max).
unsigned default_jobs() noexcept;

struct ReadOptions {
  /// Counting threads (the calling thread included); 0 = the CPUs this
  /// process may use (sched_getaffinity, capped by a cgroup v2 cpu.max).
  unsigned jobs = 0;
  IoBackend backend = IoBackend::automatic;
  /// Bytes per read; 0 = chosen from the CPU's cache sizes. Any value >= 1
  /// gives the same counts.
  std::size_t read_size = 0;
  /// When set, the bytes each read returns are added to it (relaxed, from
  /// whichever thread read them) as they arrive: a progress meter on
  /// another thread may poll it.
  std::atomic<std::uint64_t> *bytes_read = nullptr;

  friend bool operator==(const ReadOptions &, const ReadOptions &) = default;
};

}  // namespace fastwc
