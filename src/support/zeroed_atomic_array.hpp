// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed array of atomically accessed values that starts all zero without
// writing a byte: its memory is a fresh anonymous mapping, whose pages the
// kernel supplies zeroed on first touch. The lazily filled caches of the
// character classes index every block of Unicode, tens of KiB each, and
// std::atomic members would be zeroed (and their pages faulted in) by every
// process that starts, one-line files included; here only the slots used
// are ever touched. (calloc touched 17 more pages per run, measured.)
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

// LeakSanitizer does not look for pointers in a program's own mappings, and
// the caches' blocks are reachable only from here: under AddressSanitizer
// the array lives on the heap instead.
#if defined(__SANITIZE_ADDRESS__)
#define FASTWC_ZEROED_ARRAY_ON_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define FASTWC_ZEROED_ARRAY_ON_HEAP 1
#endif
#endif

namespace fastwc::support {

template <class T, std::size_t N>
class ZeroedAtomicArray {
  static_assert(std::is_trivially_copyable_v<T> && N > 0);

 public:
  ZeroedAtomicArray() : data_(allocate()) {}
  ~ZeroedAtomicArray() { release(data_); }
  ZeroedAtomicArray(const ZeroedAtomicArray &) = delete;
  ZeroedAtomicArray &operator=(const ZeroedAtomicArray &) = delete;

  /// Slot i, for atomic loads, stores and compare-exchanges.
  std::atomic_ref<T> operator[](std::size_t i) const noexcept {
    return std::atomic_ref<T>(data_[i]);
  }
  static constexpr std::size_t size() noexcept { return N; }

 private:
  static constexpr std::size_t bytes = sizeof(T) * N;
  static_assert(alignof(std::max_align_t) % std::atomic_ref<T>::required_alignment == 0);

  static T *allocate() {
#ifdef FASTWC_ZEROED_ARRAY_ON_HEAP
    void *memory = std::calloc(N, sizeof(T));
    if (memory == nullptr) throw std::bad_alloc();
#else
    void *memory =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
#endif
    return static_cast<T *>(memory);
  }

  static void release(T *data) noexcept {
#ifdef FASTWC_ZEROED_ARRAY_ON_HEAP
    std::free(data);
#else
    ::munmap(data, bytes);
#endif
  }

  T *data_;  ///< page- or malloc-aligned, so aligned for std::atomic_ref<T>
};

}  // namespace fastwc::support
