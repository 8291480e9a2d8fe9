// SPDX-License-Identifier: GPL-3.0-or-later
// Which inputs go through the pipeline. Small inputs cost nothing extra: a
// regular file with fewer than file_threshold() bytes left, and the start
// of any input of unknown size, are counted on the calling thread with one
// 256 KiB buffer (GNU 9.6's read size) and no thread, ring or arena. Only
// a regular file known to be large starts the pipeline at once (io_uring);
// a pipe or /proc file that passes the threshold hands the rest to it
// (read(2), one read in flight), carrying over the summary of what was
// counted so far.
#include "engine/fd_counter.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <memory>
#include <optional>
#include <span>

#include "count/chunk_summarizer.hpp"
#include "count/dispatch.hpp"
#include "engine/gnu_read_loop.hpp"
#include "engine/selected_counts.hpp"
#include "fastwc/diagnostics.hpp"
#include "fastwc/tuning.hpp"
#include "io/byte_counting_sys.hpp"
#include "io/gnu_read.hpp"
#include "locale/char_classes.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/resources.hpp"
#include "support/clock.hpp"

namespace fastwc {

unsigned default_jobs() noexcept { return pipeline::usable_cpus(); }

const char *io_backend_name(IoBackend backend) noexcept {
  switch (backend) {
    case IoBackend::automatic:
      return "auto";
    case IoBackend::uring:
      return "uring";
    case IoBackend::read:
      return "read";
    case IoBackend::pread:
      return "pread";
  }
  return "auto";
}

CountResult count_fd(int fd, const CountOptions &options, const ReadOptions &read_options,
                     const ReadTuning &tuning, ReadStats *stats) {
  const pipeline::ReadSettings settings(read_options, tuning);
  CountResult result;
  if (read_options.bytes_read != nullptr) {
    io::ByteCountingSys counting(io::Sys::real(), *read_options.bytes_read);
    result = engine::count_fd_with(fd, options, settings, counting, stats);
  } else {
    result = engine::count_fd_with(fd, options, settings, io::Sys::real(), stats);
  }
  result.counts = engine::keep_selected(result.counts, options.selection);
  return result;
}

CountResult count_fd(int fd, const CountOptions &options, const ReadOptions &read_options,
                     ReadStats *stats) {
  return count_fd(fd, options, read_options, ReadTuning{}, stats);
}

}  // namespace fastwc

