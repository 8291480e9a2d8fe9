// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the byte table of a locale and fills the cached blocks of wide
// character classes from the C library (see char_classes.hpp for the
// threading scheme), and states GNU wc's word and width rules on top.
#include "locale/char_classes.hpp"

#include <langinfo.h>
#include <wchar.h>   // wcwidth (POSIX, not in <cwchar>)
#include <wctype.h>  // iswspace_l (POSIX, not in <cwctype>)

#include <cctype>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>

namespace fastwc::locale {

namespace {

/// The explicit cases of GNU's switch (wc.c), which come before any
/// locale-dependent test: all of them separate words.
constexpr bool is_switch_separator(char32_t c) noexcept {
  return c == '\n' || c == '\r' || c == '\f' || c == '\t' || c == ' ' || c == '\v';
}

/// Asks the C library about one character; the caller has made the wanted
/// locale current with ScopedLocale.
CharInfo ask_c_library(char32_t c) noexcept {
  const auto wide = static_cast<wint_t>(c);
  return CharInfo::make(std::iswspace(wide) != 0, std::iswprint(wide) != 0, is_gnu_nbsp(c),
                        wcwidth(static_cast<wchar_t>(c)));
}

}  // namespace

ScopedLocale::ScopedLocale(locale_t locale) noexcept : previous_(uselocale(locale)) {}

ScopedLocale::~ScopedLocale() { uselocale(previous_); }

CharClasses::CharClasses(const char *locale_name) {
  locale_ = newlocale(LC_CTYPE_MASK, locale_name, static_cast<locale_t>(nullptr));
  if (locale_ == static_cast<locale_t>(nullptr))
    throw std::runtime_error(std::string("unknown locale: ") + locale_name);

  const ScopedLocale scope(locale_);
  mb_cur_max_ = MB_CUR_MAX;
  // glibc's C/POSIX locale rejects bytes >= 0x80, but gnulib's btoc32 (GNU
  // 9.5+) decodes them there as the code points U+0080..U+00FF, so byte 0xA0
  // is a no-break space in the C locale: `printf 'a\xa0b' | LC_ALL=C wc -w`
  // prints 2 under 9.7 and 9.10 (1 with POSIXLY_CORRECT). Under 9.1 the byte
  // is not printable and hence transparent, so the rule changes nothing there.
  const bool c_locale = std::strcmp(nl_langinfo(CODESET), "ANSI_X3.4-1968") == 0;
  for (int b = 0; b < 256; ++b) {
    // wc's isnbspace(c) is iswnbspace(btowc(c)) (9.1), btoc32 in 9.5.
    wint_t wide = btowc(b);
    if (wide == WEOF && c_locale) wide = static_cast<wint_t>(b);
    const bool nbsp = wide != WEOF && is_gnu_nbsp(static_cast<char32_t>(wide));
    const bool print = std::isprint(b) != 0;
    byte_table_[static_cast<std::size_t>(b)] =
        CharInfo::make(std::isspace(b) != 0, print, nbsp, print ? 1 : 0);
  }
}

CharClasses::~CharClasses() { freelocale(locale_); }

const CharClasses &CharClasses::current() {
  // Never destroyed: counters in other threads may still use an instance
  // while static destructors run at exit.
  static auto *const instances = new std::map<std::string, std::unique_ptr<CharClasses>>();
  static std::mutex mutex;

  const char *name = std::setlocale(LC_CTYPE, nullptr);
  const std::string key = name != nullptr ? name : "C";
  const std::lock_guard<std::mutex> lock(mutex);
  auto &slot = (*instances)[key];
  if (!slot) slot = std::make_unique<CharClasses>(key.c_str());
  return *slot;
}

CharInfo CharClasses::compute_wide(char32_t c) const noexcept {
  const ScopedLocale scope(locale_);
  return ask_c_library(c);
}

CharInfo CharClasses::wide_info(char32_t c) const noexcept {
  if (const CharInfo *known = wide_.find(c)) return *known;
  if (c >= cached_limit) return compute_wide(c);
  const auto *block = [&] {
    // One uselocale() for the whole block, not one per character.
    const ScopedLocale scope(locale_);
    return wide_.fill(c >> block_bits,
                      [](std::size_t key) { return ask_c_library(static_cast<char32_t>(key)); });
  }();
  if (block == nullptr) return compute_wide(c);
  return (*block)[c & ((1u << block_bits) - 1)];
}

std::size_t CharClasses::wide_spaces(char32_t first, char32_t last, char32_t *out,
                                     std::size_t capacity) const noexcept {
  std::size_t found = 0;
  for (char32_t c = first; c <= last && c < cached_limit; ++c) {
    if (iswspace_l(static_cast<wint_t>(c), locale_) == 0) continue;
    if (found < capacity) out[found] = c;
    ++found;
  }
  return found;
}

WordClass CharClasses::byte_word_class(unsigned char byte, WordRule rule,
                                       bool nbsp_separates) const noexcept {
  if (is_switch_separator(byte)) return WordClass::separator;
  const CharInfo info = byte_table_[byte];
  const bool spacelike = info.space() || (nbsp_separates && info.nbsp());
  if (rule == WordRule::printable_constituents) {
    // 9.1: if (isprint (c)) { if (isspace (c) || isnbspace (c)) separator;
    // else in_word = true; } and nothing for other bytes.
    if (!info.print()) return WordClass::transparent;
    return spacelike ? WordClass::separator : WordClass::constituent;
  }
  // 9.5: in_word2 = !wc_isspace[c], wc_isspace[c] = isspace (c) ||
  // iswnbspace (btoc32 (c)); printability no longer matters.
  return spacelike ? WordClass::separator : WordClass::constituent;
}

WordClass CharClasses::wide_word_class(char32_t c, WordRule rule,
                                       bool nbsp_separates) const noexcept {
  if (is_switch_separator(c)) return WordClass::separator;
  const CharInfo info = wide_info(c);
  const bool spacelike = info.space() || (nbsp_separates && info.nbsp());
  if (rule == WordRule::printable_constituents) {
    // 9.1: if (iswprint (wc)) { ...; if (iswspace (wc) || iswnbspace (wc))
    // separator; else in_word = true; }, so U+2028 (space, not printable)
    // is transparent.
    if (!info.print()) return WordClass::transparent;
    return spacelike ? WordClass::separator : WordClass::constituent;
  }
  // 9.5: in_word2 = !c32isspace (wc) && !maybe_c32isnbspace (wc).
  return spacelike ? WordClass::separator : WordClass::constituent;
}

unsigned CharClasses::wide_width(char32_t c, WordRule rule) const noexcept {
  const CharInfo info = wide_info(c);
  // 9.1 asks wcwidth only under iswprint; 9.5 asks c32width directly.
  if (rule == WordRule::printable_constituents && !info.print()) return 0;
  return info.width();
}

}  // namespace fastwc::locale
