// SPDX-License-Identifier: GPL-3.0-or-later
// GNU >= 9.5's multibyte read loop, read for read: each read() asks for the
// read size less the bytes of a character carried over from the previous
// one, so the pieces the reference engine sees fall exactly where GNU's
// reads fall. Needed only for CountOptions::gnu_split_rescan_read_size,
// whose word counts depend on those places. For a regular file the places
// follow from the file itself: split_rescan_words walks them after any
// other count of the file.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>

#include "count/chunk_summarizer.hpp"
#include "count/gnu_reads.hpp"
#include "count/reference_counter.hpp"
#include "count/split_rescan.hpp"
#include "engine/selected_counts.hpp"
#include "fastwc/counts.hpp"
#include "fastwc/engine.hpp"
#include "io/gnu_read.hpp"
#include "io/reader.hpp"
#include "locale/char_classes.hpp"

namespace fastwc::engine {

using count::gnu_read_size;
using count::ReferenceCounter;
using count::SplitRescanCorrector;

/// The oracle: GNU's loop on the reference engine, which re-reads the split
/// characters itself. Counts what `read(buffer, size) -> ssize_t` delivers
/// until end of input or the first error other than EINTR.
/// `buffer` holds gnu_read_size(options) bytes; every read goes to its start.
template <class ReadFunction>
CountResult count_with_gnu_reads_reference(const CountOptions &options, ReadFunction &&read,
                                           std::byte *buffer) {
  const std::size_t read_size = gnu_read_size(options);
  ReferenceCounter counter(options);
  for (;;) {
    // wc.c: read (fd, buf + prev, IO_BUFSIZE - prev)
    const ssize_t n =
        io::retry_interrupted([&] { return read(buffer, read_size - counter.carried_bytes()); });
    if (n > 0) {
      counter.update({buffer, static_cast<std::size_t>(n)});
    } else if (n == 0) {
      return {counter.finish(), 0};
    } else {
      const int error = errno;
      return {counter.finish_after_error(), error};
    }
  }
}

template <class ReadFunction>
CountResult count_with_gnu_reads_reference(const CountOptions &options, ReadFunction &&read) {
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(gnu_read_size(options));
  return count_with_gnu_reads_reference(options, read, buffer.get());
}

/// GNU's read loop over a UTF-8 stream, counted at full speed: each read is
/// summarized by the SIMD engine with the rescan off, as if the stream were
/// one buffer, and SplitRescanCorrector adds the words GNU's re-reading
/// makes at its read boundaries. Not thread-safe.
class GnuReadCount {
 public:
  GnuReadCount(const CountOptions &options, const locale::CharClasses &classes)
      : selection_(options.selection),
        counter_(without_rescan(options), classes),
        corrector_(options, classes),
        read_size_(options.gnu_split_rescan_read_size) {}

  /// GNU's next read: its read size less the bytes it carries over.
  std::size_t next_read_size() const noexcept { return read_size_ - corrector_.carried_bytes(); }
  std::size_t read_size() const noexcept { return read_size_; }

  /// The bytes of the next read, counted here.
  void add(std::span<const std::byte> bytes) noexcept {
    whole_ = counter_.merge(whole_, counter_.summarize(bytes));
    follow(bytes);
  }
  /// The bytes of the next read, counted elsewhere (in `counter()`'s
  /// summaries, merged after whole()).
  void follow(std::span<const std::byte> bytes) noexcept {
    corrector_.on_read({reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()});
  }

  const count::ChunkSummarizer &counter() const noexcept { return counter_; }
  /// The summary of the bytes add()ed.
  const count::ChunkSummary &whole() const noexcept { return whole_; }

  /// The counts of a stream whose summary is `whole` (whole() merged with
  /// the summaries of the bytes follow()ed); error: errno of the read that
  /// ended it, or 0 at its end.
  CountResult finish(const count::ChunkSummary &whole, int error) noexcept {
    Counts counts = counter_.finish(whole, error != 0);
    counts.words += corrector_.finish(error != 0);
    return {keep_selected(counts, selection_), error};
  }

 private:
  static CountOptions without_rescan(CountOptions options) noexcept {
    options.gnu_split_rescan_read_size = 0;
    return options;
  }

