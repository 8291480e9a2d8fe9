// SPDX-License-Identifier: GPL-3.0-or-later
// How a pipeline thread sleeps until another one has something for it: an
// event counter on a futex. A waiter reads the counter, checks its queue,
// and sleeps only if the counter has not moved since; a notifier changes
// the state, bumps the counter, and makes the futex call only when someone
// may be asleep, so a busy pipeline makes no system calls for hand-offs.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>

namespace fastwc::support {

/// Thread safety: any number of threads may wait and notify at once.
/// Usage (no wake-up is ever lost):
///   for (;;) { auto seen = s.prepare(); if (try_take()) break; s.wait(seen); }
/// and on the other side: make try_take() succeed, then s.notify().
class WakeSignal {
 public:
  std::uint32_t prepare() const noexcept { return epoch_.load(std::memory_order_seq_cst); }

  /// Sleeps until notify() has been called after the prepare() that
  /// returned `seen` (returns at once if it already has). It does not spin
  /// first: measured on a shared 2-CPU machine, polling for 20 us before
  /// sleeping took the CPU that the reader's copy and other processes
  /// needed, and never paid back the futex call it saved.
  void wait(std::uint32_t seen) noexcept {
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    // Dekker-style pairing with notify(): either this load sees the new
    // epoch, or notify() sees waiters_ != 0 and wakes the futex, which in
    // turn refuses to sleep once the epoch differs from `seen`.
    while (epoch_.load(std::memory_order_seq_cst) == seen) {
      syscall(SYS_futex, futex_word(), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
    }
    waiters_.fetch_sub(1, std::memory_order_seq_cst);
  }

  /// Wakes every waiter (a system call only if one may be asleep).
  void notify() noexcept {
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (waiters_.load(std::memory_order_seq_cst) != 0) {
      syscall(SYS_futex, futex_word(), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
    }
  }

 private:
  // The futex is the atomic's own 32-bit word.
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  std::uint32_t *futex_word() noexcept { return reinterpret_cast<std::uint32_t *>(&epoch_); }

  std::atomic<std::uint32_t> epoch_{0};
  std::atomic<std::uint32_t> waiters_{0};
};

}  // namespace fastwc::support
