// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring reader: one ring owned by the reader thread, the pool
// registered as fixed buffers, `depth` reads in flight at increasing
// offsets, short reads resubmitted for the rest, -EAGAIN and -EINTR retried,
// chunks delivered in file order however the completions arrive. Where the
// ring cannot be set up it runs the read(2) reader instead; where buffer
// registration is refused it reads into the unregistered pool. A read whose
// completion does not come is looked into and, if the kernel no longer
// runs it, redone with pread(2): a lost completion costs time, not a hang.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "io/buffer_pool.hpp"
#include "io/reader.hpp"
#include "io/sys.hpp"

namespace fastwc::io {

struct UringSettings {
  /// Reads in flight at most (>= 1).
  std::size_t depth = 4;
  /// Register the pool (READ_FIXED); when the kernel refuses, plain reads.
  bool register_buffers = true;
  /// IOSQE_ASYNC on every read: io-wq workers copy from the page cache on
  /// another core instead of the submitting thread.
  bool async_reads = false;
  /// How long a read may be outstanding before the reader asks the kernel
  /// about it (ReadTuning::ring_check_ms); 0: never.
  unsigned check_ms = 5000;
};

/// Reads a regular file from `offset` to EOF with positioned reads. The
/// file offset is not moved (the caller seeks past what was read).
/// `expected_end` (the size fstat gave) limits the reads issued ahead: past
/// it, one read at a time finds EOF (or the data of a file that grew).
/// Not thread-safe: run() on one thread.
class UringReader final : public Reader {
 public:
  UringReader(int fd, off_t offset, std::uint64_t expected_end, const BufferPool &pool, Sys &sys,
              UringSettings settings) noexcept
      : fd_(fd),
        offset_(offset),
        expected_end_(expected_end),
        pool_(pool),
        sys_(sys),
        settings_(settings) {}
  ReadEnd run(ReaderPort &port) noexcept override;

 private:
  struct Request;
  /// Reads the rest of `request` with pread(2) on this thread.
  void redo_with_pread(Request &request, std::byte *buffer) noexcept;

  int fd_;
  off_t offset_;
  std::uint64_t expected_end_;
  const BufferPool &pool_;
  Sys &sys_;
  UringSettings settings_;
};

}  // namespace fastwc::io