  Selection selection_;
  count::ChunkSummarizer counter_;
  SplitRescanCorrector corrector_;
  std::size_t read_size_;
  count::ChunkSummary whole_{};
};

/// A hand-off that never takes over: count_with_gnu_reads reads to the end.
struct ReadToTheEnd {
  std::optional<CountResult> operator()(GnuReadCount &) const noexcept { return std::nullopt; }
};

/// Reads as GNU does (GnuReadCount) until end of input or the first error
/// other than EINTR. Before each read, `hand_off(count)` may take over the
/// rest of the stream and return its counts (the engine's pipeline does,
/// past its serial threshold). Other multibyte locales take the oracle.
/// `buffer` holds gnu_read_size(options) bytes; every read goes to its start.
template <class ReadFunction, class HandOff = ReadToTheEnd>
CountResult count_with_gnu_reads(const CountOptions &options, ReadFunction &&read,
                                 std::byte *buffer, HandOff &&hand_off = {}) {
  if (options.encoding != Encoding::utf8)
    return count_with_gnu_reads_reference(options, read, buffer);
  GnuReadCount count(options, locale::CharClasses::current());
  for (;;) {
    if (std::optional<CountResult> rest = hand_off(count)) return *rest;
    const ssize_t n = io::retry_interrupted([&] { return read(buffer, count.next_read_size()); });
    if (n <= 0) return count.finish(count.whole(), n == 0 ? 0 : errno);
    count.add({buffer, static_cast<std::size_t>(n)});
  }
}

template <class ReadFunction>
CountResult count_with_gnu_reads(const CountOptions &options, ReadFunction &&read) {
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(gnu_read_size(options));
  return count_with_gnu_reads(options, read, buffer.get());
}

/// GNU's reads for the pipeline's reader thread (io::ReadSchedule): the
/// sizes GnuReadCount asks for, whose corrector follows each read while the
/// counting threads count it.
class GnuReadSchedule final : public io::ReadSchedule {
 public:
  explicit GnuReadSchedule(GnuReadCount &count) noexcept : count_(count) {}
  std::size_t next_read_size() const noexcept override { return count_.next_read_size(); }
  std::size_t max_read_size() const noexcept override { return count_.read_size(); }
  void on_read(std::span<const std::byte> bytes) noexcept override { count_.follow(bytes); }

 private:
  GnuReadCount &count_;
};

/// GNU's extra words (SplitRescanCorrector) for `length` bytes of a regular
/// file, which GNU's loop reads in full reads until the end: each asks for
/// the read size less what the previous one carried over, so each boundary
/// follows from the few bytes before the last one. Only the bytes around
/// the boundaries matter, so the file's counts can be taken in any pieces,
/// in parallel, with the quirk off; this reads a few bytes per boundary with
/// `read_at(offset, buffer, size) -> ssize_t` (offsets from the start of
/// the counted bytes). A file that shrank meanwhile ends the walk early.
/// after_error: counting stopped at a read error (SplitRescanCorrector::finish).
template <class ReadAtFunction>
std::uint64_t split_rescan_words(const CountOptions &options, std::uint64_t length,
                                 bool after_error, ReadAtFunction &&read_at) {
  constexpr std::size_t head_max = SplitRescanCorrector::decision_bytes;
  constexpr std::size_t tail_max = SplitRescanCorrector::max_carry;
  // read_at until `size` bytes or the end; returns how many came.
  auto read_exactly = [&read_at](std::uint64_t offset, std::uint8_t *buffer, std::size_t size) {
    return io::fill(0, size,
                    [&](std::size_t done, std::size_t left) {
                      return read_at(offset + done, buffer + done, left);
                    })
        .got;
  };
  SplitRescanCorrector corrector(options, locale::CharClasses::current());
  const std::uint64_t read_size = options.gnu_split_rescan_read_size;
  // The first bytes of the next read, and the bytes around its end.
  std::uint8_t head[head_max];
  std::size_t head_size =
      read_exactly(0, head, static_cast<std::size_t>(std::min<std::uint64_t>(head_max, length)));
  std::uint8_t around[tail_max + head_max];
  for (std::uint64_t pos = 0; pos < length;) {
    const std::uint64_t size = std::min(read_size - corrector.carried_bytes(), length - pos);
    const auto tail_size = static_cast<std::size_t>(std::min<std::uint64_t>(size, tail_max));
    const std::uint64_t around_start = pos + size - tail_size;
    const auto around_size = static_cast<std::size_t>(
        std::min<std::uint64_t>(tail_size + head_max, length - around_start));
    const std::size_t got = read_exactly(around_start, around, around_size);
    const auto head_used = static_cast<std::size_t>(std::min<std::uint64_t>(size, head_size));
    if (got < tail_size || head_used < std::min<std::uint64_t>(size, head_max)) break;
    corrector.on_read_ends({head, head_used}, {around, tail_size}, static_cast<std::size_t>(size));
    head_size = got - tail_size;
    std::memcpy(head, around + tail_size, head_size);
    pos += size;
  }
  return corrector.finish(after_error);
}

}  // namespace fastwc::engine
