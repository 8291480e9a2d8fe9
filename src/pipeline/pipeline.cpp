// SPDX-License-Identifier: GPL-3.0-or-later
// pipeline::run: the threads, the two queues and the ordered merge.
//
// Threads. The reader thread is the only one that talks to the kernel
// (oneTBB says blocking work belongs on a real thread, and a worker parked
// in io_uring_wait_cqe would be one counting thread fewer). Counting runs on
// the calling thread and on up to jobs - 1 oneTBB workers of a task_arena:
// the reader pushes each chunk on the `filled` queue, which the calling
// thread drains (sleeping on a futex when it is empty), and, whenever
// chunks pile up there, also enqueues one task that pops one chunk (any
// chunk, so a task that finds the queue emptied by the calling thread just
// ends). So the workers, and the arena itself, come in only when counting
// is slower than reading.
//
// Buffers. A buffer goes reader -> filled queue -> a counting thread ->
// ordered merge -> free queue -> reader. It goes back only once its chunk
// is merged, so at most `buffers` chunks are ever unmerged and the merge
// window, both queues and all memory are bounded by the pool.
#include "pipeline/pipeline.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <span>
#include <thread>

#include "count/dispatch.hpp"
#include "io/buffer_pool.hpp"
#include "io/read_reader.hpp"
#include "io/uring_reader.hpp"
#include "pipeline/bounded_queue.hpp"
#include "pipeline/ordered_merge.hpp"
#include "pipeline/resources.hpp"
#include "pipeline/striped_pread.hpp"
#include "pipeline/workers.hpp"
#include "support/clock.hpp"
#include "support/wake_signal.hpp"

namespace fastwc::pipeline {

namespace {

/// Restates, with atomics that ThreadSanitizer can see, the ordering that
/// oneTBB provides inside its uninstrumented library: a task's creation
/// happens before it runs (release by the reader after defer(), acquire at
/// the task's start), and every task ends before task_group::wait returns
/// (release at each task's end, acquire after the wait; the increments form
/// one release sequence). A namespace-scope variable, because a task must
/// acquire before it reads its own closure. Costs two uncontended atomic
/// operations per chunk.
std::atomic<std::uint64_t> task_edges{0};

class Run final : public io::ReaderPort {
 public:
  Run(const count::ChunkSummarizer &counter, const count::ChunkSummary &initial,
      const Sizing &sizing, std::size_t worker_backlog)
      : counter_(counter),
        pool_(sizing.read_size, sizing.buffers),
        free_(sizing.buffers),
        filled_(sizing.buffers),
        merge_(counter, initial, sizing.buffers),
        jobs_(sizing.jobs),
        backlog_(worker_backlog == 0 ? 1 : worker_backlog) {
    for (std::uint32_t i = 0; i < sizing.buffers; ++i) free_.try_push(i);
  }

  const io::BufferPool &pool() const noexcept { return pool_; }

  /// Starts the reader thread and counts until every chunk is merged.
  /// Throws only if the thread cannot be started (then nothing was read).
  io::ReadEnd execute(io::Reader &reader) {
    std::thread thread([this, &reader] {
      end_ = reader.run(*this);
      reader_done_.store(true, std::memory_order_seq_cst);
      consumer_wake_.notify();
    });
    for (;;) {
      const std::uint32_t seen = consumer_wake_.prepare();
      io::Chunk chunk;
      if (take(chunk)) {
        count_chunk(chunk);
        continue;
      }
      if (finished()) break;
      consumer_wake_.wait(seen);
    }
    thread.join();
    // Tasks that found nothing, or are still returning from a merge, hold
    // references to this object: wait for every one to end.
    if (group_ != nullptr) {
      workers_->wait(pool_of_workers_, group_);
      task_edges.load(std::memory_order_acquire);
      workers_->group_destroy(group_);
      group_ = nullptr;
    }
    return end_;
  }

  const count::ChunkSummary &total() const noexcept { return merge_.total(); }
  std::uint64_t count_ns() const noexcept { return count_ns_.load(std::memory_order_relaxed); }
  std::uint64_t merge_ns() const noexcept { return merge_ns_.load(std::memory_order_relaxed); }
  std::uint64_t worker_chunks() const noexcept {
    return worker_chunks_.load(std::memory_order_relaxed);
  }
  /// Workers were wanted and none could be started.
  bool workers_failed() const noexcept { return workers_failed_; }

  // ReaderPort, called on the reader thread.
  std::uint32_t acquire(std::uint64_t &idle_ns) noexcept override {
    std::uint32_t buffer;
    if (free_.try_pop(buffer)) return buffer;
    const std::uint64_t start = support::now_ns();
    for (;;) {
      const std::uint32_t seen = reader_wake_.prepare();
      if (free_.try_pop(buffer)) break;
      reader_wake_.wait(seen);
    }
    idle_ns += support::now_ns() - start;
    return buffer;
  }

