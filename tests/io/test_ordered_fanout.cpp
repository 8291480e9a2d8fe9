// SPDX-License-Identifier: GPL-3.0-or-later
// OrderedFanout, the many-small-files scheduler: every item is worked on
// exactly once, by a helper or by the consumer, results come out in item
// order, helpers never run more than the window ahead, hand-backs and
// exceptions reach the consumer, and stop() leaves nothing running.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/ordered_fanout.hpp"

namespace {

using fastwc::support::OrderedFanout;

struct Item {
  std::size_t index = 0;
  std::size_t square = 0;
};

/// Counts of what happened to every item, shared by the work function
/// (on any thread) and the test (on the consumer thread).
struct Ledger {
  explicit Ledger(std::size_t items) : worked(std::make_unique<std::atomic<int>[]>(items)) {}
  std::unique_ptr<std::atomic<int>[]> worked;  // times work ran for item i
  std::atomic<std::size_t> consumer_at{0};     // the item the consumer last asked for
  std::atomic<int> window_violations{0};
};

/// Runs the consumer loop over `items`: items for which take() returns
/// nullptr are done "in place" (recorded in `in_place`), which takes
/// `in_place_cost`, as counting a file in order would.
void consume(OrderedFanout<Item> &fanout, Ledger &ledger, std::size_t items,
             std::vector<int> &in_place, std::size_t &from_helpers,
             std::chrono::microseconds in_place_cost = {}) {
  for (std::size_t i = 0; i < items; ++i) {
    ledger.consumer_at.store(i);
    const Item *item = fanout.take(i);
    if (item == nullptr) {
      ++in_place[i];
      if (in_place_cost.count() != 0) std::this_thread::sleep_for(in_place_cost);
      continue;
    }
    ++from_helpers;
    REQUIRE(item->index == i);  // in order, the right outcome
    REQUIRE(item->square == i * i);
  }
}

}  // namespace

TEST_CASE("fanout: every item once, in order, whatever the helpers and window") {
  for (unsigned helpers : {0U, 1U, 3U}) {
    for (std::size_t window : {std::size_t{1}, std::size_t{4}, std::size_t{256}}) {
      CAPTURE(helpers);
      CAPTURE(window);
      constexpr std::size_t items = 3000;
      Ledger ledger(items);
      auto work = [&](std::size_t index, Item &item) {
        ledger.worked[index].fetch_add(1);
        // The slot of item `index` is reused from item index - window on:
        // a helper must not start before the consumer has taken that one.
        if (index >= ledger.consumer_at.load() + window) ledger.window_violations.fetch_add(1);
        if (index % 7 == 3) return false;  // handed back
        item = Item{index, index * index};
        return true;
      };
      OrderedFanout<Item> fanout(items, helpers, window, work);
      CHECK(fanout.helpers() == helpers);
      std::vector<int> in_place(items, 0);
      std::size_t from_helpers = 0;
      consume(fanout, ledger, items, in_place, from_helpers);
      fanout.stop();
      CHECK(ledger.window_violations.load() == 0);
      for (std::size_t i = 0; i < items; ++i) {
        const int worked = ledger.worked[i].load();
        if (i % 7 == 3) {
          // Handed back: worked on at most once, then done in place.
          CHECK(worked <= 1);
          CHECK(in_place[i] == 1);
        } else {
          // Either a helper (or the waiting consumer) did it, or nobody
          // had claimed it and the consumer did it in place.
          CHECK(worked + in_place[i] == 1);
        }
      }
      if (helpers == 0) {
        // Nobody else claims anything: the consumer does every item in place.
        CHECK(from_helpers == 0);
        for (std::size_t i = 0; i < items; ++i) CHECK(in_place[i] == 1);
      }
    }
  }
}

TEST_CASE("fanout: with helpers, the work is shared out") {
  constexpr std::size_t items = 400;
  Ledger ledger(items);
  std::atomic<int> on_other_threads{0};
  const auto consumer = std::this_thread::get_id();
  OrderedFanout<Item> fanout(items, 2, 16, [&](std::size_t index, Item &item) {
    ledger.worked[index].fetch_add(1);
    if (std::this_thread::get_id() != consumer) on_other_threads.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // a slow file
    item = Item{index, index * index};
    return true;
  });
  std::vector<int> in_place(items, 0);
  std::size_t from_helpers = 0;
  consume(fanout, ledger, items, in_place, from_helpers, std::chrono::microseconds(200));
  // Two helpers and the consumer share 400 equally slow items: the helpers
  // (and the consumer while it waits for them) do most of them.
  CHECK(on_other_threads.load() > 0);
  CHECK(from_helpers > items / 4);
}

