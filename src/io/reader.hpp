// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between a reader (the one thread that talks to the kernel)
// and the pipeline that counts what it reads: the reader takes empty
// buffers from a ReaderPort, fills them, and hands them back as Chunks
// numbered in file order; the port returns each buffer once it has been
// counted. Two readers implement it: ReadReader (read(2)) and UringReader
// (io_uring, falling back to ReadReader). A ReadSchedule, where one is
// given, dictates the size of every read(2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "fastwc/diagnostics.hpp"

namespace fastwc::io {

/// A filled buffer: `size` bytes (>= 1) of the stream, the seq-th chunk
/// from the start (0, 1, 2, ... without gaps, in file order).
struct Chunk {
  std::uint64_t seq = 0;
  std::uint32_t buffer = 0;
  std::uint32_t size = 0;
};

/// How reading ended: `chunks` chunks of `bytes` bytes in all were
/// delivered; error is 0 at end of file, else the errno of the read that
/// failed (the chunks hold every byte read before it, as GNU counts them).
struct ReadEnd {
  std::uint64_t chunks = 0;
  std::uint64_t bytes = 0;
  int error = 0;
};

/// The pipeline's side, called from the reader thread only.
class ReaderPort {
 public:
  /// A free buffer index; blocks until a buffer has been counted if none is
  /// free. `idle_ns` grows by the time spent blocked.
  virtual std::uint32_t acquire(std::uint64_t &idle_ns) noexcept = 0;
  /// A free buffer index without blocking, or false.
  virtual bool try_acquire(std::uint32_t &buffer) noexcept = 0;
  /// Hands a chunk to the counters. Called in seq order.
  virtual void deliver(const Chunk &chunk) noexcept = 0;
  /// Returns a buffer that is not delivered (nothing read into it).
  virtual void release(std::uint32_t buffer) noexcept = 0;

 protected:
  ReaderPort() = default;
  ~ReaderPort() = default;
  ReaderPort(const ReaderPort &) = default;
  ReaderPort &operator=(const ReaderPort &) = default;
};

/// The size of each read, for a stream whose counts depend on where its
/// reads end (GNU >= 9.5's multibyte loop asks for its buffer size less
/// the bytes it carries over): the reader asks read(2) for exactly
/// next_read_size() bytes, shows what came to on_read(), and only then asks
/// for the next size. Called on the reader thread only.
class ReadSchedule {
 public:
  /// The next read's size: at least 1, at most max_read_size().
  virtual std::size_t next_read_size() const noexcept = 0;
  /// The largest size ever asked for: a buffer holds at least one read.
  virtual std::size_t max_read_size() const noexcept = 0;
  /// The bytes one read returned (never empty), in stream order.
  virtual void on_read(std::span<const std::byte> bytes) noexcept = 0;

 protected:
  ReadSchedule() = default;
  ~ReadSchedule() = default;
  ReadSchedule(const ReadSchedule &) = default;
  ReadSchedule &operator=(const ReadSchedule &) = default;
};

/// What a reader reports about itself after run() (for ReadStats).
struct ReaderReport {
  ReadStats::Path path = ReadStats::Path::read;
  int uring_error = 0;
  int register_error = 0;
  bool registered = false;
  bool async_reads = false;
  /// When the first read could be issued (support::now_ns()): after the ring
  /// and the registration were set up.
  std::uint64_t ready_at_ns = 0;
  std::uint64_t wait_ns = 0;
  std::uint64_t idle_ns = 0;
  std::uint64_t resubmits = 0;
  std::uint64_t redone_reads = 0;
};

/// Reads one input to its end. run() is called once, on the reader thread;
/// it never throws and returns only when no read it started is still in
/// the kernel (so the pool may then be freed).
class Reader {
 public:
  virtual ~Reader() = default;
  virtual ReadEnd run(ReaderPort &port) noexcept = 0;
  const ReaderReport &report() const noexcept { return report_; }

 protected:
  Reader() = default;
  ReaderReport report_;
};

}  // namespace fastwc::io
