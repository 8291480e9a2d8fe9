// SPDX-License-Identifier: GPL-3.0-or-later
// run_striped: threads that read and count their own chunks.
//
// Order. Chunks are claimed from one cursor, so every chunk below the
// highest claimed one is being read or is done, and the merge never waits
// for a chunk nobody has started. A thread more than `window` chunks ahead
// of the merge waits for it (bounded memory: the merge holds one summary a
// chunk in flight), which never blocks the thread holding the oldest chunk.
//
// The end. A chunk whose reads stopped before it was full (EOF or an
// error) is published as the merge's last; the first such chunk in file
// order is the end of the input. Until every thread has seen it, another
// thread may still read a chunk or two past it: those are never merged
// (OrderedMerge stops at its last chunk), exactly as a read(2) loop that
// stopped there would never have seen them.
#include "pipeline/striped_pread.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "io/buffer_pool.hpp"
#include "io/gnu_read.hpp"
#include "pipeline/ordered_merge.hpp"
#include "support/clock.hpp"
#include "support/wake_signal.hpp"

namespace fastwc::pipeline {

namespace {

constexpr std::uint64_t no_chunk = std::numeric_limits<std::uint64_t>::max();

/// Chunks a thread may run ahead of the merge (a summary each).
std::size_t merge_window(unsigned threads) noexcept {
  return 16 * static_cast<std::size_t>(threads);
}

class Stripes {
 public:
  Stripes(const Input &input, const count::ChunkSummarizer &counter,
          const count::ChunkSummary &initial, std::size_t read_size, unsigned threads, io::Sys &sys)
      : input_(input),
        counter_(counter),
        sys_(sys),
        pool_(read_size, threads),
        window_(merge_window(threads)),
        merge_(counter, initial, window_) {}

  /// Runs work() on `threads` threads, this one included, and returns once
  /// the last chunk is merged and every thread has ended. Returns the
  /// threads that ran.
  unsigned execute() noexcept {
    std::vector<std::thread> helpers;
    try {
      helpers.reserve(pool_.count() - 1);
      for (unsigned index = 1; index < pool_.count(); ++index) {
        helpers.emplace_back([this, index] { work(index); });
      }
    } catch (...) {
      // No thread (or no memory for its handle): fewer threads read, with
      // the same chunks and the same counts.
    }
    ready_at_ns_ = support::now_ns();
    work(0);
    for (std::thread &helper : helpers) helper.join();
    return static_cast<unsigned>(helpers.size()) + 1;
  }

  const count::ChunkSummary &total() const noexcept { return merge_.total(); }
  /// Chunks with bytes in them (as a reader delivers them).
  std::uint64_t chunks() const noexcept { return chunks_; }
  std::uint64_t bytes() const noexcept { return bytes_; }
  int error() const noexcept { return end_error_; }
  std::uint64_t ready_at_ns() const noexcept { return ready_at_ns_; }
  std::uint64_t read_ns() const noexcept { return read_ns_.load(std::memory_order_relaxed); }
  std::uint64_t count_ns() const noexcept { return count_ns_.load(std::memory_order_relaxed); }
  std::uint64_t merge_ns() const noexcept { return merge_ns_.load(std::memory_order_relaxed); }
  std::uint64_t retries() const noexcept { return retries_.load(std::memory_order_relaxed); }

 private:
  /// One thread: claim, read, count and publish chunks until the end.
  void work(unsigned index) noexcept {
    std::byte *const buffer = pool_.data(index);
    std::uint64_t read_ns = 0;
    std::uint64_t count_ns = 0;
    std::uint64_t merge_ns = 0;
    std::uint64_t retries = 0;
    for (;;) {
      const std::uint64_t chunk = next_chunk_.fetch_add(1, std::memory_order_relaxed);
      if (chunk > end_hint_.load(std::memory_order_acquire)) break;  // past the end
      if (!wait_for_window(chunk)) break;

      const std::uint64_t start = support::now_ns();
      const io::Fill read = read_chunk(chunk, buffer, retries);
      const bool full = read.got == pool_.size();
      const std::uint64_t was_read = support::now_ns();
      const count::ChunkSummary summary = counter_.summarize({buffer, read.got});
      const std::uint64_t counted = support::now_ns();
      if (!full) note_end(chunk, read.error);
      // The chunk's length rides as the merge's token: the merge hands the
      // tokens back in file order, up to the last chunk only.
      const std::uint64_t merged = merge_.publish(
          chunk, summary, static_cast<std::uint32_t>(read.got),
          [this](std::uint32_t got) { tally(got); }, !full);
      if (merged != 0) progress_.notify();
      read_ns += was_read - start;
      count_ns += counted - was_read;
      merge_ns += support::now_ns() - counted;
      if (!full) break;
    }
    read_ns_.fetch_add(read_ns, std::memory_order_relaxed);
    count_ns_.fetch_add(count_ns, std::memory_order_relaxed);
    merge_ns_.fetch_add(merge_ns, std::memory_order_relaxed);
    retries_.fetch_add(retries, std::memory_order_relaxed);
  }

