// SPDX-License-Identifier: GPL-3.0-or-later
// The read(2) reader: fills one pool buffer at a time from the file's
// current offset, exactly as GNU wc's loop reads (EINTR retried, any other
// error ends the input). Used for pipes, FIFOs, ttys and files of unknown
// size that turn out large, for --io=read, and wherever io_uring cannot be
// set up.
#pragma once

#include "io/buffer_pool.hpp"
#include "io/reader.hpp"
#include "io/sys.hpp"

namespace fastwc::io {

/// Reads `fd` from its current offset to EOF (the offset moves as with
/// read(2)). Not thread-safe: run() on one thread.
class ReadReader final : public Reader {
 public:
  ReadReader(int fd, const BufferPool &pool, Sys &sys) noexcept : fd_(fd), pool_(pool), sys_(sys) {}
  ReadEnd run(ReaderPort &port) noexcept override;

 private:
  int fd_;
  const BufferPool &pool_;
  Sys &sys_;
};

}  // namespace fastwc::io
