// SPDX-License-Identifier: GPL-3.0-or-later
// The counting engine's public API: count a buffer, a stream of buffers, a
// file descriptor or a path, with exactly GNU wc's rules. Link libfastwc
// (pkg-config fastwc).
//
// The contract:
// - Counts: the fields of CountOptions::selection, exactly as GNU wc
//   counts them; every other field is 0, except bytes, which is always
//   counted.
// - Locale: character classes of non-ASCII code points come from the C
//   library of the locale active when a Counter is created or a count
//   starts (iswspace, iswprint, wcwidth): call setlocale() first, and use
//   options_for_current_locale() for the matching CountOptions.
// - Threads: every function may be called from several threads at once on
//   distinct Counters and descriptors; one Counter is not shared. No
//   function throws for an input's error (CountResult::error says it);
//   only std::bad_alloc can escape, from Counter's constructor and
//   count_buffer.
// - What count_fd may start, for an input of at least
//   ReadTuning::serial_threshold bytes (never for a smaller one): up to
//   ReadOptions::jobs - 1 counting threads and, for a stream, one reader
//   thread, all joined before it returns; an io_uring ring; a buffer pool
//   of at most ReadTuning::max_pool_bytes, freed before it returns; and, once per process, the
//   module LIBDIR/fastwc/fastwc-workers.so (oneTBB's worker threads, which
//   stay). It may enlarge a pipe's buffer (F_SETPIPE_SZ). It installs no
//   signal handler and leaves the descriptor open, at the offset after the
//   last byte read.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "fastwc/counts.hpp"
#include "fastwc/options.hpp"
#include "fastwc/read_options.hpp"

namespace fastwc {

struct ReadStats;  // fastwc/diagnostics.hpp

/// Counts a stream that arrives in pieces. The result does not depend on
/// where the stream is split: a word, a line or a multibyte character cut
/// between two update() calls is counted exactly once.
class Counter {
 public:
  explicit Counter(const CountOptions &options);
  ~Counter();
  Counter(Counter &&) noexcept;
  Counter &operator=(Counter &&) noexcept;

  /// Feeds the next piece of the stream.
  void update(std::span<const std::byte> bytes) noexcept;
  /// Ends the stream (a truncated multibyte sequence at the end is never a
  /// character; under WordRule::non_space_constituents its bytes are word
  /// characters, as in GNU >= 9.5; the last word and the last line's width
  /// are counted) and returns the counts. The Counter is reset and may be
  /// reused.
  Counts finish() noexcept;
  /// Ends a stream whose reading failed, keeping what was counted: as
  /// finish(), except that a truncated multibyte sequence is always dropped
  /// (GNU's loops leave at once on a read error, while GNU >= 9.5 counts a
  /// sequence truncated by end of input as encoding errors in -w).
  Counts finish_after_error() noexcept;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// Counts one complete buffer.
Counts count_buffer(std::span<const std::byte> bytes, const CountOptions &options);

/// Reads fd from its current offset to end of file and counts every byte
/// read, with the default ReadOptions. Does not close fd. A read error
/// ends the count: CountResult::error holds it, counts what came before.
CountResult count_fd(int fd, const CountOptions &options);

/// As count_fd(fd, options), reading as read_options says: a regular file
/// with at least ReadTuning::serial_threshold bytes left (fastwc/tuning.hpp), or any input
/// that turns out that large, is counted by the parallel pipeline (a reader
/// thread with io_uring or read(2), counting threads, ordered merge); the
/// counts are always exactly the serial ones. Afterwards the offset is
/// after the last byte read, as with read(2). A read error is returned in
/// the result, never thrown. `stats`, when given, receives what was done
/// (fastwc/diagnostics.hpp). fastwc/tuning.hpp has an overload that also
/// takes the engine's tuning knobs.
/// Thread-safe: distinct calls may run at once on distinct descriptors.
CountResult count_fd(int fd, const CountOptions &options, const ReadOptions &read_options,
                     ReadStats *stats = nullptr);

/// Opens path read-only and counts it. error is open()'s or read()'s errno.
CountResult count_path(const char *path, const CountOptions &options);

}  // namespace fastwc
