// SPDX-License-Identifier: GPL-3.0-or-later
// A bounded lock-free multi-producer multi-consumer queue (Dmitry Vyukov's
// design: one sequence number per cell, producers and consumers each claim
// a position with one compare-and-swap). The pipeline's hand-offs use it:
// filled chunks from the reader to the counting threads, and empty buffers
// back to the reader. Capacity is fixed at construction and never grows,
// so the pipeline's memory is bounded by its pool, not by the input.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace fastwc::pipeline {

/// Thread safety: try_push and try_pop may be called from any number of
/// threads at once; both are lock-free and noexcept. T must be trivially
/// copyable (the queue holds chunk descriptors and buffer indices).
template <class T>
class BoundedQueue {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  /// Room for at least `capacity` elements (rounded up to a power of two).
  explicit BoundedQueue(std::size_t capacity)
      : mask_(std::bit_ceil(capacity < 2 ? std::size_t{2} : capacity) - 1),
        cells_(std::make_unique<Cell[]>(mask_ + 1)) {
    for (std::size_t i = 0; i <= mask_; ++i) cells_[i].sequence.store(i, std::memory_order_relaxed);
  }

  std::size_t capacity() const noexcept { return mask_ + 1; }

  /// Appends `value`; false (and nothing changed) when the queue is full.
  bool try_push(const T &value) noexcept {
    std::size_t position = tail_.load(std::memory_order_relaxed);
    Cell *cell;
    for (;;) {
      cell = &cells_[position & mask_];
      const std::size_t sequence = cell->sequence.load(std::memory_order_acquire);
      const auto lag = static_cast<std::ptrdiff_t>(sequence - position);
      if (lag == 0) {
        // The cell is free for this lap: claim the position.
        if (tail_.compare_exchange_weak(position, position + 1, std::memory_order_relaxed)) break;
      } else if (lag < 0) {
        return false;  // the cell still holds last lap's element: full
      } else {
        position = tail_.load(std::memory_order_relaxed);  // another producer won
      }
    }
    cell->value = value;
    // Publishes the value to the consumer that claims this position.
    cell->sequence.store(position + 1, std::memory_order_release);
    return true;
  }

  /// Removes the oldest element into `value`; false when the queue is empty.
  bool try_pop(T &value) noexcept {
    std::size_t position = head_.load(std::memory_order_relaxed);
    Cell *cell;
    for (;;) {
      cell = &cells_[position & mask_];
      const std::size_t sequence = cell->sequence.load(std::memory_order_acquire);
      const auto lag = static_cast<std::ptrdiff_t>(sequence - (position + 1));
      if (lag == 0) {
        if (head_.compare_exchange_weak(position, position + 1, std::memory_order_relaxed)) break;
      } else if (lag < 0) {
        return false;  // not yet written this lap: empty
      } else {
        position = head_.load(std::memory_order_relaxed);
      }
    }
    value = cell->value;
    // Frees the cell for the producer of the next lap.
    cell->sequence.store(position + mask_ + 1, std::memory_order_release);
    return true;
  }

 private:
  // One cell per cache line: a producer filling one cell and a consumer
  // draining its neighbour do not share a line.
  struct alignas(64) Cell {
    std::atomic<std::size_t> sequence{0};
    T value{};
  };

  const std::size_t mask_;
  const std::unique_ptr<Cell[]> cells_;
  alignas(64) std::atomic<std::size_t> tail_{0};
  alignas(64) std::atomic<std::size_t> head_{0};
};

}  // namespace fastwc::pipeline
