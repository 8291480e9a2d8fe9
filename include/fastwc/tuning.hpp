// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's tuning knobs: pool and buffer sizes, when an input is large
// enough for the pipeline, io_uring's options. The defaults are measured
// choices (bench/); fastwc's FASTWC_* variables and the tests set them.
// Unstable: this header may change in any release.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fastwc/counts.hpp"
#include "fastwc/options.hpp"
#include "fastwc/read_options.hpp"

namespace fastwc {

struct ReadStats;

/// Whether io_uring reads go to a pool registered with the ring
/// (io_uring_register_buffers, READ_FIXED). Registration pins the pool,
/// which costs about one pass over it before the first read and saves the
/// page pinning of every read; where the kernel refuses it (RLIMIT_MEMLOCK)
/// the reads go to the same buffers unregistered.
enum class BufferRegistration : std::uint8_t {
  automatic,  ///< when the input is many times larger than the pool
  always,
  never,
};

struct ReadTuning {
  /// Buffers in the pool; 0 = chosen from the cache sizes and jobs. The
  /// pool has at least two buffers and otherwise never exceeds
  /// max_pool_bytes, whatever the input size.
  std::size_t buffers = 0;
  std::size_t max_pool_bytes = std::size_t{64} << 20;
  /// Regular files with fewer bytes left than this, and the first this many
  /// bytes of any other input, are counted on the calling thread with no
  /// thread, ring or arena started (a shell loop over small files pays
  /// nothing for the pipeline). Measured on a shared 2-CPU machine
  /// (bench/pipeline/run.sh --calibrate): the serial loop, one L2-resident
  /// 256 KiB buffer and SIMD kernels, counts -l and -w at close to the
  /// speed of read() itself, and the pipeline's start (threads, pool pages
  /// to fault in) and hand-offs were repaid only above 64 MiB.
  std::uint64_t serial_threshold = std::uint64_t{64} << 20;
  /// A regular file with at least this many bytes left goes to the pread
  /// threads even below serial_threshold (file_threshold()): they start
  /// without the reader thread's ring and pool, where the reader-thread
  /// pipeline that serial_threshold was measured for did not pay below
  /// 64 MiB. Measured on a shared 2-CPU machine (bench/studies/
  /// serial_threshold.py, bench/results/2026-12-01-threshold): below 4 MiB
  /// the serial loop won or tied for every count (starting a thread costs
  /// more than half the counting saves); at 16 MiB the threads won for
  /// every count of English text (1.00-1.25x).
  /// Streams keep serial_threshold: past it the reader thread takes over,
  /// which there (one CPU running the writer) was 2-3 times slower than the
  /// serial loop, so lowering it for them would cost pipes.
  std::uint64_t pread_threshold = std::uint64_t{16} << 20;
  /// Where regular files stop being counted serially.
  constexpr std::uint64_t file_threshold() const noexcept {
    return serial_threshold < pread_threshold ? serial_threshold : pread_threshold;
  }
  /// Ask for the rings' reads to be punted to io-wq workers (IOSQE_ASYNC),
  /// so that page-cache copies run on other cores, several at once. Off by
  /// default: on a loaded 2-CPU machine it helped as often as it hurt
  /// (bench/runs/2026-11-29-pipeline-2cpu).
  bool async_reads = false;
  BufferRegistration registration = BufferRegistration::automatic;
  /// An io_uring read still outstanding after this many milliseconds is
  /// looked into, so that a completion that never comes cannot hang the
  /// reader: a read the kernel is still running is waited for, as read(2)
  /// would be; one the kernel had not started is cancelled, and one it no
  /// longer knows (a lost completion) is redone with pread(2). 0: never.
  std::uint32_t ring_check_ms = 5000;
  /// The calling thread counts every chunk it can; oneTBB workers are
  /// called in (one task per chunk) only while at least this many chunks
  /// wait, i.e. when counting is slower than reading. 1: a task for every
  /// chunk when jobs > 1.
  std::size_t worker_backlog = 2;

  friend bool operator==(const ReadTuning &, const ReadTuning &) = default;
};

/// count_fd (engine.hpp) with the tuning given.
CountResult count_fd(int fd, const CountOptions &options, const ReadOptions &read_options,
                     const ReadTuning &tuning, ReadStats *stats = nullptr);

}  // namespace fastwc
