// SPDX-License-Identifier: GPL-3.0-or-later
// Faults at the io::Sys seam that test_faults.cpp leaves out:
//  - a read or ring completion that stalls for a while: waited for, with
//    every thread asleep (no spinning), and the counts unchanged;
//  - a ring completion that never comes, or comes back -ECANCELED: the read
//    is redone with pread(2) after ReadTuning::ring_check_ms, the counts
//    unchanged, no hang;
//  - a file truncated, or grown, while it is being read: no crash, no hang,
//    counts that are exactly those of the bytes read (a prefix of the file
//    for a truncated one, the whole grown file for a grown one);
//  - EIO on a pipe before, at and after the point where the serial loop
//    hands the rest to the pipeline: GNU's partial count and EIO;
//  - EIO under GNU 9.5+'s split rescan (the GNU read loop):
//    exactly the reference loop's partial count;
//  - a pipeline that cannot get memory for its pool: the serial loop
//    counts instead, for a file and for a pipe.
// Every run is under within()'s hang guard.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "engine/fd_counter.hpp"
#include "engine/gnu_read_loop.hpp"
#include "io_test_support.hpp"

namespace {

using fastwc::IoBackend;
using fastwc::ReadStats;
using fastwc::engine::count_fd_with;
using fastwc::pipeline::ReadSettings;
using namespace io_test;

/// CPU time (user + system) of the whole process so far, in seconds; NaN
/// if getrusage fails. No assertion: it runs inside a Sys hook, on a
/// pipeline thread, where a throwing REQUIRE would end the process.
double process_cpu_seconds_or_nan() noexcept {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return std::numeric_limits<double>::quiet_NaN();
  auto seconds = [](const timeval &t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// A Sys that runs a hook once, at its n-th read, pread or ring completion
/// (on the reader thread, on a pread thread, or in the caller's serial
/// loop), and is otherwise real.
class HookSys final : public fastwc::io::Sys {
 public:
  template <class F>
  HookSys(unsigned at_call, F &&hook) : at_call_(at_call), hook_(std::forward<F>(hook)) {}

  ssize_t read(int fd, void *buffer, std::size_t size) noexcept override {
    tick();
    return Sys::real().read(fd, buffer, size);
  }
  ssize_t pread(int fd, void *buffer, std::size_t size, off_t offset) noexcept override {
    tick();
    return Sys::real().pread(fd, buffer, size, offset);
  }
  int ring_result(std::uint64_t, std::size_t, int result) noexcept override {
    tick();
    return result;
  }
  bool fired() const noexcept { return fired_; }

 private:
  void tick() noexcept {
    // Other pread threads go on reading meanwhile, as they would while one
    // of them is stalled in the kernel.
    if (calls_.fetch_add(1) + 1 == at_call_) {
      hook_();
      fired_ = true;
    }
  }
  unsigned at_call_;
  std::atomic<unsigned> calls_{0};
  std::atomic<bool> fired_{false};
  std::function<void()> hook_;
};

/// A Sys that loses ring completions (the reader never sees them, as if the
/// kernel had dropped them), or turns them into -ECANCELED: every one from
/// the `first`-th on, or only that one.
class LostCompletionSys final : public fastwc::io::Sys {
 public:
  LostCompletionSys(unsigned first, bool all_after, int result)
      : first_(first), all_after_(all_after), result_(result) {}
  int ring_result(std::uint64_t, std::size_t, int result) noexcept override {
    ++calls_;
    if (calls_ == first_ || (all_after_ && calls_ > first_)) {
      ++injected;
      return result_;
    }
    return result;
  }
  unsigned injected = 0;

 private:
  unsigned first_;
  bool all_after_;
  int result_;
  unsigned calls_ = 0;
};

/// A Sys whose read(2) delivers at most `limit` bytes in all, then fails
/// with EIO: an I/O error after N bytes on a descriptor without offsets
/// (FaultSys::eio_at needs lseek, which a pipe refuses).
class EioAfterBytesSys final : public fastwc::io::Sys {
 public:
  explicit EioAfterBytesSys(std::uint64_t limit) : limit_(limit) {}
  ssize_t read(int fd, void *buffer, std::size_t size) noexcept override {
    if (delivered_ >= limit_) {
      errno = EIO;
      return -1;
    }
    size = static_cast<std::size_t>(std::min<std::uint64_t>(size, limit_ - delivered_));
    const ssize_t n = Sys::real().read(fd, buffer, size);
    if (n > 0) delivered_ += static_cast<std::uint64_t>(n);
    return n;
  }

 private:
  std::uint64_t limit_;
  std::uint64_t delivered_ = 0;
};

/// A second descriptor on the same open file, for writing (TempFile's is
/// read-only): through /proc/self/fd, as a tool in another process would.
int writable_twin(int fd, int flags) {
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const int twin = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | flags);
  REQUIRE(twin >= 0);
  return twin;
}

}  // namespace

TEST_CASE("faults: a stalled read or completion is waited for, asleep, and changes nothing") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(3 * 1024 * 1024, 91);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents, options);
  constexpr auto step = std::chrono::milliseconds(100);
  constexpr int steps = 20;
  for (IoBackend backend : fault_backends()) {
    for (unsigned jobs : {1u, 3u}) {
      const std::string backend_name = fastwc::io_backend_name(backend);
      CAPTURE(backend_name);
      CAPTURE(jobs);
      // 96 chunks: more than the pread threads' merge window, so the threads
      // that go on while one is stalled must stop and sleep at its edge.
      const ReadSettings read = pipelined(backend, jobs, 32 * 1024);
      // The fifth read (or completion) takes 2 s to come back: a disk that
      // stalls, a completion that comes late. Meanwhile the counting threads
      // must sleep (futex, oneTBB's idle workers), not spin. The process's
      // CPU time is sampled every 100 ms of the stall: the other threads may
      // first finish what they hold (a merge window's chunks), so the check
      // is on the quietest 300 ms, not on the whole run's CPU time, which a
      // sanitizer build on a busy 2-vCPU machine saw move by a second from
      // one run to the next.
      std::vector<double> cpu_samples;
      cpu_samples.reserve(steps + 1);
      HookSys slow(5, [&cpu_samples, step] {
        cpu_samples.push_back(process_cpu_seconds_or_nan());
        for (int i = 0; i < steps; ++i) {
          std::this_thread::sleep_for(step);
          cpu_samples.push_back(process_cpu_seconds_or_nan());
        }
      });
      file.rewind();
      ReadStats stats;
      const auto wall_start = std::chrono::steady_clock::now();
      const auto result = count(file.fd(), options, read, slow, stats);
      const auto wall = std::chrono::steady_clock::now() - wall_start;
      CHECK(slow.fired());
      CHECK(result.error == 0);
      CHECK(show(result.counts) == show(expected));
      CHECK(wall >= steps * step);
      REQUIRE(cpu_samples.size() == steps + 1);
      constexpr std::size_t span = 3;
      double quietest = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i + span < cpu_samples.size(); ++i)
        quietest = std::min(quietest, cpu_samples[i + span] - cpu_samples[i]);
      // A thread spinning through the stall burns about 0.3 s of CPU in
      // 300 ms, and still 0.15 s when it gets only half a CPU; threads
      // asleep burn next to nothing.
      MESSAGE("CPU seconds during the stall " << cpu_samples.back() - cpu_samples.front()
                                              << ", in its quietest 300 ms " << quietest);
      CHECK(quietest < 0.1);
    }
  }
}

