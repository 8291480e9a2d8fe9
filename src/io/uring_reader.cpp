// SPDX-License-Identifier: GPL-3.0-or-later
// UringReader: positioned reads kept in flight on one ring, completions put
// back into file order, and the fallbacks.
//
// End of input: the stream ends at the first chunk, in file order, whose
// read reached EOF (a read returning 0) or failed; it keeps the bytes read
// into it before that. Reads already issued past that point are reaped and
// their buffers dropped, exactly what a read(2) loop that stopped there
// would have seen. A short read is not EOF: the rest is asked for again,
// and only a read returning 0 ends the input.
//
// A completion that does not come: every check_ms without one,
// the reader asks the kernel to cancel each read still out, without
// waiting (IORING_REGISTER_SYNC_CANCEL). A read the kernel is running is
// left to finish, as a blocked read(2) would be; one it had not started
// completes with -ECANCELED; one it no longer holds (a completion lost, or
// posted late) is given one more period and then presumed lost. Those two
// are redone here with pread(2), so the input always advances. Each read
// carries a generation in its user_data, so a completion that turns up
// after its read was redone is recognised and dropped.
#include "io/uring_reader.hpp"

#include <sched.h>

#include <cerrno>
#include <vector>

#include "io/gnu_read.hpp"
#include "io/read_reader.hpp"
#include "io/ring.hpp"
#include "support/clock.hpp"

namespace fastwc::io {

namespace {

/// Buffer indices in file order: a ring as large as the pool.
class OrderQueue {
 public:
  explicit OrderQueue(std::size_t capacity) : slots_(capacity) {}
  bool empty() const noexcept { return size_ == 0; }
  std::uint32_t front() const noexcept { return slots_[head_]; }
  void push(std::uint32_t buffer) noexcept {
    slots_[(head_ + size_) % slots_.size()] = buffer;
    ++size_;
  }
  void pop() noexcept {
    head_ = (head_ + 1) % slots_.size();
    --size_;
  }

