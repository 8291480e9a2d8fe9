// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the io suite: temporary files and pipes with known
// contents, generated inputs, the reference counts (count::ReferenceCounter,
// the oracle), a global-locale guard, a hang guard, and FaultSys, the
// fault-injecting io::Sys.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "count/reference_counter.hpp"
#include "engine/fd_counter.hpp"
#include "fastwc/engine.hpp"
#include "io/sys.hpp"
#include "pipeline/read_settings.hpp"

namespace io_test {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;

inline std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size()};
}

inline std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

/// setlocale(LC_ALL, name) for the life of the object (the engine takes
/// its classes from the global locale).
class GlobalLocale {
 public:
  explicit GlobalLocale(const char *name) { REQUIRE(std::setlocale(LC_ALL, name) != nullptr); }
  ~GlobalLocale() { std::setlocale(LC_ALL, "C"); }
  GlobalLocale(const GlobalLocale &) = delete;
  GlobalLocale &operator=(const GlobalLocale &) = delete;
};

/// The oracle: GNU's loops on the whole input, unselected counts zeroed
/// (bytes is always exact), as the engine reports them.
inline Counts reference_counts(std::string_view input, const CountOptions &options,
                               bool after_error = false) {
  fastwc::count::ReferenceCounter reference(options);
  reference.update(as_bytes(input));
  Counts c = after_error ? reference.finish_after_error() : reference.finish();
  const Selection &s = options.selection;
  if (!s.lines) c.lines = 0;
  if (!s.words) c.words = 0;
  if (!s.chars) c.chars = 0;
  if (!s.max_line_length) c.max_line_length = 0;
  if (s.chars && options.encoding == Encoding::single_byte) c.chars = c.bytes;
  return c;
}