TEST_CASE(
    "faults: a ring completion that never comes is redone with pread, not waited for forever") {
  if (!uring_available()) {
    MESSAGE("io_uring is not available here: nothing to lose a completion of");
    return;
  }
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(1024 * 1024 + 4321, 95) + invalid_text(300 * 1024, 96);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents, options);
  struct Fault {
    const char *name;
    unsigned first;
    bool all_after;
    int result;
  };
  const Fault faults[] = {
      {"the third completion lost", 3, false, fastwc::io::Sys::lost_completion},
      {"every completion lost", 1, true, fastwc::io::Sys::lost_completion},
      {"the second completion -ECANCELED", 2, false, -ECANCELED},
      {"every completion -ECANCELED", 1, true, -ECANCELED},
  };
  for (const Fault &fault : faults) {
    for (auto registration :
         {fastwc::BufferRegistration::always, fastwc::BufferRegistration::never}) {
      for (unsigned jobs : {1u, 3u}) {
        CAPTURE(fault.name);
        CAPTURE(jobs);
        CAPTURE(static_cast<int>(registration));
        ReadSettings read = pipelined(IoBackend::uring, jobs, 128 * 1024);
        read.registration = registration;
        read.ring_check_ms = 50;
        LostCompletionSys sys(fault.first, fault.all_after, fault.result);
        file.rewind();
        ReadStats stats;
        const auto result = count(file.fd(), options, read, sys, stats);
        CHECK(sys.injected >= 1);
        CHECK(result.error == 0);
        CHECK(stats.bytes == contents.size());
        CHECK(show(result.counts) == show(expected));
        CHECK(stats.path == ReadStats::Path::uring);
        CHECK(stats.redone_reads >= 1);
        // The offset is left after the last byte, as a read(2) loop leaves it.
        CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(contents.size()));
      }
    }
  }
}

