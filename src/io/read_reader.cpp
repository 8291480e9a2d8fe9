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
    const Fill filled = fill(
        0, size,
        [&](std::size_t done, std::size_t left) { return sys_.read(fd_, data + done, left); },
        &report_.resubmits);
    const std::size_t got = filled.got;
    const bool finished = got < size;
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

}  // namespace fastwc::io
