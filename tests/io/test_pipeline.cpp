// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline against the reference engine: every generated input (ASCII,
// UTF-8 with multibyte characters cut by buffer boundaries, invalid bytes,
// long lines, tabs) x read sizes from 4 KiB to 1 MiB (and an odd one that
// moves every boundary) x 1 to 4 counting threads x io_uring with and
// without registered buffers and read(2), in the C and UTF-8 locales; then
// offsets, pipes (serial prefix handed over), /proc files, the small-input
// rule and the offset left behind (GNU 9.5+'s read boundaries:
// test_split_rescan_io.cpp).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "../support/sweep_stride.hpp"
#include "engine/fd_counter.hpp"
#include "io_test_support.hpp"
#include "pipeline/resources.hpp"

namespace {

using fastwc::IoBackend;
using fastwc::ReadStats;
using fastwc::engine::count_fd_with;
using fastwc::pipeline::ReadSettings;
using namespace io_test;

struct Backend {
  const char *name;
  IoBackend backend;
  bool registered;
  bool async = false;
};

constexpr Backend backends[] = {
    {"uring registered", IoBackend::uring, true},
    {"uring unregistered", IoBackend::uring, false},
    {"uring registered async", IoBackend::uring, true, true},
    {"read", IoBackend::read, true},
    {"pread", IoBackend::pread, false},
};

ReadStats::Path path_of(IoBackend backend) {
  switch (backend) {
    case IoBackend::read:
      return ReadStats::Path::read;
    case IoBackend::pread:
      return ReadStats::Path::pread;
    default:
      return ReadStats::Path::uring;
  }
}

struct Input {
  const char *name;
  std::string contents;
};

std::vector<Input> inputs() {
  return {
      {"ascii", ascii_text(700 * 1024, 1)},     {"utf8", utf8_text(700 * 1024, 2)},
      {"invalid", invalid_text(500 * 1024, 3)}, {"long lines", long_lines_text(3 * 1024 * 1024, 4)},
      {"tabs", tabs_text(300 * 1024, 5)},
  };
}

/// The selections that pick each of the engine's plans.
std::vector<std::pair<const char *, CountOptions>> option_sets(Encoding encoding) {
  std::vector<std::pair<const char *, CountOptions>> sets;
  auto add = [&](const char *name, Selection selection, WordRule rule) {
    CountOptions options;
    options.selection = selection;
    options.encoding = encoding;
    options.word_rule = rule;
    sets.emplace_back(name, options);
  };
  add("all 9.1", Selection::all(), WordRule::printable_constituents);
  add("all 9.5", Selection::all(), WordRule::non_space_constituents);
  add("-l", Selection{true, false, false, false, false}, WordRule::printable_constituents);
  if (encoding == Encoding::utf8) {
    add("-w 9.5", Selection{false, true, false, false, false}, WordRule::non_space_constituents);
    add("-m", Selection{false, false, true, false, false}, WordRule::printable_constituents);
    add("-L", Selection{false, false, false, false, true}, WordRule::printable_constituents);
  }
  return sets;
}

ReadSettings pipelined(unsigned jobs, const Backend &backend, std::size_t read_size) {
  ReadSettings options;
  // Half the runs hand every chunk to a oneTBB task, half only a backlog.
  options.worker_backlog = read_size % 2 == 0 ? 1 : 2;
  options.jobs = jobs;
  options.backend = backend.backend;
  options.read_size = read_size;
  options.registration =
      backend.registered ? fastwc::BufferRegistration::always : fastwc::BufferRegistration::never;
  options.serial_threshold = 0;  // pipeline whatever the size
  options.async_reads = backend.async;
  return options;
}

}  // namespace

