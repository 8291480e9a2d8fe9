// SPDX-License-Identifier: GPL-3.0-or-later
// GNU >= 9.5's multibyte read loop, read for read: each read() asks for the
// read size less the bytes of a character carried over from the previous
// one, so the pieces the reference engine sees fall exactly where GNU's
// reads fall. Needed only for CountOptions::gnu_split_rescan_read_size,
// whose word counts depend on those places.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <memory>

#include "count/reference_counter.hpp"
#include "count/split_rescan.hpp"
#include "locale/char_classes.hpp"
#include "fastwc/engine.hpp"

namespace fastwc::count {

/// True when GNU decodes the input at all: only -l and -c (wc_lines, or
/// the byte count) never look at characters, in any locale.
inline bool decodes_characters(const CountOptions &options) noexcept {
  const Selection &s = options.selection;
  return options.encoding != Encoding::single_byte && (s.chars || s.words || s.max_line_length);
}

/// True when the counts depend on GNU's read boundaries. In UTF-8: the
/// 9.5+ quirk changes words. In other multibyte locales: its re-read bytes
/// can be characters of any kind, and in every version a stateful
/// converter may decode the last bytes of a read differently.
inline bool needs_gnu_read_boundaries(const CountOptions &options) noexcept {
  if (!decodes_characters(options)) return false;
  if (options.encoding == Encoding::other_multibyte)
    return options.gnu_split_rescan_read_size != 0 || options.gnu_multibyte_read_size != 0;
  return options.gnu_split_rescan_read_size != 0 && options.selection.words;
}

/// The oracle: GNU's loop on the reference engine, which re-reads the split
/// characters itself. Counts what `read(buffer, size) -> ssize_t` delivers
/// until end of input or the first error other than EINTR.
template <class ReadFunction>
CountResult count_with_gnu_reads_reference(const CountOptions &options, ReadFunction &&read) {
  const std::size_t read_size = options.gnu_split_rescan_read_size != 0
                                    ? options.gnu_split_rescan_read_size
                                    : options.gnu_multibyte_read_size;
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(read_size);
  ReferenceCounter counter(options);
  for (;;) {
    // wc.c: read (fd, buf + prev, IO_BUFSIZE - prev)
    const ssize_t n = read(buffer.get(), read_size - counter.carried_bytes());
    if (n > 0) {
      counter.update({buffer.get(), static_cast<std::size_t>(n)});
    } else if (n == 0) {
      return {counter.finish(), 0};
    } else if (errno != EINTR) {
      const int error = errno;
      return {counter.finish_after_error(), error};
    }
  }
}

/// Reads as GNU does and counts at full speed: the SIMD engine counts the
/// stream as one, and SplitRescanCorrector adds the words GNU's re-reading
/// makes at its read boundaries. Other multibyte locales take the oracle.
template <class ReadFunction>
CountResult count_with_gnu_reads(const CountOptions &options, ReadFunction &&read) {
  if (options.encoding != Encoding::utf8) return count_with_gnu_reads_reference(options, read);
  const std::size_t read_size = options.gnu_split_rescan_read_size;
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(read_size);
  CountOptions contiguous = options;
  contiguous.gnu_split_rescan_read_size = 0;
  Counter counter(contiguous);
  SplitRescanCorrector corrector(options, locale::CharClasses::current());
  for (;;) {
    const ssize_t n = read(buffer.get(), read_size - corrector.carried_bytes());
    if (n > 0) {
      const auto size = static_cast<std::size_t>(n);
      counter.update({buffer.get(), size});
      corrector.on_read({reinterpret_cast<const std::uint8_t *>(buffer.get()), size});
    } else if (n == 0 || errno != EINTR) {
      const int error = n == 0 ? 0 : errno;
      Counts counts = error == 0 ? counter.finish() : counter.finish_after_error();
      counts.words += corrector.finish(error != 0);
      return {counts, error};
    }
  }
}

}  // namespace fastwc::count
