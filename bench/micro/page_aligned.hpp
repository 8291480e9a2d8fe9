// SPDX-License-Identifier: GPL-3.0-or-later
// bench_kernels' buffers: each corpus is counted from a page-aligned copy,
// as the reader's buffers are.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>

/// A corpus copied to a page-aligned buffer, as the reader's buffers are
/// (src/io/buffer_pool.cpp maps them). A std::string of 256 KiB lies 16
/// bytes past a page (malloc's mmap header) or anywhere on the heap, so
/// most 64-byte loads from it span two cache lines: -l measured 82 GB/s
/// there against 133 from aligned memory (AVX-512, Intel Xeon), and each
/// corpus as it happened to fall.
class PageAligned {
 public:
  explicit PageAligned(const std::string &text)
      : size_(text.size()),
        data_(static_cast<std::byte *>(
            std::aligned_alloc(4096, (size_ + 4095) / 4096 * 4096 + 4096))) {
    if (data_ == nullptr) throw std::bad_alloc();
    std::memcpy(data_.get(), text.data(), size_);
  }
  std::span<const std::byte> bytes() const noexcept { return {data_.get(), size_}; }

 private:
  struct Free {
    void operator()(std::byte *p) const noexcept { std::free(p); }
  };

  std::size_t size_;
  std::unique_ptr<std::byte[], Free> data_;
};