  bool try_acquire(std::uint32_t &buffer) noexcept override { return free_.try_pop(buffer); }

  void deliver(const io::Chunk &chunk) noexcept override {
    const std::uint64_t waiting = waiting_.fetch_add(1, std::memory_order_relaxed) + 1;
    // Never full: it holds at most one entry per buffer.
    filled_.try_push(chunk);
    consumer_wake_.notify();
    // The calling thread counts whatever arrives; a oneTBB worker is called
    // in only when chunks pile up, i.e. when counting is slower than
    // reading. Otherwise (-l, fast kernels) idle workers would spin for the
    // CPU the reader and the kernel's copy need, and the arena is not even
    // created (about 0.5 ms, measured).
    if (jobs_ > 1 && waiting >= backlog_ && group_ == nullptr && !workers_failed_) start_workers();
    if (group_ != nullptr && waiting >= backlog_) {
      task_edges.fetch_add(1, std::memory_order_release);
      // Should it fail, the chunk is still queued for the calling thread.
      workers_->enqueue(pool_of_workers_, group_, &Run::worker_task, this);
    }
  }

  void release(std::uint32_t buffer) noexcept override { free_.try_push(buffer); }

 private:
  /// Every chunk the reader delivered is merged.
  bool finished() const noexcept {
    return reader_done_.load(std::memory_order_seq_cst) && merge_.merged() == end_.chunks;
  }

  bool take(io::Chunk &chunk) noexcept {
    if (!filled_.try_pop(chunk)) return false;
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }

  /// Loads the workers module and gets its pool (about 0.5 ms the first
  /// time in a process); on failure the calling thread counts alone.
  void start_workers() noexcept {
    workers_ = workers();
    if (workers_ != nullptr) pool_of_workers_ = workers_->pool(jobs_);
    if (pool_of_workers_ != nullptr) group_ = workers_->group_create();
    workers_failed_ = group_ == nullptr;
  }

  /// A worker's task (a plain function: it crosses the module boundary).
  static void worker_task(void *self) noexcept {
    task_edges.load(std::memory_order_acquire);
    static_cast<Run *>(self)->count_one();
    task_edges.fetch_add(1, std::memory_order_release);
  }

  /// A oneTBB task: count one chunk if one is still waiting.
  void count_one() noexcept {
    io::Chunk chunk;
    if (!take(chunk)) return;
    count_chunk(chunk);
    worker_chunks_.fetch_add(1, std::memory_order_relaxed);
  }

  void count_chunk(const io::Chunk &chunk) noexcept {
    const std::uint64_t start = support::now_ns();
    const count::ChunkSummary summary = counter_.summarize({pool_.data(chunk.buffer), chunk.size});
    const std::uint64_t counted = support::now_ns();
    const std::uint64_t merged =
        merge_.publish(chunk.seq, summary, chunk.buffer, [this](std::uint32_t buffer) {
          free_.try_push(buffer);
          reader_wake_.notify();
        });
    count_ns_.fetch_add(counted - start, std::memory_order_relaxed);
    if (merged == 0) return;
    merge_ns_.fetch_add(support::now_ns() - counted, std::memory_order_relaxed);
    // The calling thread may be asleep waiting for the last merge.
    if (finished()) consumer_wake_.notify();
  }