TEST_CASE("fanout: an exception in the work hands the item back") {
  constexpr std::size_t items = 200;
  Ledger ledger(items);
  OrderedFanout<Item> fanout(items, 2, 8, [&](std::size_t index, Item &item) {
    ledger.worked[index].fetch_add(1);
    if (index % 5 == 0) throw std::runtime_error("no memory");
    item = Item{index, index * index};
    return true;
  });
  std::vector<int> in_place(items, 0);
  std::size_t from_helpers = 0;
  consume(fanout, ledger, items, in_place, from_helpers);
  for (std::size_t i = 0; i < items; i += 5) CHECK(in_place[i] == 1);
}

TEST_CASE("fanout: stop() joins the helpers; later items are done in place") {
  constexpr std::size_t items = 1000;
  Ledger ledger(items);
  std::atomic<int> running{0};
  std::atomic<int> after_stop{0};
  std::atomic<bool> stopped{false};
  OrderedFanout<Item> fanout(items, 3, 32, [&](std::size_t index, Item &item) {
    running.fetch_add(1);
    if (stopped.load()) after_stop.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    item = Item{index, index * index};
    running.fetch_sub(1);
    return true;
  });
  for (std::size_t i = 0; i < 10; ++i) {
    const Item *item = fanout.take(i);
    if (item != nullptr) CHECK(item->index == i);
  }
  fanout.stop();
  stopped.store(true);
  CHECK(running.load() == 0);  // joined: nothing runs after stop()
  CHECK(fanout.helpers() == 0);
  for (std::size_t i = 10; i < 20; ++i) CHECK(fanout.take(i) == nullptr);
  CHECK(after_stop.load() == 0);
}

TEST_CASE("fanout: no items, and more helpers than items") {
  {
    OrderedFanout<Item> fanout(0, 2, 4, [](std::size_t, Item &) { return true; });
  }
  Ledger ledger(3);
  OrderedFanout<Item> fanout(3, 4, 4, [&](std::size_t index, Item &item) {
    ledger.worked[index].fetch_add(1);
    item = Item{index, index * index};
    return true;
  });
  std::vector<int> in_place(3, 0);
  std::size_t from_helpers = 0;
  consume(fanout, ledger, 3, in_place, from_helpers);
  for (std::size_t i = 0; i < 3; ++i) CHECK(ledger.worked[i].load() + in_place[i] == 1);
}

TEST_CASE("fanout: nothing after a barrier starts before the consumer is past it") {
  // Barriers at the start, in the middle, side by side and at the end; the
  // consumer does each barrier in place, slowly, as wc reads a pipe.
  const std::vector<std::size_t> barriers = {0, 40, 41, 97, 199};
  constexpr std::size_t items = 200;
  for (unsigned helpers : {1U, 3U}) {
    CAPTURE(helpers);
    Ledger ledger(items);
    std::atomic<std::size_t> finished{0};  // items the consumer is done with
    std::atomic<int> early{0};
    auto is_barrier = [&](std::size_t index) {
      return std::find(barriers.begin(), barriers.end(), index) != barriers.end();
    };
    OrderedFanout<Item> fanout(
        items, helpers, 64,
        [&](std::size_t index, Item &item) {
          ledger.worked[index].fetch_add(1);
          if (is_barrier(index)) return false;  // read in turn by the consumer
          for (std::size_t b : barriers) {
            if (b < index && finished.load() <= b) early.fetch_add(1);
          }
          item = Item{index, index * index};
          return true;
        },
        barriers);
    for (std::size_t i = 0; i < items; ++i) {
      const Item *item = fanout.take(i);
      if (item == nullptr && is_barrier(i))
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      if (item != nullptr) REQUIRE(item->square == i * i);
      finished.store(i + 1);
    }
    fanout.stop();
    CHECK(early.load() == 0);
  }
}
