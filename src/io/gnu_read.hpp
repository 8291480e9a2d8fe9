// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's read semantics, in the one place every reading path takes them
// from: a read interrupted by a signal (EINTR) is retried, as coreutils'
// safe_read does; any other failure (EAGAIN included, which safe_read does
// not retry: a non-blocking empty pipe is an error for GNU wc too) ends the
// input, and what was read before it still counts. A buffer that must be
// filled (a chunk, a pool buffer) has its short reads resubmitted for the
// rest; where the reads end changes no count.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "io/sys.hpp"

namespace fastwc::io {

/// `read()` (an ssize_t, errno on failure) again while it fails with EINTR;
/// each retry is counted in `*retries` when given.
template <class Read>
ssize_t retry_interrupted(Read &&read, std::uint64_t *retries = nullptr) {
  for (;;) {
    const ssize_t n = read();
    if (n >= 0 || errno != EINTR) return n;
    if (retries != nullptr) ++*retries;
  }
}

/// One read(2) as GNU's safe_read makes it: bytes read (> 0), 0 at end of
/// input, or -1 with errno.
inline ssize_t safe_read(Sys &sys, int fd, void *buffer, std::size_t size,
                         std::uint64_t *retries = nullptr) noexcept {
  return retry_interrupted([&] { return sys.read(fd, buffer, size); }, retries);
}

/// How filling a buffer ended.
struct Fill {
  std::size_t got = 0;  ///< bytes in the buffer, from its start
  bool eof = false;     ///< a read returned 0 before the buffer was full
  int error = 0;        ///< errno of the read that failed, or 0
};

/// Fills a buffer of `size` bytes that already holds `got`: `read(done,
/// left)` reads at most `left` bytes to buffer position `done` (read(2) or
/// pread(2) at the matching file offset). Stops when the buffer is full, at
/// end of input or at the first error; EINTR is retried (counted in
/// `*retries`).
template <class Read>
Fill fill(std::size_t got, std::size_t size, Read &&read, std::uint64_t *retries = nullptr) {
  Fill result;
  result.got = got;
  while (result.got < size) {
    const ssize_t n =
        retry_interrupted([&] { return read(result.got, size - result.got); }, retries);
    if (n > 0) {
      result.got += static_cast<std::size_t>(n);
    } else {
      result.eof = n == 0;
      result.error = n < 0 ? errno : 0;
      break;
    }
  }
  return result;
}

}  // namespace fastwc::io
