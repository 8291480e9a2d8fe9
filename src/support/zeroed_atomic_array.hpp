// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed array of atomically accessed values that starts all zero without
// writing a byte: its memory is a fresh anonymous mapping, whose pages the
// kernel supplies zeroed on first touch. The lazily filled caches of the
// character classes index every block of Unicode, tens of KiB each, and
// std::atomic members would be zeroed (and their pages faulted in) by every
// process that starts, one-line files included; here only the slots used
// are ever touched.
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>

namespace fastwc::support {

template <class T, std::size_t N>
class ZeroedAtomicArray {
  static_assert(std::is_trivially_copyable_v<T> && N > 0);

 public:
  ZeroedAtomicArray() : data_(allocate()) {}
  ~ZeroedAtomicArray() { ::munmap(data_, bytes); }
  ZeroedAtomicArray(const ZeroedAtomicArray &) = delete;
  ZeroedAtomicArray &operator=(const ZeroedAtomicArray &) = delete;

  /// Slot i, for atomic loads, stores and compare-exchanges.
  std::atomic_ref<T> operator[](std::size_t i) const noexcept { return std::atomic_ref<T>(data_[i]); }
  static constexpr std::size_t size() noexcept { return N; }

 private:
  static constexpr std::size_t bytes = sizeof(T) * N;

  static T *allocate() {
    void *memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T *>(memory);
  }

  T *data_;  ///< page-aligned, so aligned for std::atomic_ref<T>
};

}  // namespace fastwc::support