  const count::ChunkSummarizer &counter_;
  io::BufferPool pool_;
  BoundedQueue<std::uint32_t> free_;
  BoundedQueue<io::Chunk> filled_;
  OrderedMerge merge_;
  const unsigned jobs_;
  const std::size_t backlog_;
  /// Set on the reader thread when workers are first needed; read by the
  /// calling thread only after joining it.
  const fastwc_workers_api *workers_ = nullptr;
  void *pool_of_workers_ = nullptr;
  void *group_ = nullptr;
  bool workers_failed_ = false;
  support::WakeSignal reader_wake_;    ///< a buffer came back
  support::WakeSignal consumer_wake_;  ///< a chunk arrived, or the last one was merged
  std::atomic<bool> reader_done_{false};
  /// Chunks delivered and not yet taken (a hint: relaxed).
  std::atomic<std::uint64_t> waiting_{0};
  io::ReadEnd end_;  ///< written by the reader thread before reader_done_
  std::atomic<std::uint64_t> count_ns_{0};
  std::atomic<std::uint64_t> merge_ns_{0};
  std::atomic<std::uint64_t> worker_chunks_{0};
};

/// Positioned reads leave the offset alone; a read(2) loop would have left
/// it after the last byte read, where the next reader of a shared
/// descriptor ((wc -l; cat) < file) must find it.
void leave_offset_after(const Input &input, std::uint64_t bytes) noexcept {
  lseek(input.fd, input.offset + static_cast<off_t>(bytes), SEEK_SET);
}

}  // namespace

Outcome run(const Input &input, const count::ChunkSummarizer &counter,
            const count::ChunkSummary &initial, const ReadSettings &options, io::Sys &sys,
            ReadStats &stats) {
  const std::uint64_t start = support::now_ns();
  const std::uint64_t expected =
      input.positioned && input.expected_end > static_cast<std::uint64_t>(input.offset)
          ? input.expected_end - static_cast<std::uint64_t>(input.offset)
          : 0;
  const bool cheap_count = counter.plan() == count::kernels::Plan::newlines;
  const unsigned cpus = options.jobs != 0 ? options.jobs : usable_cpus();
  if (input.positioned &&
      (options.backend == IoBackend::pread || options.backend == IoBackend::automatic)) {
    // A page-cache hit is copied by the thread that issues the read, so one
    // reader thread copies every byte on one core, into buffers that the
    // counting cores then pull from another core's cache: every thread
    // reads and counts its own chunks instead (striped_pread.hpp), one
    // buffer each. Measured: Study C's backend table in
    // bench/results/2026-11-30-vm-256M-run4 (default count 18.7 -> 12.3 ms).
    // With one CPU (or --jobs=1) that is one thread that reads and counts,
    // as GNU's loop: the reader thread and the counting thread took turns
    // there, 1.25-2x slower in every count, from the page cache or cold
    // (bench/results/2026-12-07-one-cpu).
    const std::size_t read_size = choose_sizing(options, cache_sizes(), cpus, expected).read_size;
    const auto fitting =
        static_cast<unsigned>(std::max<std::size_t>(1, options.max_pool_bytes / read_size));
    const Outcome outcome =
        run_striped(input, counter, initial, read_size, std::min(cpus, fitting), sys, stats);
    leave_offset_after(input, outcome.bytes);
    return outcome;
  }
  // Counting newlines outruns any read (tens of GB/s a core): a backlog
  // there is a scheduling hiccup, not work for more threads, and loading
  // the workers for it would cost about 1 ms. Other counts get workers.
  const unsigned jobs = cheap_count ? 1u : cpus;
  Sizing sizing = choose_sizing(options, cache_sizes(), jobs, expected);
  if (input.schedule != nullptr && sizing.read_size < input.schedule->max_read_size()) {
    // Each buffer must hold one whole read of the schedule's.
    ReadSettings larger = options;
    larger.read_size = input.schedule->max_read_size();
    sizing = choose_sizing(larger, cache_sizes(), jobs, expected);
  }
  Run run(counter, initial, sizing, options.worker_backlog);

  std::optional<io::UringReader> uring;
  std::optional<io::ReadReader> plain;
  io::Reader *reader;
  // A positioned input comes this far only with --io=uring or --io=read.
  if (input.positioned && options.backend == IoBackend::uring) {
    io::UringSettings settings;
    settings.depth = sizing.depth;
    settings.register_buffers = sizing.register_buffers;
    settings.async_reads = options.async_reads;
    settings.check_ms = options.ring_check_ms;
    reader = &uring.emplace(input.fd, input.offset, input.expected_end, run.pool(), sys, settings);
  } else {
    reader = &plain.emplace(input.fd, run.pool(), sys, input.schedule);
  }

  const io::ReadEnd end = run.execute(*reader);
  if (input.positioned) leave_offset_after(input, end.bytes);

  const io::ReaderReport &report = reader->report();
  stats.path = report.path;
  stats.uring_error = report.uring_error;
  stats.register_error = report.register_error;
  stats.registered = report.registered;
  stats.async_reads = report.async_reads;
  stats.read_size = sizing.read_size;
  stats.buffers = sizing.buffers;
  stats.workers = sizing.jobs;
  if (run.workers_failed()) {
    stats.workers = 1;
    stats.workers_error = workers_error() != nullptr ? workers_error() : "no worker pool";
  }
  stats.chunks += end.chunks;
  stats.setup_ns = report.ready_at_ns > start ? report.ready_at_ns - start : 0;
  stats.read_wait_ns += report.wait_ns;
  stats.read_idle_ns += report.idle_ns;
  stats.resubmits += report.resubmits;
  stats.redone_reads += report.redone_reads;
  stats.count_ns += run.count_ns();
  stats.merge_ns += run.merge_ns();
  stats.worker_chunks += run.worker_chunks();
  return {run.total(), end.bytes, end.error};
}

}  // namespace fastwc::pipeline
