// SPDX-License-Identifier: GPL-3.0-or-later
// ReadReader: GNU wc's read loop, one pool buffer at a time.
#include "io/read_reader.hpp"

#include <cerrno>

#include "io/gnu_read.hpp"
#include "support/clock.hpp"

namespace fastwc::io {

ReadEnd ReadReader::run(ReaderPort &port) noexcept {
  report_.path = ReadStats::Path::read;
  report_.ready_at_ns = support::now_ns();
  ReadEnd end;
  const std::size_t size = pool_.size();
  for (;;) {
    const std::uint32_t buffer = port.acquire(report_.idle_ns);
    std::byte *data = pool_.data(buffer);
    // Fill the whole buffer before handing it on: a pipe gives at most its
    // capacity per read, and counting tiny chunks would cost more than the
    // reads. Whether bytes arrive in one read or several changes no count.
    const std::uint64_t start = support::now_ns();
    const Fill filled = schedule_ != nullptr ? fill_as_scheduled(data)
                                             : fill(
                                                   0, size,
                                                   [&](std::size_t done, std::size_t left) {
                                                     return sys_.read(fd_, data + done, left);
                                                   },
                                                   &report_.resubmits);
    const std::size_t got = filled.got;
    const bool finished = filled.eof || filled.error != 0;
    end.error = filled.error;
    report_.wait_ns += support::now_ns() - start;
    if (got > 0) {
      port.deliver({end.chunks++, buffer, static_cast<std::uint32_t>(got)});
      end.bytes += got;
    } else {
      port.release(buffer);
    }
    if (finished) return end;
  }
}

Fill ReadReader::fill_as_scheduled(std::byte *data) noexcept {
  const std::size_t size = pool_.size();
  Fill result;
  for (;;) {
    // Exactly the size the schedule asks for, never what happens to be
    // left in the buffer: where a read ends is what its counts depend on.
    const std::size_t wanted = schedule_->next_read_size();
    if (size - result.got < wanted) {
      // A pool too small for one read (the caller's bug) would loop here
      // forever: fail the input instead.
      if (result.got == 0) result.error = EINVAL;
      return result;
    }
    const ssize_t n = safe_read(sys_, fd_, data + result.got, wanted, &report_.resubmits);
    if (n > 0) {
      schedule_->on_read({data + result.got, static_cast<std::size_t>(n)});
      result.got += static_cast<std::size_t>(n);
      continue;
    }
    result.eof = n == 0;
    result.error = n < 0 ? errno : 0;
    return result;
  }
}

}  // namespace fastwc::io
