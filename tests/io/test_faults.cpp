// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection through the io::Sys seam: short reads, EINTR, EAGAIN, EIO
// after N bytes (partial counts and the errno, as GNU reports them), EOF
// found early with data past it, a ring the kernel refuses and a buffer
// registration it refuses. Every run must
// give exactly the read(2) backend's result, leak no descriptor or thread,
// and end (each run is under a hang guard).
#include <dirent.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "engine/fd_counter.hpp"
#include "io_test_support.hpp"

namespace {

using fastwc::IoBackend;
using fastwc::ReadStats;
using fastwc::engine::count_fd_with;
using fastwc::pipeline::ReadSettings;
using namespace io_test;

/// These faults run with the pool registered (READ_FIXED), the ring's
/// fastest and least forgiving path.
constexpr auto registered = fastwc::BufferRegistration::always;

/// Rewinds `file` and counts it through `sys` in the pipeline, 4 KiB a
/// read, into registered buffers.
fastwc::CountResult count_4k(const TempFile &file, const CountOptions &options, IoBackend backend,
                             unsigned jobs, FaultSys &sys, ReadStats &stats) {
  file.rewind();
  return count(file.fd(), options, pipelined(backend, jobs, 4096, registered), sys, stats);
}

/// Entries of a /proc/self directory (open descriptors, threads).
std::size_t entries(const char *dir) {
  std::size_t n = 0;
  if (DIR *d = ::opendir(dir)) {
    while (const dirent *e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

}  // namespace

TEST_CASE("faults: short reads, EINTR and EAGAIN change nothing") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(600 * 1024, 41) + invalid_text(200 * 1024, 42);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents, options);
  struct Fault {
    const char *name;
    std::size_t max_piece;
    unsigned eintr_every;
    unsigned eagain_every;
  };
  for (const Fault &fault :
       {Fault{"short reads", 3000, 0, 0}, Fault{"tiny reads", 7, 0, 0}, Fault{"EINTR", 0, 3, 0},
        Fault{"EAGAIN", 0, 0, 4}, Fault{"all three", 5000, 5, 7}}) {
    for (IoBackend backend : fault_backends()) {
      // read(2) and pread(2) are never EAGAIN on a regular file; only the
      // ring retries it.
      if (backend != IoBackend::uring && fault.eagain_every != 0) continue;
      for (unsigned jobs : {1u, 2u, 4u}) {
        for (std::size_t read_size : {std::size_t{4096}, std::size_t{65536}}) {
          CAPTURE(fault.name);
          CAPTURE(fastwc::io_backend_name(backend));
          CAPTURE(jobs);
          CAPTURE(read_size);
          FaultSys sys(jobs * 31 + static_cast<unsigned>(read_size));
          sys.max_piece = fault.max_piece;
          sys.eintr_every = fault.eintr_every;
          sys.eagain_every = fault.eagain_every;
          file.rewind();
          ReadStats stats;
          const auto result = count(file.fd(), options,
                                    pipelined(backend, jobs, read_size, registered), sys, stats);
          CHECK(result.error == 0);
          CHECK(show(result.counts) == show(expected));
          CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(contents.size()));
          if (fault.max_piece == 0) CHECK(sys.injected > 0);
          if (backend == IoBackend::uring) CHECK(stats.resubmits > 0);
        }
      }
    }
  }
}

