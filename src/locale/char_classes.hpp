// SPDX-License-Identifier: GPL-3.0-or-later
// Character classes of one LC_CTYPE locale, as GNU wc sees them: isspace,
// isprint and the no-break-space rule for bytes, iswspace, iswprint and
// wcwidth for wide characters, and what they mean for each word rule and
// for -L. Everything comes from the C library; nothing is a typed-in table.
#pragma once

#include <locale.h>  // locale_t (POSIX, not in <clocale>)

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "fastwc/options.hpp"
#include "support/lazy_block_table.hpp"

namespace fastwc::locale {

/// What one character (or byte) does to wc's word state.
enum class WordClass : std::uint8_t {
  separator,    ///< ends the current word
  constituent,  ///< starts a word or continues the current one
  transparent,  ///< neither (GNU <= 9.4 only): a\001b is one word
};

/// The C library's view of one character, packed into a byte.
class CharInfo {
 public:
  static constexpr std::uint8_t space_bit = 1;  ///< isspace / iswspace
  static constexpr std::uint8_t print_bit = 2;  ///< isprint / iswprint
  /// U+00A0, U+2007, U+202F or U+2060 (for a byte: what btowc gives). Set
  /// whatever POSIXLY_CORRECT says; the rule functions apply that option.
  static constexpr std::uint8_t nbsp_bit = 4;
  static constexpr unsigned width_shift = 3;
  static constexpr std::uint8_t width_mask = 3u << width_shift;

  constexpr CharInfo() noexcept = default;
  constexpr explicit CharInfo(std::uint8_t bits) noexcept : bits_(bits) {}
  /// Packs the C library's answers; a negative wcwidth (non-printable) is
  /// stored as 0, as is every width GNU never adds.
  static constexpr CharInfo make(bool space, bool print, bool nbsp, int width) noexcept {
    const unsigned w = width <= 0 ? 0u : width >= 3 ? 3u : static_cast<unsigned>(width);
    return CharInfo(static_cast<std::uint8_t>((space ? space_bit : 0) | (print ? print_bit : 0) |
                                              (nbsp ? nbsp_bit : 0) | (w << width_shift)));
  }

  constexpr bool space() const noexcept { return (bits_ & space_bit) != 0; }
  constexpr bool print() const noexcept { return (bits_ & print_bit) != 0; }
  constexpr bool nbsp() const noexcept { return (bits_ & nbsp_bit) != 0; }
  /// wcwidth() when it is positive (glibc never exceeds 2), else 0. For a
  /// byte of a single-byte locale: 1 if isprint, else 0.
  constexpr unsigned width() const noexcept { return (bits_ & width_mask) >> width_shift; }
  constexpr std::uint8_t bits() const noexcept { return bits_; }

  friend constexpr bool operator==(CharInfo, CharInfo) = default;

 private:
  std::uint8_t bits_ = 0;
};

/// The four characters GNU wc (since 8.31) treats as word separators
/// although glibc does not call them spaces (wc.c: iswnbspace).
inline constexpr char32_t gnu_nbsp_chars[] = {0x00A0, 0x2007, 0x202F, 0x2060};

constexpr bool is_gnu_nbsp(char32_t c) noexcept {
  for (const char32_t nbsp : gnu_nbsp_chars)
    if (c == nbsp) return true;
  return false;
}

/// The classes of one LC_CTYPE locale.
///
/// Byte classes are computed in the constructor. Wide-character classes are
/// cached in blocks of 256 code points below U+110000, each filled on first
/// use (support::LazyBlockTable: readers never lock and never see a
/// half-filled block). Code points above U+10FFFF (glibc's 5- and 6-byte forms) are asked
/// of the C library on every use. The C library is always called under
/// uselocale() with this object's own locale, so the answers do not depend
/// on the global locale at the time a block is filled.
///
/// All const member functions may be called from several threads at once.
class CharClasses {
 public:
  /// Classes of the named locale's LC_CTYPE ("C", "C.UTF-8", ...). Throws
  /// std::runtime_error when the C library does not know the locale.
  explicit CharClasses(const char *locale_name);
  ~CharClasses();
  CharClasses(const CharClasses &) = delete;
  CharClasses &operator=(const CharClasses &) = delete;

