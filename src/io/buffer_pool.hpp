// SPDX-License-Identifier: GPL-3.0-or-later
// The pool of read buffers that one pipelined input cycles through: a fixed
// number of page-aligned buffers of one size, in a single mapping, so that
// memory stays bounded by the pool whatever the input size and the whole
// pool can be registered with an io_uring as fixed buffers.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fastwc::io {

/// Owns `count` buffers of `size` bytes each (size >= 1, count >= 1), each
/// starting on a page boundary. Not copyable; moving is not needed. The
/// buffers themselves are plain memory: who may touch which buffer is the
/// pipeline's business (a buffer is owned by exactly one stage at a time).
class BufferPool {
 public:
  /// Throws std::system_error when the memory cannot be mapped.
  BufferPool(std::size_t size, std::size_t count);
  ~BufferPool();
  BufferPool(const BufferPool &) = delete;
  BufferPool &operator=(const BufferPool &) = delete;

  std::size_t size() const noexcept { return size_; }
  std::size_t count() const noexcept { return count_; }
  /// Bytes mapped (count buffers, each rounded up to whole pages).
  std::size_t mapped_bytes() const noexcept { return stride_ * count_; }
  std::byte *data(std::size_t index) const noexcept { return base_ + index * stride_; }
  /// One iovec per buffer, for io_uring_register_buffers.
  const std::vector<iovec> &iovecs() const noexcept { return iovecs_; }

 private:
  std::size_t size_;
  std::size_t count_;
  std::size_t stride_;
  std::byte *base_;
  std::vector<iovec> iovecs_;
};

}  // namespace fastwc::io