TEST_CASE("faults: EIO after N bytes gives the counts of the first N bytes and the errno") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(900 * 1024, 51);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  for (std::uint64_t eio_at :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{4095}, std::uint64_t{4096},
        std::uint64_t{300001}, static_cast<std::uint64_t>(contents.size() - 1)}) {
    // What GNU prints: the bytes before the failing read, with an
    // incomplete trailing character dropped.
    const Counts expected =
        reference_counts(std::string_view(contents).substr(0, eio_at), options, true);
    std::vector<std::string> seen;
    for (IoBackend backend : fault_backends()) {
      for (unsigned jobs : {1u, 3u}) {
        for (std::size_t max_piece : {std::size_t{0}, std::size_t{1000}}) {
          CAPTURE(eio_at);
          CAPTURE(fastwc::io_backend_name(backend));
          CAPTURE(jobs);
          CAPTURE(max_piece);
          FaultSys sys;
          sys.eio_at = eio_at;
          sys.max_piece = max_piece;
          ReadStats stats;
          const auto result = count_4k(file, options, backend, jobs, sys, stats);
          CHECK(result.error == EIO);
          CHECK(show(result.counts) == show(expected));
          CHECK(stats.bytes == eio_at);
          // The offset is where a read(2) loop would have stopped.
          CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(eio_at));
        }
      }
    }
  }
  // And on the serial path (a small input) the same.
  FaultSys sys;
  sys.eio_at = 1000;
  file.rewind();
  ReadStats stats;
  ReadSettings serial;
  serial.serial_threshold = std::uint64_t{1} << 40;
  serial.pread_threshold = serial.serial_threshold;
  const auto result = count(file.fd(), options, serial, sys, stats);
  CHECK(stats.path == ReadStats::Path::serial);
  CHECK(result.error == EIO);
  CHECK(show(result.counts) ==
        show(reference_counts(std::string_view(contents).substr(0, 1000), options, true)));
}

TEST_CASE("faults: a read that finds EOF ends the input there, whatever was read past it") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(600 * 1024, 53);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  // A file truncated at eof_at and grown back at once: the read at eof_at
  // finds EOF, reads issued past it (the ring's reads in flight, the other
  // pread threads' chunks) find data, which a read(2) loop would never
  // have seen.
  for (std::uint64_t eof_at :
       {std::uint64_t{0}, std::uint64_t{4096}, std::uint64_t{40960}, std::uint64_t{409600}}) {
    const Counts expected = reference_counts(std::string_view(contents).substr(0, eof_at), options);
    for (IoBackend backend : fault_backends()) {
      for (unsigned jobs : {1u, 2u, 3u}) {
        CAPTURE(eof_at);
        CAPTURE(fastwc::io_backend_name(backend));
        CAPTURE(jobs);
        FaultSys sys;
        sys.eof_at = eof_at;
        ReadStats stats;
        const auto result = count_4k(file, options, backend, jobs, sys, stats);
        CHECK(result.error == 0);
        CHECK(show(result.counts) == show(expected));
        CHECK(stats.bytes == eof_at);
        CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(eof_at));
      }
    }
  }
  // An error in an earlier chunk than the EOF: the error ends the input,
  // whichever of the two a thread found first.
  const std::uint64_t eio_at = 3 * 4096 + 100;
  const Counts expected =
      reference_counts(std::string_view(contents).substr(0, eio_at), options, true);
  for (IoBackend backend : fault_backends()) {
    for (int repeat = 0; repeat < 20; ++repeat) {
      CAPTURE(fastwc::io_backend_name(backend));
      CAPTURE(repeat);
      FaultSys sys;
      sys.eio_at = eio_at;
      sys.eof_at = 6 * 4096;
      ReadStats stats;
      const auto result = count_4k(file, options, backend, 3, sys, stats);
      CHECK(result.error == EIO);
      CHECK(show(result.counts) == show(expected));
      CHECK(stats.bytes == eio_at);
    }
  }
}

TEST_CASE("faults: read(2) reports EAGAIN as GNU's safe_read does") {
  GlobalLocale locale("C");
  const std::string contents = ascii_text(300 * 1024, 61);
  TempFile file(contents);
  CountOptions options;
  options.selection = Selection::all();
  FaultSys sys;
  sys.eagain_every = 3;
  sys.eagain_in_read = true;
  ReadStats stats;
  const auto result =
      count(file.fd(), options, pipelined(IoBackend::read, 2, 8192, registered), sys, stats);
  CHECK(result.error == EAGAIN);
  CHECK(result.counts.bytes == 2 * 8192);  // two reads went through, the third failed
  CHECK(show(result.counts) ==
        show(reference_counts(std::string_view(contents).substr(0, 2 * 8192), options, true)));
}