  /// The instance for the LC_CTYPE that setlocale() has installed now. One
  /// instance per locale name is kept for the life of the process, so the
  /// reference stays valid and the caches are shared.
  static const CharClasses &current();

  /// MB_CUR_MAX of this locale.
  std::size_t mb_cur_max() const noexcept { return mb_cur_max_; }
  /// This locale, for calling locale-dependent C functions (see ScopedLocale).
  locale_t handle() const noexcept { return locale_; }

  /// The byte's isspace and isprint, and whether btowc maps it to one of
  /// the no-break spaces (only possible in single-byte locales, for example
  /// 0xA0 in ISO-8859-1).
  CharInfo byte_info(unsigned char byte) const noexcept { return byte_table_[byte]; }
  /// The character's iswspace, iswprint, wcwidth and no-break-space flag.
  CharInfo wide_info(char32_t c) const noexcept;

  /// The code points first..last (below U+110000) for which iswspace holds,
  /// in order: the first `capacity` of them in `out`, and how many there are.
  /// One walk asking the C library about each, without filling the cache
  /// (the census of word separators walks every code point once; glibc:
  /// about 0.5 ms for U+0080..U+FFFF, 5 ms for the planes above).
  std::size_t wide_spaces(char32_t first, char32_t last, char32_t *out,
                          std::size_t capacity) const noexcept;

  /// The word class of a byte in a single-byte locale (or of an ASCII byte
  /// in any locale), as GNU's per-byte loop decides it. nbsp_separates is
  /// CountOptions::nbsp_separates_words (false under POSIXLY_CORRECT).
  WordClass byte_word_class(unsigned char byte, WordRule rule, bool nbsp_separates) const noexcept;
  /// The word class of a decoded character, as GNU's multibyte loop
  /// decides it.
  WordClass wide_word_class(char32_t c, WordRule rule, bool nbsp_separates) const noexcept;
  /// The word class of a byte that does not decode (an encoding error, or
  /// under the 9.5 rule a byte of a sequence truncated by end of input).
  static constexpr WordClass invalid_word_class(WordRule rule) noexcept {
    return rule == WordRule::printable_constituents ? WordClass::transparent
                                                    : WordClass::constituent;
  }

  /// How far a byte moves the -L column, for bytes other than TAB, LF, CR
  /// and FF (which GNU handles first: next tab stop, or end of line).
  /// SPACE is 1 and VT 0 like any other byte: isprint decides.
  unsigned byte_width(unsigned char byte) const noexcept { return byte_table_[byte].width(); }
  /// How far a decoded character other than TAB, LF, CR and FF moves the
  /// -L column: wcwidth when positive, else 0 (9.1 also requires iswprint;
  /// 9.5 does not, which changes nothing in glibc, where every character
  /// with a positive width is printable).
  unsigned wide_width(char32_t c, WordRule rule) const noexcept;

  /// Code points below this bound are cached; above it they are computed.
  static constexpr char32_t cached_limit = 0x110000;
  /// 64 code points a block: text in a script with thousands of
  /// characters (CJK) touches a new block with nearly every character at
  /// first, and each costs a C library call a code point (measured: with
  /// 256, `fastwc -w` on 20 KB of Chinese 1.67 ms, with 64 1.57; GNU wc
  /// 1.48, its start-up alone 0.03 less than fastwc's).
  static constexpr unsigned block_bits = 6;

 private:
  CharInfo compute_wide(char32_t c) const noexcept;

  locale_t locale_ = nullptr;
  std::size_t mb_cur_max_ = 1;
  std::array<CharInfo, 256> byte_table_{};
  support::LazyBlockTable<CharInfo, block_bits, cached_limit> wide_;
};

/// Makes a locale the calling thread's locale (uselocale) for the life of
/// the object, for C functions without a _l variant (wcwidth, mbrtowc).
class ScopedLocale {
 public:
  explicit ScopedLocale(locale_t locale) noexcept;
  ~ScopedLocale();
  ScopedLocale(const ScopedLocale &) = delete;
  ScopedLocale &operator=(const ScopedLocale &) = delete;

 private:
  locale_t previous_;
};

}  // namespace fastwc::locale