 private:
  std::vector<std::uint32_t> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

/// user_data of a read: the buffer index and the read's generation.
std::uint64_t tag(std::uint32_t buffer, std::uint32_t generation) noexcept {
  return (std::uint64_t{generation} << 32) | buffer;
}

bool retry_submit(int result) noexcept {
  return result == -EINTR || result == -EAGAIN || result == -EBUSY;
}

}  // namespace

/// The state of the read into one buffer.
struct UringReader::Request {
  std::uint64_t offset = 0;  ///< file offset of the buffer's first byte
  std::uint32_t got = 0;     ///< bytes in the buffer so far
  bool done = false;
  bool eof = false;
  int error = 0;
  std::uint32_t generation = 0;  ///< of the read last submitted
  /// Checks in a row that found the kernel holding no such read.
  unsigned unknown_to_kernel = 0;
};

void UringReader::redo_with_pread(Request &request, std::byte *buffer) noexcept {
  ++report_.redone_reads;
  const Fill filled = fill(
      request.got, pool_.size(),
      [&](std::size_t done, std::size_t left) {
        return sys_.pread(fd_, buffer + done, left, static_cast<off_t>(request.offset + done));
      },
      &report_.resubmits);
  request.got = static_cast<std::uint32_t>(filled.got);
  request.eof = filled.eof;
  request.error = filled.error;
  request.done = true;
}

ReadEnd UringReader::run(ReaderPort &port) noexcept {
  Ring ring;
  const std::size_t depth = settings_.depth == 0 ? 1 : settings_.depth;
  if (const int result = ring.init(static_cast<unsigned>(depth), sys_); result < 0) {
    // No io_uring here (ENOSYS), or not allowed (EPERM under seccomp or
    // kernel.io_uring_disabled), or no memory for the ring: read(2) gives
    // the same bytes. The file offset is still where the caller found it.
    ReadReader fallback(fd_, pool_, sys_);
    const ReadEnd end = fallback.run(port);
    report_ = fallback.report();
    report_.uring_error = -result;
    return end;
  }
  report_.path = ReadStats::Path::uring;
  report_.async_reads = settings_.async_reads;
  if (settings_.register_buffers) {
    // Refused when pinning the pool would pass RLIMIT_MEMLOCK (ENOMEM, or
    // EPERM): the reads then go to the same buffers unregistered.
    const int result = ring.register_buffers(pool_.iovecs(), sys_);
    report_.registered = result == 0;
    report_.register_error = result < 0 ? -result : 0;
  }

  report_.ready_at_ns = support::now_ns();

  const std::size_t size = pool_.size();
  std::vector<Request> requests(pool_.count());
  OrderQueue order(pool_.count());
  std::size_t in_kernel = 0;    // reads prepared and not yet completed
  std::size_t unsubmitted = 0;  // of those, not yet taken by the kernel
  std::uint64_t next_offset = static_cast<std::uint64_t>(offset_);
  bool stop = false;
  ReadEnd end;
  // A submit refused for lack of resources is retried; with nothing in
  // flight to wait for, a bounded number of times.
  constexpr unsigned max_idle_retries = 1000;
  unsigned idle_retries = 0;
  std::uint32_t generation = 0;

  auto queue_read = [&](std::uint32_t buffer) noexcept {
    Request &request = requests[buffer];
    io_uring_sqe *sqe = ring.sqe();
    if (sqe == nullptr) {
      // Cannot happen with at most `depth` reads on a ring of `depth`
      // entries; should it, the input ends with an error, not a hang.
      request.done = true;
      request.error = EBUSY;
      return false;
    }
    std::byte *target = pool_.data(buffer) + request.got;
    const unsigned length = static_cast<unsigned>(size - request.got);
    const std::uint64_t at = request.offset + request.got;
    if (report_.registered) {
      io_uring_prep_read_fixed(sqe, fd_, target, length, at, static_cast<int>(buffer));
    } else {
      io_uring_prep_read(sqe, fd_, target, length, at);
    }
    request.generation = ++generation;
    request.unknown_to_kernel = 0;
    io_uring_sqe_set_data64(sqe, tag(buffer, request.generation));
    if (settings_.async_reads) sqe->flags |= IOSQE_ASYNC;
    ++unsubmitted;
    return true;
  };

  for (;;) {
    // Keep `depth` reads in flight. Past the size fstat reported, one read
    // at a time: it finds EOF, or the data of a file that has grown.
    while (!stop && in_kernel < depth) {
      if (next_offset >= expected_end_ && in_kernel > 0) break;
      std::uint32_t buffer;
      if (!port.try_acquire(buffer)) {
        if (in_kernel > 0) break;  // a completion will come first
        buffer = port.acquire(report_.idle_ns);
      }
      requests[buffer] = Request{next_offset, 0, false, false, 0, 0, 0};
      order.push(buffer);
      next_offset += size;
      if (queue_read(buffer)) ++in_kernel;
    }

    const std::uint64_t start = support::now_ns();
    if (unsubmitted > 0) {
      const int submitted = ring.submit();
      if (submitted >= 0) {
        unsubmitted -= static_cast<std::size_t>(submitted);
        idle_retries = 0;
      } else if (!retry_submit(submitted) ||
                 (in_kernel == unsubmitted && ++idle_retries > max_idle_retries)) {
        // The kernel takes no read (and none is pending to make room): end
        // the input with that error once the reads it has are back.
        if (!stop) end.error = -submitted;
        stop = true;
        in_kernel -= unsubmitted;
        unsubmitted = 0;
        for (std::size_t i = 0; i < requests.size(); ++i) {
          if (!requests[i].done)
            requests[i] = Request{0, 0, true, false, 0, requests[i].generation, 0};
        }
      }
    }
    if (in_kernel > unsubmitted) {
      io_uring_cqe *cqe = nullptr;
      const int waited = ring.wait_for(&cqe, settings_.check_ms);
      if (waited == -ETIME && unsubmitted == 0) {
        // check_ms without a completion: ask after every read still out.
        for (std::uint32_t buffer = 0; buffer < requests.size(); ++buffer) {
          Request &request = requests[buffer];
          if (request.done || request.generation == 0) continue;
          const int cancel = ring.cancel(tag(buffer, request.generation));
          if (cancel == 0) continue;  // not started: -ECANCELED comes next
          if (cancel != -ENOENT) {
            request.unknown_to_kernel = 0;  // running (or no sync cancel): wait on
            continue;
          }
          // Not in the kernel. Its completion may be on its way (posted
          // by task work on our next entry): one more period, then lost.
          if (++request.unknown_to_kernel < 2) continue;
          ++request.generation;  // a late completion is then dropped
          --in_kernel;
          if (stop) {
            request.done = true;
          } else {
            redo_with_pread(request, pool_.data(buffer));
          }
        }
      } else if (waited < 0 && waited != -ETIME) {
        // Only EINTR is expected, and Ring::wait_for retries it. Anything
        // else means the ring is unusable: end with that error.
        if (!stop) end.error = -waited;
        stop = true;
        break;
      }
      while (cqe != nullptr) {
        const std::uint64_t user_data = io_uring_cqe_get_data64(cqe);
        const auto buffer = static_cast<std::uint32_t>(user_data);
        Request &request = requests[buffer];
        if (static_cast<std::uint32_t>(user_data >> 32) != request.generation) {
          ring.seen(cqe);  // the completion of a read redone meanwhile
          cqe = ring.peek();
          continue;
        }
        const int result =
            sys_.ring_result(request.offset + request.got, size - request.got, cqe->res);
        ring.seen(cqe);
        if (result == Sys::lost_completion) {
          cqe = ring.peek();  // a fault injected by a test: never seen
          continue;
        }
        if (!request.done) {
          if (result > 0) request.got += static_cast<std::uint32_t>(result);
          if ((result > 0 && request.got < size) || result == -EAGAIN || result == -EINTR) {
            // A short read (the rest may still come) or a retryable error:
            // ask again for what is missing, unless the input has already
            // ended before this buffer.
            ++report_.resubmits;
            if (stop) {
              request.done = true;
              --in_kernel;
            } else if (!queue_read(buffer)) {
              --in_kernel;
            }
          } else if (result == -ECANCELED && !stop) {
            // Cancelled by the check above before it started: read here.
            --in_kernel;
            redo_with_pread(request, pool_.data(buffer));
          } else {
            request.done = true;
            request.eof = result == 0;
            request.error = result < 0 ? -result : 0;
            --in_kernel;
          }
        } else {
          --in_kernel;  // a read the submit failure above gave up on
        }
        cqe = ring.peek();
      }
    } else if (unsubmitted > 0) {
      sched_yield();  // a refused submit with nothing to wait for: retry
    }
    report_.wait_ns += support::now_ns() - start;

    // Hand on the chunks that are complete and next in file order.
    while (!order.empty() && requests[order.front()].done) {
      const std::uint32_t buffer = order.front();
      const Request &request = requests[buffer];
      order.pop();
      if (stop || request.got == 0) {
        port.release(buffer);
      } else {
        port.deliver({end.chunks++, buffer, request.got});
        end.bytes += request.got;
      }
      if (!stop && (request.eof || request.error != 0)) {
        stop = true;
        end.error = request.error;
      }
    }
    if (stop && in_kernel == 0) break;
  }
  // Every read is back; buffers still queued were read past the end.
  while (!order.empty()) {
    port.release(order.front());
    order.pop();
  }
  return end;
}

}  // namespace fastwc::io