TEST_CASE("pipeline: every input, read size, job count and backend gives the reference counts") {
  const std::vector<Input> all_inputs = inputs();
  std::uint64_t worker_chunks = 0;
  // Plain variables, not structured bindings: CAPTURE's lambdas cannot
  // refer to those before C++20's relaxation, which clang 14 lacks.
  for (const auto &locale_case :
       {std::pair{"C", Encoding::single_byte}, std::pair{"C.UTF-8", Encoding::utf8}}) {
    const char *const locale_name = locale_case.first;
    const Encoding encoding = locale_case.second;
    GlobalLocale locale(locale_name);
    for (const Input &input : all_inputs) {
      TempFile file(input.contents);
      for (const auto &option_set : option_sets(encoding)) {
        const char *const options_name = option_set.first;
        const CountOptions &options = option_set.second;
        const Counts expected = reference_counts(input.contents, options);
        const std::size_t read_sizes[] = {4096, 4093, 65536, std::size_t{1} << 20};
        for (std::size_t size_index = 0; size_index < std::size(read_sizes); ++size_index) {
          const std::size_t read_size = read_sizes[size_index];
          for (unsigned jobs = 1; jobs <= 4; ++jobs) {
            // Under a sanitizer, half the pairs: still every read size and
            // every job count (tests/support/sweep_stride.hpp).
            if ((size_index + jobs) % sweep::stride(2) != 0) continue;
            for (const Backend &backend : backends) {
              if (backend.backend == IoBackend::uring && !uring_available()) continue;
              CAPTURE(locale_name);
              CAPTURE(input.name);
              CAPTURE(options_name);
              CAPTURE(read_size);
              CAPTURE(jobs);
              CAPTURE(backend.name);
              file.rewind();
              ReadStats stats;
              const auto result =
                  count(file.fd(), options, pipelined(jobs, backend, read_size), stats);
              CHECK(result.error == 0);
              CHECK(show(result.counts) == show(expected));
              CHECK(stats.path == path_of(backend.backend));
              // Registration pins the pool, which RLIMIT_MEMLOCK limits
              // for a user without CAP_IPC_LOCK (Debian's default, 8 MiB,
              // is less than the pool of 1 MiB buffers for two or more
              // jobs): refused there, the same reads go to the buffers
              // unregistered.
              const bool asked = backend.backend == IoBackend::uring && backend.registered;
              const bool memlock_refused = ::geteuid() != 0 && (stats.register_error == ENOMEM ||
                                                                stats.register_error == EPERM);
              CHECK(stats.registered == (asked && !memlock_refused));
              CHECK(stats.workers == jobs);
              if (jobs == 1) CHECK(stats.worker_chunks == 0);
              worker_chunks += stats.worker_chunks;
              CHECK(stats.async_reads == backend.async);
              CHECK(stats.read_size == read_size);
              CHECK(stats.bytes == input.contents.size());
              CHECK(offset_of(file.fd()) == static_cast<off_t>(input.contents.size()));
            }
          }
        }
      }
    }
  }
  // The oneTBB workers did count (with worker_backlog 1, every chunk is
  // offered to them; the calling thread takes many first).
  MESSAGE("chunks counted by oneTBB workers: " << worker_chunks);
  CHECK(worker_chunks > 0);
}

TEST_CASE("pipeline: counting starts at the descriptor's offset and leaves it at the end") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(400 * 1024, 11);
  TempFile file(contents);
  CountOptions options;
  options.selection = Selection::all();
  options.encoding = Encoding::utf8;
  for (const Backend &backend : backends) {
    if (backend.backend == IoBackend::uring && !uring_available()) continue;
    for (off_t start : {off_t{1}, off_t{4095}, off_t{123457}, static_cast<off_t>(contents.size()),
                        static_cast<off_t>(contents.size() + 10)}) {
      CAPTURE(backend.name);
      CAPTURE(start);
      REQUIRE(::lseek(file.fd(), start, SEEK_SET) == start);
      ReadStats stats;
      const auto result = count(file.fd(), options, pipelined(2, backend, 8192), stats);
      const std::size_t from = std::min(static_cast<std::size_t>(start), contents.size());
      CHECK(result.error == 0);
      CHECK(show(result.counts) ==
            show(reference_counts(std::string_view(contents).substr(from), options)));
      // Past the end, read(2) leaves the offset alone; so does the pipeline.
      CHECK(offset_of(file.fd()) == std::max(start, static_cast<off_t>(contents.size())));
    }
  }
}

TEST_CASE("pipeline: pipes are counted serially first, then handed to the pipeline") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents =
      invalid_text(3 * 1024 * 1024 + 17, 21) + utf8_text(2 * 1024 * 1024, 22);
  CountOptions options;
  options.selection = Selection::all();
  options.encoding = Encoding::utf8;
  const Counts expected = reference_counts(contents, options);
  for (std::uint64_t threshold :
       {std::uint64_t{0}, std::uint64_t{100000}, std::uint64_t{1} << 22, std::uint64_t{1} << 30}) {
    for (unsigned jobs : {1u, 3u}) {
      CAPTURE(threshold);
      CAPTURE(jobs);
      FedPipe pipe(contents, static_cast<unsigned>(threshold + jobs));
      ReadSettings read;
      read.jobs = jobs;
      read.read_size = 65536;
      read.serial_threshold = threshold;
      ReadStats stats;
      const auto result = count(pipe.fd(), options, read, stats);
      CHECK(result.error == 0);
      CHECK(show(result.counts) == show(expected));
      if (threshold < contents.size()) {
        CHECK(stats.path == ReadStats::Path::read);
        CHECK(stats.serial_bytes >= threshold);
        CHECK(stats.serial_bytes < contents.size());
      } else {
        CHECK(stats.path == ReadStats::Path::serial);
      }
    }
  }
}

