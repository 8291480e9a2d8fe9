// SPDX-License-Identifier: GPL-3.0-or-later
// Items of a list worked on by helper threads ahead of one consumer that
// takes the results strictly in list order: how fastwc counts many small
// files at once while printing their lines in argument order, as wc does.
//
// Items are claimed in order from one shared cursor, by the helpers and by
// the consumer alike, so the consumer never waits for an item nobody has
// started: when it reaches an item still unclaimed it does that item itself.
// A helper may also hand an item back (its work function returns false),
// and the consumer then does it in place. Helpers stay at most `window`
// items ahead of the consumer, so memory and open descriptors are bounded
// whatever the length of the list.
//
// Some items may be barriers: nothing after a barrier is started before the
// consumer has taken the item that follows it. wc reads a stream (standard
// input, a FIFO, a terminal) in its turn, and whoever writes it may change
// the later files meanwhile; GNU wc opens each file only after the ones
// before it, so no later file may be read ahead of such an input.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "support/wake_signal.hpp"

namespace fastwc::support {

/// Thread safety: take() and stop() are called by the consumer thread only;
/// `work` runs on the helper threads, one item at a time each, and must be
/// safe to run for distinct items at once.
template <class Outcome>
class OrderedFanout {
 public:
  /// Fills `outcome` for item `index`, or returns false to hand the item
  /// back to the consumer (which then does it itself, in order).
  using Work = std::function<bool(std::size_t index, Outcome &outcome)>;

  /// Starts up to `helpers` threads (fewer if the system refuses threads:
  /// with none, every take() returns nullptr and the consumer does all).
  /// `barriers`: the indices of the barrier items, in increasing order.
  OrderedFanout(std::size_t items, unsigned helpers, std::size_t window, Work work,
                std::vector<std::size_t> barriers = {})
      : items_(items),
        window_(window < 1 ? 1 : window),
        slots_(std::make_unique<Slot[]>(window_)),
        work_(std::move(work)),
        barriers_(std::move(barriers)) {
    threads_.reserve(helpers);
    for (unsigned i = 0; i < helpers; ++i) {
      try {
        threads_.emplace_back([this] { help(); });
      } catch (const std::exception &) {
        break;  // EAGAIN from pthread_create: fewer helpers, same results
      }
    }
  }

  OrderedFanout(const OrderedFanout &) = delete;
  OrderedFanout &operator=(const OrderedFanout &) = delete;
  ~OrderedFanout() { stop(); }

  unsigned helpers() const noexcept { return static_cast<unsigned>(threads_.size()); }

  /// For index = 0, 1, 2, ... in turn: the outcome a helper computed for
  /// that item (valid until the next take()), or nullptr when the caller
  /// must do the item itself (nobody had started it, a helper handed it
  /// back, or the fanout was stopped).
  Outcome *take(std::size_t index) {
    // Items before `index` are done with: their slots may be reused.
    consumed_.store(index, std::memory_order_seq_cst);
    released_.notify();
    if (stopped_) return nullptr;
    std::size_t unclaimed = index;
    if (next_.compare_exchange_strong(unclaimed, index + 1, std::memory_order_seq_cst)) {
      return nullptr;  // nobody had started it: the caller is quickest
    }
    Slot &slot = slots_[index % window_];
    const std::uint64_t ready = tag(index, Result::ready);
    const std::uint64_t handed_back = tag(index, Result::handed_back);
    for (;;) {
      const std::uint32_t seen = done_.prepare();
      const std::uint64_t state = slot.state.load(std::memory_order_acquire);
      if (state == ready) return &slot.outcome;
      if (state == handed_back) return nullptr;
      // Rather than sleep while a helper finishes this item, work on a
      // later one as a helper would (within the window, which only this
      // thread can widen).
      if (!work_ahead(index)) done_.wait(seen);
    }
  }

  /// Lets the helpers finish the item they are on, then joins them; take()
  /// returns nullptr from then on. Called before the process exits early
  /// (a fatal write error), so that no helper runs while exit() destroys
  /// what it uses.
  void stop() noexcept {
    stopped_ = true;
    stopping_.store(true, std::memory_order_seq_cst);
    released_.notify();
    for (std::thread &thread : threads_) {
      if (thread.joinable()) thread.join();
    }
    threads_.clear();
  }

 private:
  enum class Result : std::uint64_t { ready = 1, handed_back = 2 };

  struct Slot {
    /// 0 until the first result; then tag(index, result) of the item last
    /// published in this slot (the index tells laps apart).
    std::atomic<std::uint64_t> state{0};
    Outcome outcome{};
  };

  static std::uint64_t tag(std::size_t index, Result result) noexcept {
    return (static_cast<std::uint64_t>(index) + 1) * 4 + static_cast<std::uint64_t>(result);
  }

  /// Item `index` may start once the consumer has taken this item: the one
  /// after the last barrier before `index` (0 when there is none).
  std::size_t gate(std::size_t index) const noexcept {
    const auto after = std::lower_bound(barriers_.begin(), barriers_.end(), index);
    return after == barriers_.begin() ? 0 : *(after - 1) + 1;
  }

  /// The consumer, waiting for item `current`, claims and does the next
  /// unclaimed item if there is one within the window and before the next
  /// barrier; false if none.
  bool work_ahead(std::size_t current) noexcept {
    const std::size_t end = std::min(items_, current + window_);
    std::size_t index = next_.load(std::memory_order_seq_cst);
    do {
      if (index >= end || gate(index) > current) return false;
    } while (!next_.compare_exchange_weak(index, index + 1, std::memory_order_seq_cst));
    publish(index, run(index));
    return true;
  }

  bool run(std::size_t index) noexcept {
    try {
      return work_(index, slots_[index % window_].outcome);
    } catch (...) {
      return false;  // e.g. no memory: the consumer does it in place
    }
  }

  void publish(std::size_t index, bool done) noexcept {
    slots_[index % window_].state.store(tag(index, done ? Result::ready : Result::handed_back),
                                        std::memory_order_release);
    done_.notify();
  }

  void help() noexcept {
    for (;;) {
      if (stopping_.load(std::memory_order_relaxed)) return;
      const std::size_t index = next_.fetch_add(1, std::memory_order_seq_cst);
      if (index >= items_) return;
      // Stay within the window (slot index % window_ is free once the
      // consumer has taken item index - window_) and behind the barriers.
      const std::size_t gate_index = gate(index);
      bool stopping = false;
      for (;;) {
        const std::uint32_t seen = released_.prepare();
        if (stopping_.load(std::memory_order_seq_cst)) {
          stopping = true;
          break;
        }
        const std::size_t consumed = consumed_.load(std::memory_order_seq_cst);
        if (index < consumed + window_ && gate_index <= consumed) break;
        released_.wait(seen);
      }
      publish(index, !stopping && run(index));
      if (stopping) return;
    }
  }

  const std::size_t items_;
  const std::size_t window_;
  std::unique_ptr<Slot[]> slots_;
  Work work_;
  const std::vector<std::size_t> barriers_;
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> next_{0};      // the first item nobody has claimed
  std::atomic<std::size_t> consumed_{0};  // items before it are taken
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;  // the consumer's own view of stopping_
  WakeSignal done_;       // a helper published a result
  WakeSignal released_;   // the consumer moved on, or stop()
};

}  // namespace fastwc::support