TEST_CASE("faults: a refused ring falls back to read(2), a refused registration to plain buffers") {
  if (!uring_available()) return;  // io_main reports the skip
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(500 * 1024, 71);
  TempFile file(contents);
  const CountOptions options = utf8_all();
  const Counts expected = reference_counts(contents, options);
  for (int error : {ENOSYS, EPERM, ENOMEM}) {
    CAPTURE(error);
    FaultSys sys;
    sys.ring_init_errno = error;
    file.rewind();
    ReadStats stats;
    const auto result =
        count(file.fd(), options, pipelined(IoBackend::uring, 2, 16384, registered), sys, stats);
    CHECK(result.error == 0);
    CHECK(show(result.counts) == show(expected));
    CHECK(stats.path == ReadStats::Path::read);
    CHECK(stats.uring_error == error);
    CHECK(::lseek(file.fd(), 0, SEEK_CUR) == static_cast<off_t>(contents.size()));
  }
  for (int error : {ENOMEM, EPERM}) {
    CAPTURE(error);
    FaultSys sys;
    sys.register_errno = error;
    sys.max_piece = 5000;
    file.rewind();
    ReadStats stats;
    const auto result =
        count(file.fd(), options, pipelined(IoBackend::uring, 3, 16384, registered), sys, stats);
    CHECK(result.error == 0);
    CHECK(show(result.counts) == show(expected));
    CHECK(stats.path == ReadStats::Path::uring);
    CHECK_FALSE(stats.registered);
    CHECK(stats.register_error == error);
  }
}

TEST_CASE("faults: no descriptor or thread outlives a run, whatever happened") {
  GlobalLocale locale("C");
  const std::string contents = ascii_text(400 * 1024, 81);
  TempFile file(contents);
  CountOptions options;
  options.selection = Selection::all();
  auto run_all = [&] {
    for (IoBackend backend : fault_backends()) {
      for (unsigned jobs : {1u, 2u, 4u}) {
        for (int variant = 0; variant < 4; ++variant) {
          FaultSys sys;
          if (variant == 1) sys.eio_at = 100000;
          if (variant == 2) sys.register_errno = ENOMEM;
          if (variant == 3) sys.ring_init_errno = EPERM;
          ReadStats stats;
          count_4k(file, options, backend, jobs, sys, stats);
        }
      }
    }
  };
  run_all();  // starts oneTBB's workers, which stay for the process
  const std::size_t fds = entries("/proc/self/fd");
  const std::size_t threads = entries("/proc/self/task");
  run_all();
  CHECK(entries("/proc/self/fd") == fds);
  CHECK(entries("/proc/self/task") == threads);
}

TEST_CASE(
    "faults: -c alone (no classes, no kernel) reads through EINTR and stops at EIO as GNU does") {
  GlobalLocale locale("C.UTF-8");
  const std::string contents = utf8_text(300 * 1024, 57);
  TempFile file(contents);
  for (const bool chars : {false, true}) {
    CountOptions options;
    options.selection = Selection{false, false, chars, true, false};
    // -m in UTF-8 decodes; in a single-byte locale it is -c again.
    options.encoding = chars ? Encoding::single_byte : Encoding::utf8;
    for (std::uint64_t eio_at : {FaultSys::never, std::uint64_t{0}, std::uint64_t{70001}}) {
      CAPTURE(chars);
      CAPTURE(eio_at);
      FaultSys sys;
      sys.max_piece = 5000;
      sys.eintr_every = 3;
      sys.eio_at = eio_at;
      file.rewind();
      ReadStats stats;
      const auto result = count(file.fd(), options, ReadSettings{}, sys, stats);
      const std::uint64_t bytes = eio_at == FaultSys::never ? contents.size() : eio_at;
      CHECK(result.error == (eio_at == FaultSys::never ? 0 : EIO));
      CHECK(result.counts.bytes == bytes);
      CHECK(result.counts.chars == (chars ? bytes : 0));
      CHECK(result.counts.lines == 0);
      CHECK(stats.path == ReadStats::Path::serial);
      CHECK(std::string(stats.kernel) == "none");
      CHECK(sys.injected > 0);
    }
  }
}
