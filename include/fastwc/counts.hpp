// SPDX-License-Identifier: GPL-3.0-or-later
// The values wc reports for one input, and which of them a caller asked for.
// Dependency-free so that embedders, tests and fuzzers can use it alone.
#pragma once

#include <cstdint>

namespace fastwc {

/// The five quantities GNU wc can print for one input. max_line_length is a
/// display width (GNU's -L), not a byte length.
struct Counts {
  std::uint64_t lines = 0;
  std::uint64_t words = 0;
  std::uint64_t chars = 0;
  std::uint64_t bytes = 0;
  std::uint64_t max_line_length = 0;

  friend bool operator==(const Counts &, const Counts &) = default;
};

/// Which counts were requested (wc -l -w -m -c -L). The output column order
/// is always lines, words, chars, bytes, max_line_length, whatever the order
/// of the options.
struct Selection {
  bool lines = false;
  bool words = false;
  bool chars = false;
  bool bytes = false;
  bool max_line_length = false;

  /// GNU wc's default when no count option is given: -l -w -c.
  static constexpr Selection gnu_default() noexcept { return {true, true, false, true, false}; }
  static constexpr Selection all() noexcept { return {true, true, true, true, true}; }

  constexpr int count() const noexcept {
    return int(lines) + int(words) + int(chars) + int(bytes) + int(max_line_length);
  }
  constexpr bool empty() const noexcept { return count() == 0; }

  friend bool operator==(const Selection &, const Selection &) = default;
};

/// The result of counting a file: when error is non-zero (an errno value),
/// counts hold what was counted before the error, as GNU wc prints them.
struct CountResult {
  Counts counts;
  int error = 0;
};

}  // namespace fastwc
