// SPDX-License-Identifier: GPL-3.0-or-later
// An io::Sys that forwards every call to another Sys and adds the bytes that
// each read returned (read(2), pread(2) and ring completions alike) to a
// counter, for --progress. Readers on any thread may share it: the counter
// is a relaxed atomic, bumped once per read.
#pragma once

#include <atomic>
#include <cstdint>

#include "io/sys.hpp"

namespace fastwc::io {

class ByteCountingSys final : public Sys {
 public:
  ByteCountingSys(Sys &inner, std::atomic<std::uint64_t> &bytes) noexcept
      : inner_(inner), bytes_(bytes) {}

  ssize_t read(int fd, void *buffer, std::size_t size) noexcept override;
  ssize_t pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept override;
  int ring_init(unsigned entries, io_uring *ring, unsigned flags) noexcept override;
  int register_buffers(io_uring *ring, const iovec *buffers, unsigned count) noexcept override;
  int ring_result(std::uint64_t offset, std::size_t requested, int result) noexcept override;

 private:
  void add(long long got) noexcept {
    if (got > 0) bytes_.fetch_add(static_cast<std::uint64_t>(got), std::memory_order_relaxed);
  }

  Sys &inner_;
  std::atomic<std::uint64_t> &bytes_;
};

}  // namespace fastwc::io
