// SPDX-License-Identifier: GPL-3.0-or-later
// The reference counting engine: GNU wc's three counting loops (per byte,
// UTF-8, and mbrtowc for other multibyte locales) restated one character at
// a time, with the state that must survive between two pieces of a stream.
// It is the oracle that every faster kernel is tested against, so it favours
// being obviously equal to wc.c over speed, and always computes every count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cwchar>
#include <span>

#include "fastwc/counts.hpp"
#include "fastwc/options.hpp"

namespace fastwc::locale {
class CharClasses;
}

namespace fastwc::count {

/// Counts one stream that arrives in pieces. The result never depends on
/// where the stream is split. Not thread-safe; distinct objects are
/// independent. options.selection is ignored: all five counts are computed.
class ReferenceCounter {
 public:
  /// Counts with the classes of the LC_CTYPE locale installed now.
  explicit ReferenceCounter(const CountOptions &options);
  /// Counts with the given classes, which must outlive the counter.
  ReferenceCounter(const CountOptions &options, const locale::CharClasses &classes) noexcept;

  /// Feeds the next piece. A multibyte character cut at the end of the
  /// piece is kept (at most 16 bytes) and completed by the next piece, as
  /// wc carries an incomplete character over to its next read().
  void update(std::span<const std::byte> bytes) noexcept;

  /// Ends the stream at end of input and returns its counts; the counter is
  /// reset for reuse. A multibyte sequence still incomplete is dropped under
  /// WordRule::printable_constituents (wc 9.1 simply stops reading) and, under
  /// WordRule::non_space_constituents, decoded again one byte at a time as
  /// encoding errors (wc 9.5: "a truncated sequence at EOF is treated the
  /// same way"), which makes it part of a word but never a character.
  Counts finish() noexcept;

  /// Ends a stream whose reading failed: the same as finish(), except that
  /// an incomplete multibyte sequence is dropped under every rule, because
  /// GNU's loops leave their read loop at once on a read error.
  Counts finish_after_error() noexcept;

  const CountOptions &options() const noexcept { return options_; }

  /// Bytes of an incomplete character carried to the next update(): GNU
  /// asks its next read() for that much less (see gnu_split_rescan_read_size).
  std::size_t carried_bytes() const noexcept { return pending_size_; }

 private:
  enum class Verdict : std::uint8_t { ok, invalid, incomplete };
  struct Decoded {
    Verdict verdict;
    std::size_t length;
    char32_t character;
  };

  /// Room for an incomplete character carried between pieces: MB_LEN_MAX
  /// in glibc. A longer "incomplete" prefix is an encoding error, as a
  /// prefix that fills wc's whole buffer is.
  static constexpr std::size_t pending_capacity = 16;

  /// GNU's multibyte loop as rewritten in 9.5 (mbrtoc32, words counted as
  /// they start), which the 9.5 word rule stands for; else 9.1's (8.30-9.4).
  bool rewritten_loop() const noexcept {
    return options_.word_rule == WordRule::non_space_constituents;
  }
  bool takes_ascii_shortcut(std::uint8_t byte) const noexcept;
  Decoded decode(const std::uint8_t *data, std::size_t size) noexcept;
  std::size_t consume(const std::uint8_t *data, std::size_t size, bool at_end) noexcept;
  void on_character(char32_t c, bool single_byte) noexcept;
  void on_encoding_error() noexcept;
  void end_word() noexcept;
  Counts finish_stream() noexcept;

  CountOptions options_;
  const locale::CharClasses *classes_;

  Counts counts_;
  bool in_word_ = false;
  std::uint64_t linepos_ = 0;  ///< the -L column of the current line
  /// wc's in_shift: the conversion state is not initial, so even an ASCII
  /// byte must go through mbrtowc (only stateful encodings).
  bool in_shift_ = false;
  std::mbstate_t state_{};  ///< mbrtowc state before the pending bytes
  /// The value wc's wide_char holds before the next mbrtowc call: the
  /// last character (9.1) or the last one mbrtoc32 decoded (9.5+).
  char32_t last_character_ = 0;
  std::array<std::uint8_t, pending_capacity> pending_{};
  std::size_t pending_size_ = 0;
  /// Encoding errors to add after the carried character completes (the
  /// GNU >= 9.5 split rescan); 0 when it is off or already settled.
  std::size_t rescan_after_carried_character_ = 0;
};

}  // namespace fastwc::count