  /// A merged chunk, in file order.
  void tally(std::uint32_t got) noexcept {
    bytes_ += got;
    chunks_ += got != 0;
  }

  /// Waits until `chunk` is within the merge window. false: the input
  /// ended before it.
  bool wait_for_window(std::uint64_t chunk) noexcept {
    for (;;) {
      const std::uint32_t seen = progress_.prepare();
      if (merge_.ended()) return false;
      if (chunk < merge_.merged() + window_) return true;
      progress_.wait(seen);
    }
  }

  /// Reads chunk `chunk` whole, or up to EOF or an error.
  io::Fill read_chunk(std::uint64_t chunk, std::byte *buffer, std::uint64_t &retries) noexcept {
    const std::size_t size = pool_.size();
    const std::uint64_t offset = static_cast<std::uint64_t>(input_.offset) + chunk * size;
    return io::fill(
        0, size,
        [&](std::size_t done, std::size_t left) {
          return sys_.pread(input_.fd, buffer + done, left, static_cast<off_t>(offset + done));
        },
        &retries);
  }

  /// Records that `chunk` came back short: if it is the first in file
  /// order so far, its error is the input's.
  void note_end(std::uint64_t chunk, int error) noexcept {
    const std::lock_guard lock(end_mutex_);
    if (chunk >= end_chunk_) return;
    end_chunk_ = chunk;
    end_error_ = error;
    end_hint_.store(chunk, std::memory_order_release);
  }

  const Input &input_;
  const count::ChunkSummarizer &counter_;
  io::Sys &sys_;
  io::BufferPool pool_;  ///< one buffer a thread
  const std::size_t window_;
  OrderedMerge merge_;
  support::WakeSignal progress_;  ///< the merge moved on, or ended
  alignas(64) std::atomic<std::uint64_t> next_chunk_{0};
  /// The first short chunk seen so far (no_chunk: none), for threads to
  /// stop claiming; end_chunk_ and end_error_ are its exact record.
  alignas(64) std::atomic<std::uint64_t> end_hint_{no_chunk};
  std::mutex end_mutex_;
  std::uint64_t end_chunk_ = no_chunk;
  int end_error_ = 0;
  // Written by tally(), under the merge's lock; read after the threads end.
  std::uint64_t bytes_ = 0;
  std::uint64_t chunks_ = 0;
  std::uint64_t ready_at_ns_ = 0;
  std::atomic<std::uint64_t> read_ns_{0};
  std::atomic<std::uint64_t> count_ns_{0};
  std::atomic<std::uint64_t> merge_ns_{0};
  std::atomic<std::uint64_t> retries_{0};
};

}  // namespace

Outcome run_striped(const Input &input, const count::ChunkSummarizer &counter,
                    const count::ChunkSummary &initial, std::size_t read_size, unsigned threads,
                    io::Sys &sys, ReadStats &stats) {
  const std::uint64_t start = support::now_ns();
  Stripes stripes(input, counter, initial, read_size, std::max(1u, threads), sys);
  const unsigned ran = stripes.execute();

  stats.path = ReadStats::Path::pread;
  stats.read_size = read_size;
  stats.buffers = ran;
  stats.workers = ran;
  stats.chunks += stripes.chunks();
  stats.setup_ns = stripes.ready_at_ns() > start ? stripes.ready_at_ns() - start : 0;
  stats.read_wait_ns += stripes.read_ns();
  stats.count_ns += stripes.count_ns();
  stats.merge_ns += stripes.merge_ns();
  stats.resubmits += stripes.retries();
  return {stripes.total(), stripes.bytes(), stripes.error()};
}

}  // namespace fastwc::pipeline
