// SPDX-License-Identifier: GPL-3.0-or-later
// The real system calls behind io::Sys.
#include "io/sys.hpp"

#include <liburing.h>
#include <unistd.h>

namespace fastwc::io {

ssize_t Sys::read(int fd, void *buffer, std::size_t size) noexcept {
  return ::read(fd, buffer, size);
}

ssize_t Sys::pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept {
  return ::pread(fd, buffer, size, offset);
}

int Sys::ring_init(unsigned entries, io_uring *ring, unsigned flags) noexcept {
  return io_uring_queue_init(entries, ring, flags);
}

int Sys::register_buffers(io_uring *ring, const iovec *buffers, unsigned count) noexcept {
  return io_uring_register_buffers(ring, buffers, count);
}

int Sys::ring_result(std::uint64_t, std::size_t, int result) noexcept { return result; }

Sys &Sys::real() noexcept {
  // A plain Sys: the base class is the real implementation.
  struct Real final : Sys {};
  static Real instance;
  return instance;
}

}  // namespace fastwc::io
