// SPDX-License-Identifier: GPL-3.0-or-later
// The read(2) reader: fills one pool buffer at a time from the file's
// current offset, exactly as GNU wc's loop reads (EINTR retried, any other
// error ends the input). Used for pipes, FIFOs, ttys and files of unknown
// size that turn out large, for --io=read, and wherever io_uring cannot be
// set up. With a ReadSchedule it makes the schedule's reads, several to a
// buffer, and hands a buffer on when the next read would not fit.
#pragma once

#include "io/buffer_pool.hpp"
#include "io/gnu_read.hpp"
#include "io/reader.hpp"
#include "io/sys.hpp"

namespace fastwc::io {

/// Reads `fd` from its current offset to EOF (the offset moves as with
/// read(2)). Not thread-safe: run() on one thread. A schedule, when given,
/// must outlive run(), and the pool's buffers must hold its
/// max_read_size().
class ReadReader final : public Reader {
 public:
  ReadReader(int fd, const BufferPool &pool, Sys &sys, ReadSchedule *schedule = nullptr) noexcept
      : fd_(fd), pool_(pool), sys_(sys), schedule_(schedule) {}
  ReadEnd run(ReaderPort &port) noexcept override;

 private:
  /// Fills `data` (pool_.size() bytes) with the schedule's reads.
  Fill fill_as_scheduled(std::byte *data) noexcept;

  int fd_;
  const BufferPool &pool_;
  Sys &sys_;
  ReadSchedule *schedule_;
};

}  // namespace fastwc::io
