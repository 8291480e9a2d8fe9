// SPDX-License-Identifier: GPL-3.0-or-later
// GNU >= 9.5's split rescan as a correction on top of any exact
// counter (CountOptions::gnu_split_rescan_read_size): when a read() ends
// inside a UTF-8 character that the next read completes, GNU re-reads that
// character's trailing bytes as encoding errors. Those phantom errors are
// word characters, so they start a word after a separator; the word is a
// real extra one only when the next real unit does not start a word anyway.
// Hence exactly one extra word when the split character is a separator and
// is followed by a separator or by end of input. Phantoms never change
// lines, characters, bytes or widths.
//
// Where GNU's reads end depends on the input: the caller reads as GNU does
// (the read size less carried_bytes()) and reports each read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "fastwc/options.hpp"

namespace fastwc::locale {
class CharClasses;
}

namespace fastwc::count {

/// Follows a UTF-8 stream read by read and counts GNU's extra words.
/// Not thread-safe; cheap (a few dozen bytes of state).
class SplitRescanCorrector {
 public:
  SplitRescanCorrector(const CountOptions &options, const locale::CharClasses &classes) noexcept;

  /// The longest prefix glibc calls incomplete: a six-byte form less one
  /// byte. GNU never carries more.
  static constexpr std::size_t max_carry = 5;
  /// Enough to decide one split character and the unit after it.
  static constexpr std::size_t decision_bytes = 12;

  /// The next read's bytes, in stream order (never empty).
  void on_read(std::span<const std::uint8_t> bytes) noexcept;

  /// The same from the ends of a read of `read_bytes` bytes alone, all that
  /// the correction looks at: its first min(read_bytes, decision_bytes)
  /// bytes and its last min(read_bytes, max_carry) (which may overlap). This lets a caller that
  /// counted the bytes elsewhere walk GNU's read boundaries of a file.
  void on_read_ends(std::span<const std::uint8_t> head, std::span<const std::uint8_t> tail,
                    std::size_t read_bytes) noexcept;

  /// Bytes of an incomplete character at the end of the last read: GNU
  /// moves them to the front of its buffer and asks read() for that much
  /// less.
  std::size_t carried_bytes() const noexcept { return carried_; }

  /// Ends the stream (end of input, or a read error: GNU stops reading
  /// either way) and returns the extra words. after_error: reading failed,
  /// so an incomplete sequence at the end is dropped (GNU leaves its loop
  /// at once) instead of being read as encoding errors, which start a word.
  std::uint64_t finish(bool after_error = false) noexcept;

 private:
  /// Decides what the bytes at hand allow, in stream order.
  void resolve(bool at_end, bool after_error = false) noexcept;
  void append(const std::uint8_t *data, std::size_t size) noexcept;
  void trim_window() noexcept;
  bool is_separator_unit(std::uint64_t at, bool at_end, bool after_error,
                         bool &decided) const noexcept;
  std::uint8_t byte_at(std::uint64_t position) const noexcept {
    return window_[static_cast<std::size_t>(position - window_start_)];
  }

  const locale::CharClasses &classes_;
  WordRule word_rule_;
  bool nbsp_separates_;
  Utf8Decoding decoding_;

  /// A contiguous suffix of the stream: the last bytes, and everything from
  /// the start of the oldest undecided split character.
  std::array<std::uint8_t, 64> window_{};
  std::uint64_t window_start_ = 0;  ///< stream offset of window_[0]
  std::uint64_t end_ = 0;           ///< stream offset after the last byte read
  /// Stream offsets of split characters not decided yet (at most two: one
  /// waiting for the unit after it, which may itself be split).
  std::array<std::uint64_t, 4> pending_{};
  std::size_t pending_count_ = 0;
  std::size_t carried_ = 0;
  std::uint64_t extra_words_ = 0;
};

}  // namespace fastwc::count
