// SPDX-License-Identifier: GPL-3.0-or-later
// How to count: the selection, the character encoding of the active locale
// and the word rule of the GNU version being matched.
#pragma once

#include <cstdint>

#include "fastwc/counts.hpp"

namespace fastwc {

/// GNU wc changed what a word is in 9.5 (NEWS: "wc no longer fails to count
/// unprintable characters as parts of words").
enum class WordRule : std::uint8_t {
  /// GNU <= 9.4: separators end a word, printable non-space characters are
  /// word constituents, and everything else (controls, NUL, DEL, invalid
  /// bytes, non-printable characters) is transparent: it neither starts nor
  /// ends a word.
  printable_constituents,
  /// GNU >= 9.5: anything that is not white space (encoding errors included)
  /// is part of a word.
  non_space_constituents,
};

/// The character encoding of LC_CTYPE, as wc's choice of counting loop sees it.
enum class Encoding : std::uint8_t {
  single_byte,      ///< MB_CUR_MAX == 1 (C, POSIX, Latin-1, ...): chars == bytes
  utf8,             ///< a UTF-8 locale: fastwc's own decoder, identical to glibc's
  other_multibyte,  ///< any other multibyte locale: decoded with mbrtowc
};

/// Which UTF-8 decoder GNU wc's mbrtowc/mbrtoc32 calls run. coreutils 9.11
/// took gnulib's own decoder on glibc ("build: update to latest gnulib:
/// Pick up mbrto{c32,wc} optimizations on UTF-8 on GLIBC").
enum class Utf8Decoding : std::uint8_t {
  /// glibc's mbrtowc (GNU <= 9.10): also accepts the 5- and 6-byte forms and
  /// values up to 0x7FFFFFFF, and calls any prefix of continuation bytes
  /// incomplete, even one that can no longer become a character.
  glibc,
  /// gnulib's RFC 3629 decoder (GNU >= 9.11): at most U+10FFFF in at most
  /// four bytes, and a prefix that can no longer become a valid character
  /// is an encoding error at once.
  rfc3629,
};

struct CountOptions {
  Selection selection = Selection::gnu_default();
  Encoding encoding = Encoding::single_byte;
  WordRule word_rule = WordRule::printable_constituents;
  /// Encoding::utf8 only.
  Utf8Decoding utf8_decoding = Utf8Decoding::glibc;
  /// U+00A0, U+2007, U+202F and U+2060 separate words unless POSIXLY_CORRECT
  /// is set (GNU wc since 8.31).
  bool nbsp_separates_words = true;
  /// GNU >= 9.5's split rescan, still in 9.12: when a multibyte character is cut
  /// by a read() and completed by the next one, wc's loop goes on from the
  /// wrong place and re-reads the character's last bytes, one per byte that
  /// was carried over, as encoding errors: these start a word after white
  /// space (`wc -w` counts 2 for 262141 x's, a space and U+202F when the
  /// U+202F straddles the 256 KiB read boundary). 0 leaves the rescan out;
  /// otherwise it is GNU's read size (16 KiB in 9.5, 256 KiB from 9.6):
  /// count_fd() then reads as GNU does, and Counter::update() pieces stand
  /// for GNU's reads.
  std::uint32_t gnu_split_rescan_read_size = 0;
  /// GNU's read size in its multibyte loop (16 KiB before 9.6, 256 KiB
  /// from 9.6), for other multibyte locales: there a character can decode
  /// differently at the end of a read (TCVN's converter waits for a
  /// combining mark), so count_fd() reads as GNU does. 0: any reads.
  std::uint32_t gnu_multibyte_read_size = 0;

  friend bool operator==(const CountOptions &, const CountOptions &) = default;
};

/// Options for the locale currently installed with setlocale() and for the
/// environment (POSIXLY_CORRECT). The caller must have called
/// setlocale(LC_ALL, "") (or another locale) first, as wc does.
CountOptions options_for_current_locale(Selection selection, WordRule word_rule);

}  // namespace fastwc
