// SPDX-License-Identifier: GPL-3.0-or-later
// The in-order merge of chunk summaries: chunks are counted in
// any order on any thread, and their summaries are merged strictly in file
// order (sequence numbers), which is all that ChunkSummarizer::merge needs to
// give exactly the serial counts, since it is associative but not
// commutative. There is no merging thread: whichever counting thread
// publishes the summary that is next in order merges it and every later one
// already waiting (flat combining), and gives their buffers back.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "count/chunk_summarizer.hpp"
#include "count/summary.hpp"

namespace fastwc::pipeline {

/// Thread safety: publish() may be called from any number of threads at
/// once; merged() from any thread; total() only once every published
/// summary has been merged and no publish() is running.
///
/// Capacity: at most `window` sequence numbers may be published and not
/// yet merged at any time. The pipeline guarantees it by returning a
/// buffer to the reader only after its chunk is merged, with window = the
/// number of buffers.
///
/// The end: a chunk published as `last` is the final one. Once it is
/// merged the merge has ended, and chunks published after it in sequence
/// (read ahead past the end of the input) are never merged or released.
class OrderedMerge {
 public:
  OrderedMerge(const count::ChunkSummarizer &counter, const count::ChunkSummary &initial,
               std::size_t window)
      : counter_(counter),
        window_(window),
        slots_(std::make_unique<Slot[]>(window)),
        total_(initial) {}

  /// Records the summary of chunk `seq` and merges what is now next in
  /// order, calling release(token) for each merged chunk, in order (the
  /// pipeline's token is the chunk's buffer). Returns the number of chunks
  /// this call merged.
  template <class Release>
  std::uint64_t publish(std::uint64_t seq, const count::ChunkSummary &summary, std::uint32_t token,
                        Release &&release, bool last = false) noexcept {
    Slot &slot = slots_[seq % window_];
    slot.summary = summary;
    slot.token = token;
    slot.last = last;
    slot.ready.store(seq + 1, std::memory_order_seq_cst);
    std::uint64_t merged = 0;
    for (;;) {
      // Someone else is merging: it will see this slot, either in its
      // loop or in the re-check after it lets go (the seq_cst pairing of
      // `ready` and `busy_` rules out both sides missing each other).
      if (busy_.exchange(true, std::memory_order_seq_cst)) return merged;
      std::uint64_t next = next_;
      bool ended = ended_.load(std::memory_order_relaxed);
      while (!ended) {
        Slot &head = slots_[next % window_];
        if (head.ready.load(std::memory_order_acquire) != next + 1) break;
        total_ = counter_.merge(total_, head.summary);
        const std::uint32_t done_token = head.token;
        ended = head.last;
        ++next;
        ++merged;
        release(done_token);
      }
      next_ = next;
      ended_.store(ended, std::memory_order_seq_cst);
      merged_.store(next, std::memory_order_seq_cst);
      busy_.store(false, std::memory_order_seq_cst);
      if (ended || slots_[next % window_].ready.load(std::memory_order_seq_cst) != next + 1)
        return merged;
    }
  }

  /// Chunks merged so far (0, 1, 2, ...: always a prefix of the stream).
  std::uint64_t merged() const noexcept { return merged_.load(std::memory_order_seq_cst); }

  /// The chunk published as last has been merged.
  bool ended() const noexcept { return ended_.load(std::memory_order_seq_cst); }

  /// The summary of the initial part and every merged chunk.
  const count::ChunkSummary &total() const noexcept { return total_; }

 private:
  struct alignas(64) Slot {
    /// seq + 1 once the summary of chunk seq is in place (0: never used).
    std::atomic<std::uint64_t> ready{0};
    std::uint32_t token = 0;
    bool last = false;
    count::ChunkSummary summary{};
  };

  const count::ChunkSummarizer &counter_;
  const std::size_t window_;
  const std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<bool> busy_{false};
  std::atomic<bool> ended_{false};
  std::uint64_t next_ = 0;       ///< guarded by busy_
  count::ChunkSummary total_{};  ///< guarded by busy_
  std::atomic<std::uint64_t> merged_{0};
};

}  // namespace fastwc::pipeline
