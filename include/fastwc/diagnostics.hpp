// SPDX-License-Identifier: GPL-3.0-or-later
// What the engine finds about the machine it runs on and what one count_fd
// call did, for reports such as fastwc's --stats and GNU wc's --debug
// lines. Unstable: this header may change in any release.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fastwc {

/// The vector extensions the CPU has and the operating system saves the
/// registers of.
struct CpuSupport {
  bool avx2 = false;
  bool avx512f = false;
  bool avx512bw = false;
};

/// From the C library's record of the CPUID instruction that it ran at
/// start-up where glibc publishes it (CPUID traps to the hypervisor in a
/// virtual machine), else from CPUID. Detected once per process.
CpuSupport cpu_support() noexcept;

/// GNU's reading of GLIBC_TUNABLES (gnulib's cpu-supports, coreutils 9.8+):
/// false when the last "glibc.cpu.hwcaps=" setting lists "-<hwcap>"
/// (`hwcap` such as "AVX2") before the next ':'. `tunables` may be null.
bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept;

/// What one count_fd call did. Durations are in nanoseconds of wall time.
struct ReadStats {
  enum class Path : std::uint8_t {
    serial,  ///< read(2) and counted on the calling thread only
    read,    ///< pipeline: reader thread with read(2)
    uring,   ///< pipeline: reader thread with io_uring
    pread,   ///< threads that each read (pread(2)) and count their own chunks
  };
  Path path = Path::serial;
  /// Why io_uring was not used although asked for (an errno value of
  /// io_uring_queue_init), or 0.
  int uring_error = 0;
  /// Buffer registration: attempted and refused with this errno, or 0.
  int register_error = 0;
  bool registered = false;
  bool async_reads = false;
  /// The pipeline started after this many bytes had been counted serially
  /// (a pipe or a file that turned out larger than serial_threshold).
  std::uint64_t serial_bytes = 0;
  std::size_t read_size = 0;
  std::size_t buffers = 0;
  unsigned workers = 1;
  /// Why no counting thread could be started (the oneTBB module could not
  /// be loaded, or its pool not created), or nullptr: the calling thread
  /// then counted alone, with the same counts.
  const char *workers_error = nullptr;
  const char *kernel = "none";  ///< the counting kernel (xsimd arch name)
  std::uint64_t bytes = 0;
  std::uint64_t chunks = 0;
  std::uint64_t worker_chunks = 0;  ///< of those, counted by oneTBB workers
  std::uint64_t wall_ns = 0;
  /// From deciding on the pipeline to the first read: pool, threads, ring
  /// and buffer registration.
  std::uint64_t setup_ns = 0;
  std::uint64_t read_wait_ns = 0;  ///< reader thread blocked on the kernel
  std::uint64_t read_idle_ns = 0;  ///< reader thread waiting for a free buffer
  std::uint64_t count_ns = 0;      ///< summed over the counting threads
  std::uint64_t merge_ns = 0;      ///< ordered merge, summed
  std::uint64_t resubmits = 0;     ///< short reads, EAGAIN and EINTR retried
  /// Ring reads whose completion did not come in ring_check_ms, redone
  /// with pread(2).
  std::uint64_t redone_reads = 0;
};

}  // namespace fastwc
