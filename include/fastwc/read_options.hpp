// SPDX-License-Identifier: GPL-3.0-or-later
// How count_fd reads: which I/O backend, how many counting threads, how
// large each read is, and when an input is small enough to be counted on
// the calling thread with nothing started. Plus ReadStats, what one call
// actually did (for --stats and --debug). Dependency-free, like the rest of
// include/fastwc/: no liburing or oneTBB type appears here.
#pragma once

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
  /// What `automatic` picks for counts cheaper than the copy (-l) when two
  /// or more CPUs are usable.
  pread,
};

/// "auto", "uring", "read" or "pread".
const char *io_backend_name(IoBackend backend) noexcept;

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

struct ReadOptions {
  /// Counting threads (the calling thread included); 0 = the CPUs this
  /// process may use (sched_getaffinity, capped by a cgroup v2 cpu.max).
  unsigned jobs = 0;
  IoBackend backend = IoBackend::automatic;
  /// Bytes per read; 0 = chosen from the CPU's cache sizes. Any value >= 1
  /// gives the same counts.
  std::size_t read_size = 0;
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
  std::uint64_t file_threshold() const noexcept {
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

  friend bool operator==(const ReadOptions &, const ReadOptions &) = default;
};

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
