// SPDX-License-Identifier: GPL-3.0-or-later
// When counts depend on where GNU's reads end, and how large those reads
// are: the questions that decide whether a chunk summary may be used at all
// (engine/gnu_read_loop.hpp has the loops that read as GNU does).
#pragma once

#include <cstddef>

#include "fastwc/options.hpp"

namespace fastwc::count {

/// True when GNU decodes the input at all: only -l and -c (wc_lines, or
/// the byte count) never look at characters, in any locale.
inline bool decodes_characters(const CountOptions &options) noexcept {
  const Selection &s = options.selection;
  return options.encoding != Encoding::single_byte && (s.chars || s.words || s.max_line_length);
}

/// True when the counts depend on GNU's read boundaries. In UTF-8: the
/// 9.5+ split rescan changes words. In other multibyte locales: its re-read bytes
/// can be characters of any kind, and in every version a stateful
/// converter may decode the last bytes of a read differently.
inline bool needs_gnu_read_boundaries(const CountOptions &options) noexcept {
  if (!decodes_characters(options)) return false;
  if (options.encoding == Encoding::other_multibyte)
    return options.gnu_split_rescan_read_size != 0 || options.gnu_multibyte_read_size != 0;
  return options.gnu_split_rescan_read_size != 0 && options.selection.words;
}

/// The size of GNU's reads when needs_gnu_read_boundaries(options).
inline std::size_t gnu_read_size(const CountOptions &options) noexcept {
  return options.gnu_split_rescan_read_size != 0 ? options.gnu_split_rescan_read_size
                                                 : options.gnu_multibyte_read_size;
}

}  // namespace fastwc::count