namespace fastwc::engine {

namespace {

using pipeline::Input;
using pipeline::Outcome;

// GNU wc reads 256 KiB at a time since 9.6 (16 KiB before); the size
// never changes a count.
constexpr std::size_t serial_buffer_size = std::size_t{256} * 1024;

/// Other multibyte locales (mbrtowc state): GNU's loop, serially.
CountResult count_with_counter(int fd, const CountOptions &options, io::Sys &sys,
                               ReadStats &stats) {
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(serial_buffer_size);
  Counter counter(options);
  for (;;) {
    const ssize_t n = io::safe_read(sys, fd, buffer.get(), serial_buffer_size);
    if (n > 0) {
      counter.update({buffer.get(), static_cast<std::size_t>(n)});
      stats.bytes += static_cast<std::uint64_t>(n);
      continue;
    }
    if (n == 0) return {counter.finish(), 0};
    // wc stops at the first read error and still prints what it counted.
    const int error = errno;
    return {counter.finish_after_error(), error};
  }
}

/// A pipe given a larger buffer moves more per read and wakes its reader
/// less often. Refused above /proc/sys/fs/pipe-max-size for unprivileged
/// users, which is harmless: the pipe keeps its size.
void enlarge_pipe(int fd, std::size_t size) noexcept {
  struct stat status {};
  if (fstat(fd, &status) != 0 || !S_ISFIFO(status.st_mode)) return;
  const int wanted = static_cast<int>(std::min<std::size_t>(size, std::size_t{1} << 20));
  if (fcntl(fd, F_GETPIPE_SZ) < wanted) fcntl(fd, F_SETPIPE_SZ, wanted);
}

/// A read already made into the loop's buffer: `size` bytes, or -1 and
/// `error`.
struct FirstRead {
  ssize_t size;
  int error;
};

/// GNU >= 9.5 on a stream (or a small file): read as GNU reads
/// (count_with_gnu_reads), since a stream's boundaries are the writer's and
/// nothing can be read ahead. Past serial_threshold the pipeline's reader
/// thread goes on making the same reads (GnuReadSchedule), several to a
/// buffer, and the counting threads count them. `buffer` holds
/// gnu_read_size(options) bytes; `first`: GNU's first read, already made
/// into it.
CountResult count_stream_as_gnu(int fd, const CountOptions &options,
                                const pipeline::ReadSettings &read_options, io::Sys &sys,
                                ReadStats &stats, std::byte *buffer,
                                std::optional<FirstRead> first) {
  auto read = [&](std::byte *into, std::size_t size) -> ssize_t {
    if (!first) return sys.read(fd, into, size);
    // The loop's first read, made before: its bytes are where the loop's
    // first read puts them.
    const FirstRead made = *first;
    first.reset();
    errno = made.error;
    return made.size;
  };
  bool pipeline_failed = false;
  auto hand_off = [&](GnuReadCount &count) -> std::optional<CountResult> {
    stats.kernel = count::kernel_id_name(count.counter().kernel());  // for --stats
    if (first || pipeline_failed || count.whole().bytes < read_options.serial_threshold)
      return std::nullopt;
    // The pipe keeps its size: a larger one would move the writer's
    // boundaries, and with them GNU's words.
    GnuReadSchedule schedule(count);
    Input input;
    input.fd = fd;
    input.schedule = &schedule;
    try {
      const std::uint64_t serial_bytes = count.whole().bytes;
      const Outcome outcome =
          pipeline::run(input, count.counter(), count.whole(), read_options, sys, stats);
      stats.serial_bytes = serial_bytes;
      return count.finish(outcome.summary, outcome.error);
    } catch (const std::exception &) {
      pipeline_failed = true;  // nothing read by it: go on serially
      return std::nullopt;
    }
  };
  CountResult result = count_with_gnu_reads(options, read, buffer, hand_off);
  stats.bytes = result.counts.bytes;
  return result;
}

/// GNU >= 9.5's word counts depend on where its reads fall. A regular file
/// large enough for the pipeline is counted like any other, in parallel,
/// and GNU's read boundaries are then walked with a few bytes each
/// (split_rescan_words); anything else is read exactly as GNU
/// reads it. The first GNU-sized read tells which: a short one is a small
/// file or a stream, and only a full one is worth an fstat (most inputs of
/// a long file list are small).
CountResult count_with_split_rescan(int fd, const CountOptions &options,
                                    const pipeline::ReadSettings &read_options, io::Sys &sys,
                                    ReadStats &stats) {
  const std::size_t read_size = count::gnu_read_size(options);
  const auto first = std::make_unique_for_overwrite<std::byte[]>(read_size);
  ssize_t first_size = 0;
  int first_error = 0;
  const bool peek = read_options.file_threshold() > read_size;
  if (peek) {
    first_size = io::safe_read(sys, fd, first.get(), read_size);
    first_error = errno;
  }
  if (options.encoding == Encoding::utf8 &&
      (!peek || first_size == static_cast<ssize_t>(read_size))) {
    struct stat status {};
    const off_t now = lseek(fd, 0, SEEK_CUR);
    const off_t begin = now - first_size;
    if (now >= 0 && fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size >= begin &&
        static_cast<std::uint64_t>(status.st_size - begin) >= read_options.file_threshold() &&
        lseek(fd, begin, SEEK_SET) == begin) {
      CountOptions contiguous = options;
      contiguous.gnu_split_rescan_read_size = 0;
      CountResult result = count_fd_with(fd, contiguous, read_options, sys, &stats);
      result.counts.words += split_rescan_words(
          options, result.counts.bytes, result.error != 0,
          [&](std::uint64_t offset, std::uint8_t *buffer, std::size_t size) {
            return sys.pread(fd, buffer, size, begin + static_cast<off_t>(offset));
          });
      return result;
    }
  }
  return count_stream_as_gnu(
      fd, options, read_options, sys, stats, first.get(),
      peek ? std::optional<FirstRead>({first_size, first_error}) : std::nullopt);
}

}  // namespace

CountResult count_fd_with(int fd, const CountOptions &options,
                          const pipeline::ReadSettings &read_options, io::Sys &sys,
                          ReadStats *stats_out) {
  const std::uint64_t start = support::now_ns();
  ReadStats local;
  ReadStats &stats = stats_out != nullptr ? *stats_out : local;
  stats = ReadStats{};

  CountResult result;
  if (count::needs_gnu_read_boundaries(options)) {
    result = count_with_split_rescan(fd, options, read_options, sys, stats);
    stats.wall_ns = support::now_ns() - start;
    return result;
  }
  if (!count::ChunkSummarizer::supports(options)) {
    result = count_with_counter(fd, options, sys, stats);
    stats.wall_ns = support::now_ns() - start;
    return result;
  }
  const count::ChunkSummarizer counter =
      count::ChunkSummarizer::needs_classes(options)
          ? count::ChunkSummarizer(options, locale::CharClasses::current())
          : count::ChunkSummarizer(options);
  // Only counting needs threads: bytes alone are read at the speed of the
  // reads whoever makes them.
  const bool may_pipeline = counter.needs_kernel();
  if (counter.needs_kernel()) stats.kernel = count::kernel_id_name(counter.kernel());

  auto finish = [&](const count::ChunkSummary &whole, int error) {
    result = {counter.finish(whole, error != 0), error};
    stats.bytes = whole.bytes;
    stats.wall_ns = support::now_ns() - start;
    return result;
  };

  bool pipeline_failed = false;
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(serial_buffer_size);
  count::ChunkSummary whole{};
  // The first read comes before any fstat or lseek: a file smaller than
  // one buffer (most files in a --files0-from list) then costs two reads,
  // as in GNU's loop. Only a full first buffer makes the size worth asking.
  // (A threshold below one buffer sends every input through the pipeline:
  // nothing is read here first.)
  bool ask_size = may_pipeline;
  if (may_pipeline && read_options.file_threshold() > serial_buffer_size) {
    const ssize_t n = io::safe_read(sys, fd, buffer.get(), serial_buffer_size);
    if (n < 0) return finish(whole, errno);
    if (n == 0) return finish(whole, 0);
    whole = counter.summarize({buffer.get(), static_cast<std::size_t>(n)});
    ask_size = static_cast<std::size_t>(n) == serial_buffer_size;  // a short read: at EOF
  }
  if (ask_size) {
    struct stat status {};
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
      const off_t offset = lseek(fd, 0, SEEK_CUR);
      const auto size = static_cast<std::uint64_t>(status.st_size);
      if (offset >= 0 && size >= static_cast<std::uint64_t>(offset) &&
          size - static_cast<std::uint64_t>(offset) + whole.bytes >=
              read_options.file_threshold()) {
        Input input;
        input.fd = fd;
        input.positioned = true;
        input.offset = offset;
        input.expected_end = size;
        try {
          const std::uint64_t serial_bytes = whole.bytes;
          const Outcome outcome = pipeline::run(input, counter, whole, read_options, sys, stats);
          stats.serial_bytes = serial_bytes;
          return finish(outcome.summary, outcome.error);
        } catch (const std::exception &) {
          // No memory for the pool, or no thread: nothing was read, so the
          // serial loop below counts the file instead.
          pipeline_failed = true;
          stats = ReadStats{};
          if (counter.needs_kernel()) stats.kernel = count::kernel_id_name(counter.kernel());
        }
      }
    }
  }