TEST_CASE("faults: a file truncated while it is read gives the counts of a prefix, and ends") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(2 * 1024 * 1024, 92) + invalid_text(512 * 1024, 93);
  const CountOptions options = utf8_all();
  for (IoBackend backend : fault_backends()) {
    for (unsigned jobs : {1u, 2u}) {
      for (std::uint64_t new_size :
           {std::uint64_t{0}, std::uint64_t{300000}, std::uint64_t{1500001}}) {
        const std::string backend_name = fastwc::io_backend_name(backend);
        CAPTURE(backend_name);
        CAPTURE(jobs);
        CAPTURE(new_size);
        TempFile file(contents);
        const int twin = writable_twin(file.fd(), 0);
        HookSys sys(
            3, [twin, new_size] { REQUIRE(::ftruncate(twin, static_cast<off_t>(new_size)) == 0); });
        ReadStats stats;
        const auto result =
            count(file.fd(), options, pipelined(backend, jobs, 32 * 1024), sys, stats);
        ::close(twin);
        CHECK(sys.fired());
        CHECK(result.error == 0);
        // Reads that completed before the truncation keep their bytes; the
        // others see the new end. Whatever was read is a prefix of the
        // original contents, at least the new size long.
        CHECK(stats.bytes >= new_size);
        CHECK(stats.bytes <= contents.size());
        CHECK(show(result.counts) ==
              show(reference_counts(std::string_view(contents).substr(0, stats.bytes), options)));
        CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(stats.bytes));
      }
    }
  }
}

TEST_CASE("faults: a file that grows while it is read is counted to its new end") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(2 * 1024 * 1024, 94);
  const std::string appended = invalid_text(700 * 1024, 95) + "tail without newline";
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents + appended, options);
  for (IoBackend backend : fault_backends()) {
    for (unsigned jobs : {1u, 3u}) {
      for (bool serial : {false, true}) {
        const std::string backend_name = fastwc::io_backend_name(backend);
        CAPTURE(backend_name);
        CAPTURE(jobs);
        CAPTURE(serial);
        TempFile file(contents);
        const int twin = writable_twin(file.fd(), O_APPEND);
        // At the first read, long before any read reaches the old end: the
        // pipeline must read past the size fstat gave (expected_end).
        HookSys sys(1, [twin, &appended] {
          REQUIRE(::write(twin, appended.data(), appended.size()) ==
                  static_cast<ssize_t>(appended.size()));
        });
        ReadSettings read = pipelined(backend, jobs, 64 * 1024);
        if (serial) read.serial_threshold = read.pread_threshold = std::uint64_t{1} << 40;
        ReadStats stats;
        const auto result = count(file.fd(), options, read, sys, stats);
        ::close(twin);
        CHECK(sys.fired());
        CHECK(result.error == 0);
        CHECK(stats.bytes == contents.size() + appended.size());
        CHECK(show(result.counts) == show(expected));
      }
    }
  }
}

