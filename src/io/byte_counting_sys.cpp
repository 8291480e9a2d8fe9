// SPDX-License-Identifier: GPL-3.0-or-later
// ByteCountingSys: forwarding, and counting what the reads returned.
#include "io/byte_counting_sys.hpp"

namespace fastwc::io {

ssize_t ByteCountingSys::read(int fd, void *buffer, std::size_t size) noexcept {
  const ssize_t got = inner_.read(fd, buffer, size);
  add(got);
  return got;
}

ssize_t ByteCountingSys::pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept {
  const ssize_t got = inner_.pread(fd, buffer, size, offset);
  add(got);
  return got;
}

int ByteCountingSys::ring_init(unsigned entries, io_uring *ring, unsigned flags) noexcept {
  return inner_.ring_init(entries, ring, flags);
}

int ByteCountingSys::register_buffers(io_uring *ring, const iovec *buffers,
                                      unsigned count) noexcept {
  return inner_.register_buffers(ring, buffers, count);
}

int ByteCountingSys::ring_result(std::uint64_t offset, std::size_t requested, int result) noexcept {
  const int got = inner_.ring_result(offset, requested, result);
  if (got != lost_completion) add(got);
  return got;
}

}  // namespace fastwc::io
