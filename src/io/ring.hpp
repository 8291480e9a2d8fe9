// SPDX-License-Identifier: GPL-3.0-or-later
// A small RAII owner of one io_uring instance (liburing), as MPD's and
// liburing's examples hold one: set up through the io::Sys seam, torn down
// (with any registered buffers) by the destructor. Calls return -errno;
// nothing here throws, because a ring the kernel refuses is an expected
// condition (seccomp, kernel.io_uring_disabled, RLIMIT_MEMLOCK) that the
// readers answer by falling back, not an error.
#pragma once

#include <liburing.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/sys.hpp"

namespace fastwc::io {

/// One ring. Not thread-safe: one thread (the reader thread) uses it.
class Ring {
 public:
  Ring() noexcept = default;
  ~Ring();
  Ring(const Ring &) = delete;
  Ring &operator=(const Ring &) = delete;

  /// Sets up a ring with at least `entries` submission entries: 0 or
  /// -errno (-ENOSYS without io_uring, -EPERM when forbidden, -ENOMEM).
  int init(unsigned entries, Sys &sys) noexcept;
  bool ready() const noexcept { return ready_; }
  /// Registers the buffers as fixed buffers (for READ_FIXED): 0 or -errno
  /// (-ENOMEM or -EPERM when RLIMIT_MEMLOCK is too small).
  int register_buffers(const std::vector<iovec> &buffers, Sys &sys) noexcept;

  /// A free submission entry, submitting queued ones first if the queue is
  /// full; nullptr only if the kernel accepts none.
  io_uring_sqe *sqe() noexcept;
  /// Submits what is queued: entries submitted, or -errno.
  int submit() noexcept;
  /// Waits for a completion (EINTR is retried): 0 or -errno.
  int wait(io_uring_cqe **cqe) noexcept;
  /// The same for at most `timeout_ms` milliseconds (0: no limit): -ETIME
  /// when none came.
  int wait_for(io_uring_cqe **cqe, unsigned timeout_ms) noexcept;
  /// Cancels the request tagged `user_data` without waiting
  /// (IORING_REGISTER_SYNC_CANCEL, Linux 6.0): 0 when it had not started
  /// (its completion, -ECANCELED, is then posted), -ENOENT when the kernel
  /// holds no such request, -EALREADY or -ETIME while it is running,
  /// -EINVAL on older kernels.
  int cancel(std::uint64_t user_data) noexcept;
  /// A completion if one is ready, else nullptr.
  io_uring_cqe *peek() noexcept;
  void seen(io_uring_cqe *cqe) noexcept { io_uring_cqe_seen(&ring_, cqe); }

 private:
  io_uring ring_{};
  bool ready_ = false;
};

}  // namespace fastwc::io