/// A file with the given contents, removed with the object; fd() is open
/// read-only at offset 0.
class TempFile {
 public:
  explicit TempFile(std::string_view contents) {
    const char *dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/fastwc-io-XXXXXX";
    const int fd = mkstemp(path.data());
    REQUIRE(fd >= 0);
    std::size_t done = 0;
    while (done < contents.size()) {
      const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    path_ = path;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd_ >= 0);
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  int fd() const noexcept { return fd_; }
  void rewind() const { REQUIRE(::lseek(fd_, 0, SEEK_SET) == 0); }

 private:
  std::string path_;
  int fd_ = -1;
};

/// A pipe fed by a thread that writes `contents` in random pieces, then
/// closes its end.
class FedPipe {
 public:
  explicit FedPipe(std::string contents, unsigned seed = 1) : contents_(std::move(contents)) {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    read_fd_ = fds[0];
    writer_ = std::thread([this, fd = fds[1], seed] {
      std::mt19937 rng(seed);
      std::size_t done = 0;
      while (done < contents_.size()) {
        const std::size_t piece =
            std::min<std::size_t>(contents_.size() - done, 1 + rng() % 100000);
        const ssize_t n = ::write(fd, contents_.data() + done, piece);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(fd);
    });
  }
  ~FedPipe() {
    // A writer still blocked (the test stopped reading) gets EPIPE: io_main
    // ignores SIGPIPE.
    ::close(read_fd_);
    writer_.join();
  }
  FedPipe(const FedPipe &) = delete;
  FedPipe &operator=(const FedPipe &) = delete;
  int fd() const noexcept { return read_fd_; }

 private:
  std::string contents_;
  int read_fd_ = -1;
  std::thread writer_;
};

/// Runs f() on another thread; if it has not returned after `limit`, the
/// whole test program fails at once (a hung pipeline cannot be cancelled).
template <class F>
auto within(std::chrono::seconds limit, F &&f) -> decltype(f()) {
  std::packaged_task<decltype(f())()> task(std::forward<F>(f));
  auto result = task.get_future();
  std::thread thread(std::move(task));
  if (result.wait_for(limit) == std::future_status::timeout) {
    std::fprintf(stderr, "io_tests: a pipeline did not finish within %lld s: hung\n",
                 static_cast<long long>(limit.count()));
    std::_Exit(3);
  }
  thread.join();
  return result.get();
}

inline constexpr std::chrono::seconds hang_limit{120};

/// Options that send every input through the pipeline (no serial loop).
inline fastwc::pipeline::ReadSettings pipelined(
    fastwc::IoBackend backend, unsigned jobs, std::size_t read_size,
    fastwc::BufferRegistration registration = fastwc::BufferRegistration::automatic) {
  fastwc::pipeline::ReadSettings options;
  options.jobs = jobs;
  options.backend = backend;
  options.read_size = read_size;
  options.registration = registration;
  options.serial_threshold = 0;
  return options;
}

/// count_fd through `sys`, under the hang guard.
inline fastwc::CountResult count(int fd, const CountOptions &options,
                                 const fastwc::pipeline::ReadSettings &read, fastwc::io::Sys &sys,
                                 fastwc::ReadStats &stats) {
  return within(hang_limit,
                [&] { return fastwc::engine::count_fd_with(fd, options, read, sys, &stats); });
}

/// count_fd on the real system calls, under the hang guard.
inline fastwc::CountResult count(int fd, const CountOptions &options,
                                 const fastwc::pipeline::ReadSettings &read,
                                 fastwc::ReadStats &stats) {
  return count(fd, options, read, fastwc::io::Sys::real(), stats);
}

/// The descriptor's file offset.
inline off_t offset_of(int fd) { return ::lseek(fd, 0, SEEK_CUR); }

/// Every count, UTF-8, GNU 9.5's word rule: every kernel path at once.
inline CountOptions utf8_all() {
  CountOptions options;
  options.selection = Selection::all();
  options.encoding = Encoding::utf8;
  options.word_rule = WordRule::non_space_constituents;
  return options;
}

/// Generated inputs. Multibyte characters, truncated sequences and invalid
/// bytes land on every alignment, so that buffer boundaries cut them.
inline std::string ascii_text(std::size_t size, unsigned seed) {
  static const std::string_view pool[] = {"word ", "lorem ", "ipsum\n", "a", "  ",
                                          "\n",    "x\ty ",  "\r\n",    "\f"};
  std::mt19937 rng(seed);
  std::string out;
  while (out.size() < size) out += pool[rng() % std::size(pool)];
  return out;
}

inline std::string utf8_text(std::size_t size, unsigned seed) {
  using namespace std::string_view_literals;
  static const std::string_view pool[] = {"word ", "中文",   "😀",      "\t",          "\n",
                                          "é",     "\u00a0", "\u3000", "\u2028",      "e\u0301",
                                          "a",     " ",      "\u200b", "\U0001F600x", "Ω "};
  std::mt19937 rng(seed);
  std::string out;
  while (out.size() < size) out += pool[rng() % std::size(pool)];
  return out;
}

inline std::string invalid_text(std::size_t size, unsigned seed) {
  using namespace std::string_view_literals;
  static const std::string_view pool[] = {"\377",
                                          "\344\270",
                                          "\300\200",
                                          "\355\240\200",
                                          "ab ",
                                          "\370\210\200\200\200",
                                          "\200\200\200",
                                          "\0"sv,
                                          "\x7f",
                                          "中\n",
                                          "\364\220\200\200",
                                          "\xe4"};
  std::mt19937 rng(seed);
  std::string out;
  while (out.size() < size) out += pool[rng() % std::size(pool)];
  return out;
}

inline std::string long_lines_text(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::string out;
  while (out.size() < size) {
    const std::size_t line = 1 + rng() % 400000;
    for (std::size_t i = 0; i < line && out.size() < size; ++i)
      out += (i % 7 == 6) ? ' ' : static_cast<char>('a' + i % 26);
    out += '\n';
  }
  return out;
}

inline std::string tabs_text(std::size_t size, unsigned seed) {
  static const std::string_view pool[] = {"\t", "ab\t", "\t\tx", "1234567\t",
                                          "\n", " ",    "中\t",  "\r"};
  std::mt19937 rng(seed);
  std::string out;
  while (out.size() < size) out += pool[rng() % std::size(pool)];
  return out;
}

/// An io::Sys that misbehaves on purpose. Thread-safe: the pread backend
/// calls it from every counting thread at once (the others from the reader
/// thread, or the caller's serial loop, only).
class FaultSys final : public fastwc::io::Sys {
 public:
  static constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

  /// Reads and ring completions give at most a random 1..max_piece bytes.
  std::size_t max_piece = 0;
  /// Every n-th read() call / ring completion fails with EINTR (0: never).
  unsigned eintr_every = 0;
  /// Every n-th ring completion fails with EAGAIN; read() too when
  /// eagain_in_read.
  unsigned eagain_every = 0;
  bool eagain_in_read = false;
  /// Reads reaching this file offset stop there; reads at it fail with EIO.
  std::uint64_t eio_at = never;
  /// Reads starting exactly at this offset find EOF (return 0), as after a
  /// truncation; reads elsewhere, later ones included, go on as usual (the
  /// file grew back). The input must end there.
  std::uint64_t eof_at = never;
  /// io_uring_queue_init / io_uring_register_buffers refused with this errno.
  int ring_init_errno = 0;
  int register_errno = 0;

