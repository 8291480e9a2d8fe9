// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline's building blocks on their own: the bounded MPMC queue
// (order, bounds, and no element lost or duplicated under contention), the
// futex wake signal (no lost wake-up), the ordered merge (summaries
// published in any order on any thread merge to the serial summary, and
// nothing past the chunk published as last), and
// the CPU, cgroup and pool-sizing rules.
#include <doctest/doctest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "count/chunk_summarizer.hpp"
#include "io_test_support.hpp"
#include "locale/char_classes.hpp"
#include "pipeline/bounded_queue.hpp"
#include "pipeline/ordered_merge.hpp"
#include "pipeline/resources.hpp"
#include "support/wake_signal.hpp"

namespace {

using fastwc::count::ChunkSummarizer;
using fastwc::count::ChunkSummary;
using fastwc::pipeline::BoundedQueue;
using fastwc::pipeline::OrderedMerge;
using fastwc::pipeline::ReadSettings;
using fastwc::support::WakeSignal;
using namespace io_test;

}  // namespace

TEST_CASE("queue: FIFO, bounded, reusable across laps") {
  BoundedQueue<int> queue(5);
  CHECK(queue.capacity() == 8);
  int value = -1;
  CHECK_FALSE(queue.try_pop(value));
  for (int lap = 0; lap < 3; ++lap) {
    for (int i = 0; i < 8; ++i) CHECK(queue.try_push(lap * 100 + i));
    CHECK_FALSE(queue.try_push(999));
    for (int i = 0; i < 8; ++i) {
      REQUIRE(queue.try_pop(value));
      CHECK(value == lap * 100 + i);
    }
    CHECK_FALSE(queue.try_pop(value));
  }
}