  bool enlarged = false;
  for (;;) {
    if (may_pipeline && !pipeline_failed && whole.bytes >= read_options.serial_threshold) {
      // Larger than it looked (a pipe, a /proc file, a file that grew):
      // the pipeline reads the rest with read(2) where this loop stopped.
      enlarge_pipe(fd, read_options.read_size != 0 ? read_options.read_size : std::size_t{1} << 20);
      Input input;
      input.fd = fd;
      try {
        const std::uint64_t serial_bytes = whole.bytes;
        const Outcome outcome = pipeline::run(input, counter, whole, read_options, sys, stats);
        stats.serial_bytes = serial_bytes;
        return finish(outcome.summary, outcome.error);
      } catch (const std::exception &) {
        pipeline_failed = true;  // nothing read by it: go on serially
      }
    }
    const ssize_t n = io::safe_read(sys, fd, buffer.get(), serial_buffer_size);
    if (n > 0) {
      if (!enlarged && whole.bytes != 0) {
        // A second read with data: a pipe (or a file growing). A larger
        // pipe lets its writer run ahead and wakes this loop less often.
        enlarged = true;
        enlarge_pipe(fd, serial_buffer_size);
      }
      whole = counter.merge(whole, counter.summarize({buffer.get(), static_cast<std::size_t>(n)}));
      continue;
    }
    if (n == 0) return finish(whole, 0);
    // wc stops at the first read error and still prints what it counted.
    return finish(whole, errno);
  }
}

}  // namespace fastwc::engine
