// SPDX-License-Identifier: GPL-3.0-or-later
// fastwc-workers.so: the counting threads, on oneTBB (workers_abi.h says
// why they are a module). One task_arena per concurrency for the life of
// the process; one task_group per input. Nothing throws across the
// boundary: every oneTBB call that can throw is caught here.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>

#include "pipeline/workers_abi.h"

namespace {

/// One arena per concurrency, created on first use and kept for the life
/// of the process: every large input of a run reuses the same workers.
/// They are deliberately never destroyed, so that no arena is torn down
/// while oneTBB's own globals are being destroyed at exit.
tbb::task_arena &shared_arena(unsigned jobs) {
  static std::mutex mutex;
  // Heap-allocated as well: a static map would be destroyed at exit and
  // leave the arenas unreachable (a leak report under LeakSanitizer).
  static auto *const arenas = new std::map<unsigned, tbb::task_arena *>;
  static tbb::global_control *control = nullptr;
  static unsigned control_threads = 0;
  const std::lock_guard lock(mutex);
  // oneTBB starts at most default_concurrency() - 1 workers; --jobs above
  // the CPU count asks for more.
  const auto wanted = static_cast<std::size_t>(jobs);
  if (wanted > static_cast<std::size_t>(tbb::info::default_concurrency()) &&
      jobs > control_threads) {
    // Only one such object: with several, oneTBB obeys the smallest.
    delete control;
    control = nullptr;
    control = new tbb::global_control(tbb::global_control::max_allowed_parallelism, wanted);
    control_threads = jobs;
  }
  tbb::task_arena *&arena = (*arenas)[jobs];
  if (arena == nullptr) {
    // One slot is the calling thread's, for the final wait.
    auto created = std::make_unique<tbb::task_arena>(static_cast<int>(jobs), 1);
    created->initialize();
    arena = created.release();
  }
  return *arena;
}

void *pool(unsigned jobs) {
  try {
    return &shared_arena(jobs);
  } catch (...) {
    return nullptr;  // no workers: the calling thread counts alone
  }
}

void *group_create() { return new (std::nothrow) tbb::task_group; }

/// Restates, with an atomic that ThreadSanitizer can see, what oneTBB
/// guarantees inside its uninstrumented library: a task's closure is
/// written before the task runs (release after defer(), acquire before the
/// closure's fields are read). Module-wide, because a task must acquire
/// before it reads its own closure.
std::atomic<std::uint64_t> closures_written{0};

int enqueue(void *pool, void *group, void (*task)(void *), void *argument) {
  try {
    tbb::task_handle handle = static_cast<tbb::task_group *>(group)->defer([task, argument] {
      closures_written.load(std::memory_order_acquire);
      task(argument);
    });
    closures_written.fetch_add(1, std::memory_order_release);
    static_cast<tbb::task_arena *>(pool)->enqueue(std::move(handle));
    return 0;
  } catch (...) {
    return -1;
  }
}

void wait(void *pool, void *group) {
  auto &tasks = *static_cast<tbb::task_group *>(group);
  static_cast<tbb::task_arena *>(pool)->execute([&tasks] { tasks.wait(); });
}

void group_destroy(void *group) { delete static_cast<tbb::task_group *>(group); }

constexpr fastwc_workers_api api{
    FASTWC_WORKERS_ABI_VERSION, pool, group_create, enqueue, wait, group_destroy};

}  // namespace

extern "C" __attribute__((visibility("default"))) const fastwc_workers_api *fastwc_workers_api_v1(
    void) {
  return &api;
}