TEST_CASE("faults: EIO on a pipe before, at and after the serial loop hands over to the pipeline") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(3 * 1024 * 1024, 96);
  const CountOptions options = utf8_all();
  constexpr std::uint64_t threshold = 1024 * 1024;
  for (std::uint64_t limit : {std::uint64_t{0}, std::uint64_t{100000}, threshold, threshold + 1,
                              std::uint64_t{2500001}}) {
    for (unsigned jobs : {1u, 2u}) {
      CAPTURE(limit);
      CAPTURE(jobs);
      FedPipe pipe(contents, static_cast<unsigned>(limit % 1000 + jobs));
      EioAfterBytesSys sys(limit);
      ReadSettings read;
      read.jobs = jobs;
      read.read_size = 16 * 1024;
      read.serial_threshold = threshold;
      ReadStats stats;
      const auto result = count(pipe.fd(), options, read, sys, stats);
      CHECK(result.error == EIO);
      CHECK(stats.bytes == limit);
      CHECK(show(result.counts) ==
            show(reference_counts(std::string_view(contents).substr(0, limit), options, true)));
      // Past the threshold the pipeline took over (a pipe: read(2)).
      CHECK((stats.path == ReadStats::Path::serial) == (limit < threshold));
    }
  }
}

TEST_CASE("faults: EIO in GNU 9.5+'s read loop gives the reference loop's partial count") {
  GlobalLocale locale("C.UTF-8");
  CountOptions options = utf8_all();
  options.gnu_split_rescan_read_size = 16;
  // 15 word bytes, then U+202F (E2 80 AF) cut by the first 16-byte read,
  // completed by the second, which also ends inside the next U+202F; the
  // third read fails. GNU re-reads AF as an encoding error, which starts
  // a word, and never sees the cut E2: 2 words.
  std::string contents(15, 'w');
  for (int i = 0; i < 40; ++i) contents += "\xe2\x80\xaf";
  contents += utf8_text(20000, 97);
  std::vector<std::uint64_t> failures{19, 0, 1, 16, 17, 18, 100, 4097};
  for (std::uint64_t at = 23; at < 20000; at += 977) failures.push_back(at);
  for (const std::uint64_t eio_at : failures) {
    CAPTURE(eio_at);
    // The oracle: the reference GNU loop over the same reads.
    std::size_t offset = 0;
    const auto expected = fastwc::engine::count_with_gnu_reads_reference(
        options, [&](std::byte *buffer, std::size_t size) -> ssize_t {
          if (offset >= eio_at) {
            errno = EIO;
            return -1;
          }
          const std::size_t n = std::min<std::size_t>(size, eio_at - offset);
          std::memcpy(buffer, contents.data() + offset, n);
          offset += n;
          return static_cast<ssize_t>(n);
        });
    REQUIRE(expected.error == EIO);
    if (eio_at == 19) REQUIRE(expected.counts.words == 2);
    TempFile file(contents);
    FaultSys sys;
    sys.eio_at = eio_at;
    ReadStats stats;
    const auto result = count(file.fd(), options, ReadSettings{}, sys, stats);
    CHECK(result.error == EIO);
    CHECK(show(result.counts) == show(expected.counts));
  }
}

TEST_CASE("faults: a pipeline that cannot get its memory counts serially instead") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(1024 * 1024, 98);
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents, options);
  // A million buffers of 1 GiB: more than the address space, so the pool's
  // mmap fails whatever the overcommit policy.
  ReadSettings huge;
  huge.jobs = 2;
  huge.read_size = std::size_t{1} << 30;
  huge.buffers = std::size_t{1} << 20;
  huge.max_pool_bytes = ~std::size_t{0};
  huge.serial_threshold = 0;
  for (IoBackend backend : fault_backends()) {
    const std::string backend_name = fastwc::io_backend_name(backend);
    CAPTURE(backend_name);
    huge.backend = backend;
    // The pread backend maps a buffer per thread: a million threads.
    huge.jobs = backend == IoBackend::pread ? 1u << 20 : 2;
    TempFile file(contents);
    ReadStats stats;
    const auto result = count(file.fd(), options, huge, fastwc::io::Sys::real(), stats);
    CHECK(result.error == 0);
    CHECK(show(result.counts) == show(expected));
    CHECK(stats.path == ReadStats::Path::serial);
    CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(contents.size()));
  }
  // A pipe that passes the threshold: the pipeline fails to start after the
  // serial prefix, and the serial loop goes on from there.
  huge.serial_threshold = 64 * 1024;
  FedPipe pipe(contents, 5);
  ReadStats stats;
  const auto result = count(pipe.fd(), options, huge, fastwc::io::Sys::real(), stats);
  CHECK(result.error == 0);
  CHECK(show(result.counts) == show(expected));
  CHECK(stats.path == ReadStats::Path::serial);
}
