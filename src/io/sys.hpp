// SPDX-License-Identifier: GPL-3.0-or-later
// The system-call seam of the readers: every call through which the kernel
// can refuse or shorten a read goes through one Sys object, so that tests
// can inject short reads, EINTR, EAGAIN, EIO after N bytes, and a ring or a
// buffer registration that the kernel refuses (fmt's FMT_SYSTEM idea, as an
// interface because fakes need state). Production code uses Sys::real().
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <climits>
#include <cstddef>
#include <cstdint>

struct io_uring;

namespace fastwc::io {

/// Thread safety: the readers call a Sys from their one reader thread only;
/// Sys::real() is stateless and may be shared by any number of readers.
class Sys {
 public:
  virtual ~Sys() = default;

  /// read(2): bytes read, or -1 with errno set.
  virtual ssize_t read(int fd, void *buffer, std::size_t size) noexcept;
  /// pread(2), with which the ring reader redoes a read whose completion
  /// did not come: bytes read, or -1 with errno set.
  virtual ssize_t pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept;
  /// io_uring_queue_init(): 0 or -errno.
  virtual int ring_init(unsigned entries, io_uring *ring, unsigned flags) noexcept;
  /// io_uring_register_buffers(): 0 or -errno.
  virtual int register_buffers(io_uring *ring, const iovec *buffers, unsigned count) noexcept;
  /// Sees the result of every ring read of `requested` bytes at `offset`
  /// (bytes, or -errno) before the reader does, and returns what the reader
  /// sees. A fake may shorten a read (the reader resubmits the rest) or
  /// turn it into an error; the bytes already in the buffer are ignored
  /// beyond the returned length.
  /// A fake may also return lost_completion: the reader then never sees
  /// this completion, as if the kernel had lost it.
  virtual int ring_result(std::uint64_t offset, std::size_t requested, int result) noexcept;
  static constexpr int lost_completion = INT_MIN;

  /// The real system calls.
  static Sys &real() noexcept;

 protected:
  Sys() = default;
  Sys(const Sys &) = default;
  Sys &operator=(const Sys &) = default;
};

}  // namespace fastwc::io