  unsigned calls = 0;
  unsigned injected = 0;

  explicit FaultSys(unsigned seed = 7) : rng_(seed) {}

  ssize_t read(int fd, void *buffer, std::size_t size) noexcept override {
    const std::lock_guard lock(mutex_);
    // The offset matters only to eof_at and eio_at (and a pipe has none).
    const off_t at = eof_at != never || eio_at != never ? ::lseek(fd, 0, SEEK_CUR) : -1;
    if (const auto fault = read_fault(at, size)) return *fault;
    return Sys::real().read(fd, buffer, size);
  }

  /// The faults of read(), at the given offset (the ring reader's redone
  /// reads, and the pread backend).
  ssize_t pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept override {
    const std::lock_guard lock(mutex_);
    if (const auto fault = read_fault(offset, size)) return *fault;
    return Sys::real().pread(fd, buffer, size, offset);
  }

  int ring_init(unsigned entries, io_uring *ring, unsigned flags) noexcept override {
    if (ring_init_errno != 0) return -ring_init_errno;
    return Sys::real().ring_init(entries, ring, flags);
  }

  int register_buffers(io_uring *ring, const iovec *buffers, unsigned count) noexcept override {
    if (register_errno != 0) return -register_errno;
    return Sys::real().register_buffers(ring, buffers, count);
  }

  int ring_result(std::uint64_t offset, std::size_t requested, int result) noexcept override {
    const std::lock_guard lock(mutex_);
    ++calls;
    if (eintr_every != 0 && calls % eintr_every == 0) return inject(-EINTR);
    if (eagain_every != 0 && calls % eagain_every == 0) return inject(-EAGAIN);
    if (eof_at != never && offset == eof_at && result >= 0) return 0;
    if (eio_at != never && result >= 0) {
      if (offset >= eio_at) return inject(-EIO);
      result = static_cast<int>(
          std::min<std::uint64_t>(static_cast<std::uint64_t>(result), eio_at - offset));
    }
    if (max_piece != 0 && result > 1) {
      result = static_cast<int>(
          std::min<std::size_t>(static_cast<std::size_t>(result), 1 + rng_() % max_piece));
    }
    (void)requested;
    return result;
  }

 private:
  // Guards the counters and rng_ (the plain fields are set before a run).
  std::mutex mutex_;

  /// What a read of `size` bytes at offset `at` (-1: unknown) gives
  /// instead of the real call, or nullopt with `size` perhaps shortened.
  /// Called with mutex_ held.
  std::optional<ssize_t> read_fault(off_t at, std::size_t &size) noexcept {
    ++calls;
    if (eintr_every != 0 && calls % eintr_every == 0) return fail(EINTR);
    if (eagain_in_read && eagain_every != 0 && calls % eagain_every == 0) return fail(EAGAIN);
    if (at >= 0) {
      const auto offset = static_cast<std::uint64_t>(at);
      if (eof_at != never && offset == eof_at) return 0;
      if (eio_at != never) {
        if (offset >= eio_at) return fail(EIO);
        size = std::min<std::uint64_t>(size, eio_at - offset);
      }
    }
    if (max_piece != 0 && size > 1) size = std::min(size, 1 + rng_() % max_piece);
    return std::nullopt;
  }
  ssize_t fail(int error) noexcept {
    ++injected;
    errno = error;
    return -1;
  }
  int inject(int result) noexcept {
    ++injected;
    return result;
  }
  std::mt19937 rng_;
};

/// True when this kernel lets us set up an io_uring.
bool uring_available() noexcept;

/// The backends to run a fault under: read(2), pread(2) on every counting
/// thread, and io_uring where allowed.
inline const std::vector<fastwc::IoBackend> &fault_backends() {
  static const std::vector<fastwc::IoBackend> all = [] {
    std::vector<fastwc::IoBackend> v{fastwc::IoBackend::read, fastwc::IoBackend::pread};
    if (uring_available()) v.push_back(fastwc::IoBackend::uring);
    return v;
  }();
  return all;
}

}  // namespace io_test
