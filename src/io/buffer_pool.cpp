// SPDX-License-Identifier: GPL-3.0-or-later
// BufferPool: one anonymous mapping cut into page-aligned buffers.
#include "io/buffer_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace fastwc::io {

namespace {

std::size_t page_size() noexcept {
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<std::size_t>(page) : 4096;
}

}  // namespace

BufferPool::BufferPool(std::size_t size, std::size_t count)
    : size_(size), count_(count), stride_(0), base_(nullptr) {
  const std::size_t page = page_size();
  // Whole pages per buffer: the kernel's copy and the counting kernels then
  // never share a cache line or a page between two buffers that different
  // threads own.
  stride_ = (size + page - 1) / page * page;
  void *mapping =
      mmap(nullptr, stride_ * count_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  base_ = static_cast<std::byte *>(mapping);
  iovecs_.reserve(count_);
  for (std::size_t i = 0; i < count_; ++i) iovecs_.push_back({data(i), size_});
}

BufferPool::~BufferPool() { munmap(base_, stride_ * count_); }

}  // namespace fastwc::io