TEST_CASE("queue: many producers and consumers lose and duplicate nothing") {
  constexpr int producers = 4;
  constexpr int consumers = 4;
  constexpr int per_producer = 50000;
  BoundedQueue<int> queue(64);
  std::vector<std::atomic<int>> seen(producers * per_producer);
  std::atomic<int> consumed{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < per_producer; ++i) {
        while (!queue.try_push(p * per_producer + i)) std::this_thread::yield();
      }
    });
  }
  for (int c = 0; c < consumers; ++c) {
    threads.emplace_back([&] {
      int value;
      while (consumed.load() < producers * per_producer) {
        if (queue.try_pop(value)) {
          seen[static_cast<std::size_t>(value)].fetch_add(1);
          consumed.fetch_add(1);
        } else {
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto &thread : threads) thread.join();
  CHECK(std::all_of(seen.begin(), seen.end(),
                    [](const std::atomic<int> &n) { return n.load() == 1; }));
}

TEST_CASE("wake signal: a ping-pong of 20000 hand-offs never loses a wake-up") {
  within(hang_limit, [] {
    WakeSignal to_b;
    WakeSignal to_a;
    std::atomic<int> ball{0};
    constexpr int rounds = 20000;
    std::thread b([&] {
      for (int i = 0; i < rounds; ++i) {
        for (;;) {
          const auto seen = to_b.prepare();
          if (ball.load() == 2 * i + 1) break;
          to_b.wait(seen);
        }
        ball.store(2 * i + 2);
        to_a.notify();
      }
    });
    for (int i = 0; i < rounds; ++i) {
      ball.store(2 * i + 1);
      to_b.notify();
      for (;;) {
        const auto seen = to_a.prepare();
        if (ball.load() == 2 * i + 2) break;
        to_a.wait(seen);
      }
    }
    b.join();
    CHECK(ball.load() == 2 * rounds);
    return 0;
  });
}

TEST_CASE(
    "ordered merge: summaries published out of order on several threads merge to the serial one") {
  GlobalLocale locale("C.UTF-8");
  fastwc::CountOptions options;
  options.selection = fastwc::Selection::all();
  options.encoding = fastwc::Encoding::utf8;
  const ChunkSummarizer counter(options, fastwc::locale::CharClasses::current());
  const std::string text = utf8_text(300000, 91) + invalid_text(100000, 92);
  constexpr std::size_t chunk_size = 997;
  const std::size_t chunks = (text.size() + chunk_size - 1) / chunk_size;
  std::vector<ChunkSummary> summaries;
  for (std::size_t i = 0; i < chunks; ++i) {
    summaries.push_back(
        counter.summarize(as_bytes(std::string_view(text).substr(i * chunk_size, chunk_size))));
  }
  ChunkSummary serial{};
  for (const auto &s : summaries) serial = counter.merge(serial, s);

  // A window of 8: seq k + 8 is published only after k is merged, as the
  // pipeline's buffer cycle guarantees.
  constexpr std::size_t window = 8;
  OrderedMerge merge(counter, ChunkSummary{}, window);
  BoundedQueue<std::uint32_t> tokens(window);  // buffers, returned on merge
  for (std::uint32_t i = 0; i < window; ++i) tokens.try_push(i);
  std::atomic<std::size_t> next_seq{0};
  std::atomic<std::size_t> released{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      for (;;) {
        std::uint32_t buffer;
        if (!tokens.try_pop(buffer)) {
          if (merge.merged() == chunks) return;
          std::this_thread::yield();
          continue;
        }
        const std::size_t seq = next_seq.fetch_add(1);
        if (seq >= chunks) {
          tokens.try_push(buffer);
          return;
        }
        if (rng() % 3 == 0) std::this_thread::yield();  // shuffle the order
        merge.publish(seq, summaries[seq], buffer, [&](std::uint32_t b) {
          released.fetch_add(1);
          tokens.try_push(b);
        });
      }
    });
  }
  for (auto &thread : threads) thread.join();
  CHECK(merge.merged() == chunks);
  CHECK(released.load() == chunks);
  CHECK(merge.total() == serial);
  CHECK(show(counter.finish(merge.total())) == show(reference_counts(text, options)));
}

TEST_CASE("resources: cgroup v2 cpu.max quotas round up") {
  using fastwc::pipeline::cpu_max_quota;
  CHECK_FALSE(cpu_max_quota("max 100000"));
  CHECK(cpu_max_quota("100000 100000") == 1u);
  CHECK(cpu_max_quota("150000 100000") == 2u);
  CHECK(cpu_max_quota("50000 100000") == 1u);
  CHECK(cpu_max_quota("400000 100000") == 4u);
  CHECK_FALSE(cpu_max_quota(""));
  CHECK_FALSE(cpu_max_quota("garbage"));
  CHECK_FALSE(cpu_max_quota("100 0"));
}

TEST_CASE("resources: usable CPUs are within the affinity mask") {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  const unsigned cpus = fastwc::pipeline::usable_cpus();
  CHECK(cpus >= 1);
  CHECK(cpus <= static_cast<unsigned>(CPU_COUNT(&set)));
}

TEST_CASE("resources: the pool follows the caches and stays bounded") {
  using fastwc::pipeline::CacheSizes;
  using fastwc::pipeline::choose_sizing;
  constexpr std::size_t MiB = 1 << 20;
  const ReadSettings defaults;
  for (const CacheSizes caches :
       {CacheSizes{MiB, 32 * MiB}, CacheSizes{256 * 1024, 8 * MiB}, CacheSizes{2 * MiB, 384 * MiB},
        CacheSizes{0, 0}, CacheSizes{64 * 1024, 0}}) {
    for (unsigned cpus : {1u, 2u, 16u, 256u}) {
      CAPTURE(caches.l2);
      CAPTURE(caches.l3);
      CAPTURE(cpus);
      const auto sizing = choose_sizing(defaults, caches, cpus);
      CHECK(sizing.jobs == cpus);
      CHECK(sizing.read_size >= 128 * 1024);
      CHECK(sizing.read_size <= MiB);
      CHECK(sizing.buffers >= 2);
      CHECK(sizing.depth >= 1);
      CHECK(sizing.depth < sizing.buffers);
      CHECK(sizing.buffers * sizing.read_size <= defaults.max_pool_bytes);
    }
  }
  // A larger L3 allows more in flight; a smaller L2 smaller reads.
  const auto big = choose_sizing(defaults, CacheSizes{MiB, 256 * MiB}, 2);
  const auto small = choose_sizing(defaults, CacheSizes{256 * 1024, 4 * MiB}, 2);
  CHECK(big.depth * big.read_size > small.depth * small.read_size);
  CHECK(small.read_size == 256 * 1024);

  // Explicit settings win, within the memory bound.
  ReadSettings explicit_options;
  explicit_options.jobs = 3;
  explicit_options.read_size = 16 * MiB;
  const auto sized = choose_sizing(explicit_options, CacheSizes{MiB, 32 * MiB}, 2);
  CHECK(sized.jobs == 3);
  CHECK(sized.read_size == 16 * MiB);
  CHECK(sized.buffers * sized.read_size <= explicit_options.max_pool_bytes);
  CHECK(sized.buffers >= 2);
}

TEST_CASE("resources: a known input size shrinks the pool and decides registration") {
  using fastwc::BufferRegistration;
  using fastwc::pipeline::CacheSizes;
  using fastwc::pipeline::choose_sizing;
  constexpr std::size_t MiB = 1 << 20;
  const CacheSizes caches{MiB, 32 * MiB};
  const ReadSettings defaults;

  const auto large = choose_sizing(defaults, caches, 2, std::uint64_t{1} << 30);
  CHECK(large.read_size == MiB);
  CHECK(large.register_buffers);
  CHECK(large == choose_sizing(defaults, caches, 2, 0));  // unknown: the same

  // A medium file: the pool stays within an eighth of it (reads no smaller
  // than 128 KiB), and is not worth pinning.
  const auto medium = choose_sizing(defaults, caches, 2, 8 * MiB);
  CHECK(medium.read_size >= 128 * 1024);
  CHECK(medium.read_size < MiB);
  CHECK(medium.buffers * medium.read_size <= MiB);
  CHECK(medium.depth < medium.buffers);

  // A file of a few reads gets no more buffers than it can fill.
  ReadSettings big_reads;
  big_reads.read_size = 4 * MiB;
  const auto few = choose_sizing(big_reads, caches, 8, 6 * MiB);
  CHECK(few.read_size == 4 * MiB);
  CHECK(few.buffers == 3);  // 1.5 reads of data, and the read that finds EOF
  CHECK_FALSE(few.register_buffers);

  ReadSettings always;
  always.registration = BufferRegistration::always;
  CHECK(choose_sizing(always, caches, 2, MiB).register_buffers);
  ReadSettings never;
  never.registration = BufferRegistration::never;
  CHECK_FALSE(choose_sizing(never, caches, 2, std::uint64_t{1} << 30).register_buffers);
}

TEST_CASE(
    "ordered merge: nothing after the chunk published as last is merged, whatever the order") {
  GlobalLocale locale("C");
  fastwc::CountOptions options;
  options.selection = fastwc::Selection::all();
  const ChunkSummarizer counter(options, fastwc::locale::CharClasses::current());
  const std::string text = ascii_text(64 * 100, 93);
  auto chunk = [&](std::size_t seq) {
    return counter.summarize(as_bytes(std::string_view(text).substr(seq * 100, 100)));
  };
  // Chunk `last` ends the stream; chunks up to `last` + 5 are published,
  // in a shuffled order, some of those past the end before it.
  for (std::size_t last : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{40}}) {
    for (unsigned seed = 0; seed < 20; ++seed) {
      CAPTURE(last);
      CAPTURE(seed);
      std::vector<std::size_t> order(last + 6);
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::mt19937 rng(seed);
      // Shuffle within a window of 8, as bounded threads would.
      for (std::size_t i = 0; i + 1 < order.size(); ++i) {
        std::swap(order[i], order[std::min(order.size() - 1, i + rng() % 8)]);
      }
      OrderedMerge merge(counter, ChunkSummary{}, 64);
      std::vector<std::uint32_t> released;
      for (std::size_t seq : order) {
        if (seq <= last) CHECK_FALSE(merge.ended());
        merge.publish(
            seq, chunk(seq), static_cast<std::uint32_t>(seq),
            [&](std::uint32_t token) { released.push_back(token); }, seq == last);
      }
      CHECK(merge.ended());
      CHECK(merge.merged() == last + 1);
      std::vector<std::uint32_t> expected(last + 1);
      std::iota(expected.begin(), expected.end(), 0u);
      CHECK(released == expected);
      ChunkSummary serial{};
      for (std::size_t seq = 0; seq <= last; ++seq) serial = counter.merge(serial, chunk(seq));
      CHECK(merge.total() == serial);
    }
  }
}
