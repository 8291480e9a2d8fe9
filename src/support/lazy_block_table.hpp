// SPDX-License-Identifier: GPL-3.0-or-later
// A table of code points' values, computed a block at a time on first use
// and shared by every thread without locks: a thread computes the whole
// block into fresh memory and publishes it with one compare-and-swap, so
// readers never see a half-filled block; a thread that loses the race
// frees its copy. The lazy caches of locale::CharClasses (the C library's
// answers) and count::UnitClasses (the kernels' classes) are two tables of
// this kind.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <new>

#include "support/zeroed_atomic_array.hpp"

namespace fastwc::support {

template <class Value, unsigned BlockBits, std::size_t Limit>
class LazyBlockTable {
 public:
  using Block = std::array<Value, std::size_t{1} << BlockBits>;
  static constexpr std::size_t block_count = Limit >> BlockBits;

  LazyBlockTable() = default;
  ~LazyBlockTable() {
    for (std::size_t i = 0; i < blocks_.size(); ++i)
      delete blocks_[i].load(std::memory_order_acquire);
  }
  LazyBlockTable(const LazyBlockTable &) = delete;
  LazyBlockTable &operator=(const LazyBlockTable &) = delete;

  /// The value of `key` when its block was computed already, else null.
  const Value *find(std::size_t key) const noexcept {
    if (key >= Limit) return nullptr;
    const Block *block = blocks_[key >> BlockBits].load(std::memory_order_acquire);
    return block != nullptr ? &(*block)[key & ((std::size_t{1} << BlockBits) - 1)] : nullptr;
  }

  /// The value of `key`, computing its whole block with `compute(key)` for
  /// each key of it first if need be; `compute(key)` alone for a key at or
  /// above Limit, or when no memory for the block can be had.
  template <class Compute>
  Value get(std::size_t key, Compute &&compute) const noexcept {
    if (const Value *known = find(key)) return *known;
    if (key >= Limit) return compute(key);
    const Block *block = fill(key >> BlockBits, compute);
    if (block == nullptr) return compute(key);
    return (*block)[key & ((std::size_t{1} << BlockBits) - 1)];
  }

  /// Fills the block `index` with `compute` unless another thread did.
  template <class Compute>
  const Block *fill(std::size_t index, Compute &&compute) const noexcept {
    auto *fresh = new (std::nothrow) Block;
    if (fresh == nullptr) return nullptr;
    const std::size_t first = index << BlockBits;
    for (std::size_t i = 0; i < fresh->size(); ++i) (*fresh)[i] = compute(first + i);
    const Block *expected = nullptr;
    if (blocks_[index].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel,
                                               std::memory_order_acquire))
      return fresh;
    delete fresh;  // another thread published the same block first
    return expected;
  }

 private:
  ZeroedAtomicArray<const Block *, block_count> blocks_;
};

}  // namespace fastwc::support