TEST_CASE("pipeline: a /proc file (st_size 0) gives what the serial loop gives") {
  GlobalLocale locale("C");
  CountOptions options;
  options.selection = Selection::all();
  const int fd = ::open("/proc/version", O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  ReadStats serial_stats;
  ReadSettings serial;
  const auto expected = count(fd, options, serial, serial_stats);
  CHECK(serial_stats.path == ReadStats::Path::serial);
  CHECK(expected.counts.bytes > 0);
  for (const Backend &backend : backends) {
    if (backend.backend == IoBackend::uring && !uring_available()) continue;
    CAPTURE(backend.name);
    REQUIRE(::lseek(fd, 0, SEEK_SET) == 0);
    ReadStats stats;
    const auto result = count(fd, options, pipelined(2, backend, 16), stats);
    CHECK(result.error == 0);
    CHECK(show(result.counts) == show(expected.counts));
    CHECK(stats.path != ReadStats::Path::serial);
  }
  ::close(fd);
}

TEST_CASE(
    "pipeline: small inputs and byte counts start nothing; large files use the ring, -l every "
    "CPU") {
  GlobalLocale locale("C");
  CountOptions lines;
  lines.selection = Selection{true, false, false, false, false};
  const ReadSettings defaults;

  const std::string small = ascii_text(100 * 1024, 31);
  TempFile small_file(small);
  ReadStats stats;
  auto result = count(small_file.fd(), lines, defaults, stats);
  CHECK(show(result.counts) == show(reference_counts(small, lines)));
  CHECK(stats.path == ReadStats::Path::serial);
  CHECK(stats.workers == 1);

  const std::string large = ascii_text(defaults.serial_threshold + 12345, 32);
  TempFile large_file(large);
  result = count(large_file.fd(), lines, defaults, stats);
  CHECK(show(result.counts) == show(reference_counts(large, lines)));
  // A regular file: every usable CPU reads and counts its own chunks,
  // whatever is counted.
  const unsigned cpus = fastwc::pipeline::usable_cpus();
  CHECK(stats.path == ReadStats::Path::pread);
  CHECK(stats.workers == cpus);
  CHECK(stats.buffers * stats.read_size <= defaults.max_pool_bytes);
  CountOptions words;
  words.selection = Selection{false, true, false, false, false};
  large_file.rewind();
  result = count(large_file.fd(), words, defaults, stats);
  CHECK(show(result.counts) == show(reference_counts(large, words)));
  CHECK(stats.path == ReadStats::Path::pread);
  // A stream goes through the reader thread.
  {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    std::thread writer([&] {
      for (std::size_t done = 0; done < large.size();) {
        const ssize_t n = write(fds[1], large.data() + done, large.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      close(fds[1]);
    });
    result = count(fds[0], words, defaults, stats);
    writer.join();
    close(fds[0]);
    CHECK(show(result.counts) == show(reference_counts(large, words)));
    CHECK(stats.path == ReadStats::Path::read);
  }
  // --jobs=1 is one thread, which reads and counts, as on one CPU; the
  // reader thread's pipeline only when asked for.
  ReadSettings one_job;
  one_job.jobs = 1;
  large_file.rewind();
  result = count(large_file.fd(), lines, one_job, stats);
  CHECK(show(result.counts) == show(reference_counts(large, lines)));
  CHECK(stats.path == ReadStats::Path::pread);
  CHECK(stats.workers == 1);
  one_job.backend = IoBackend::uring;
  large_file.rewind();
  result = count(large_file.fd(), lines, one_job, stats);
  CHECK(show(result.counts) == show(reference_counts(large, lines)));
  CHECK(stats.path == (uring_available() ? ReadStats::Path::uring : ReadStats::Path::read));

  // Bytes alone need no counting threads, however large the input.
  CountOptions bytes;
  bytes.selection = Selection{false, false, false, true, false};
  large_file.rewind();
  result = count(large_file.fd(), bytes, defaults, stats);
  CHECK(result.counts.bytes == large.size());
  CHECK(stats.path == ReadStats::Path::serial);
  CHECK(std::string(stats.kernel) == "none");

  // The public overload without stats, and the two-argument count_fd.
  large_file.rewind();
  CHECK(show(fastwc::count_fd(large_file.fd(), lines, defaults).counts) ==
        show(reference_counts(large, lines)));
  large_file.rewind();
  CHECK(show(fastwc::count_fd(large_file.fd(), lines).counts) ==
        show(reference_counts(large, lines)));
}

TEST_CASE("pipeline: an empty file gives zeros and no chunk") {
  GlobalLocale locale("C");
  CountOptions options;
  options.selection = Selection::all();
  TempFile empty("");
  for (const Backend &backend : backends) {
    if (backend.backend == IoBackend::uring && !uring_available()) continue;
    CAPTURE(backend.name);
    empty.rewind();
    ReadStats stats;
    const auto result = count(empty.fd(), options, pipelined(2, backend, 4096), stats);
    CHECK(result.error == 0);
    CHECK(show(result.counts) == "0 0 0 0 0");
    CHECK(stats.chunks == 0);
  }
}
