// SPDX-License-Identifier: GPL-3.0-or-later
// Ring: the liburing calls, each returning -errno.
#include "io/ring.hpp"

#include <cerrno>

namespace fastwc::io {

Ring::~Ring() {
  // Also unregisters the fixed buffers. The reader reaps every read it
  // submitted before the ring goes, so no read can still target the pool.
  if (ready_) io_uring_queue_exit(&ring_);
}

int Ring::init(unsigned entries, Sys &sys) noexcept {
  const int result = sys.ring_init(entries, &ring_, 0);
  ready_ = result == 0;
  return result;
}

int Ring::register_buffers(const std::vector<iovec> &buffers, Sys &sys) noexcept {
  return sys.register_buffers(&ring_, buffers.data(), static_cast<unsigned>(buffers.size()));
}

io_uring_sqe *Ring::sqe() noexcept {
  io_uring_sqe *entry = io_uring_get_sqe(&ring_);
  if (entry == nullptr && io_uring_submit(&ring_) >= 0) entry = io_uring_get_sqe(&ring_);
  return entry;
}

int Ring::submit() noexcept { return io_uring_submit(&ring_); }

int Ring::wait(io_uring_cqe **cqe) noexcept {
  int result;
  do {
    result = io_uring_wait_cqe(&ring_, cqe);
  } while (result == -EINTR);
  return result;
}

int Ring::wait_for(io_uring_cqe **cqe, unsigned timeout_ms) noexcept {
  if (timeout_ms == 0) return wait(cqe);
  __kernel_timespec timeout{};
  timeout.tv_sec = timeout_ms / 1000;
  timeout.tv_nsec = static_cast<long long>(timeout_ms % 1000) * 1000000;
  int result;
  do {
    // With IORING_FEAT_EXT_ARG (Linux 5.11) the timeout rides on
    // io_uring_enter and takes no submission entry.
    result = io_uring_wait_cqe_timeout(&ring_, cqe, &timeout);
  } while (result == -EINTR);
  return result;
}

int Ring::cancel(std::uint64_t user_data) noexcept {
  io_uring_sync_cancel_reg cancel{};
  cancel.addr = user_data;
  cancel.fd = -1;
  cancel.flags = 0;  // match by user_data, the first such request
  cancel.timeout.tv_sec = 0;
  cancel.timeout.tv_nsec = 0;  // do not wait for a running read
  return io_uring_register_sync_cancel(&ring_, &cancel);
}

io_uring_cqe *Ring::peek() noexcept {
  io_uring_cqe *cqe = nullptr;
  return io_uring_peek_cqe(&ring_, &cqe) == 0 ? cqe : nullptr;
}

}  // namespace fastwc::io
