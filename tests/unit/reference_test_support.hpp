// SPDX-License-Identifier: GPL-3.0-or-later
// What the reference counter's tests share: a global locale for a scope,
// options, and counting an input in given pieces.
#pragma once

#include <doctest/doctest.h>

#include <clocale>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/reference_counter.hpp"
#include "locale/char_classes.hpp"

namespace reference_test {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::WordRule;
using fastwc::count::ReferenceCounter;
using fastwc::locale::CharClasses;
using fastwc::locale::WordClass;

struct GlobalLocale {
  explicit GlobalLocale(const char *name) { REQUIRE(std::setlocale(LC_ALL, name) != nullptr); }
  ~GlobalLocale() { std::setlocale(LC_ALL, "C"); }
  GlobalLocale(const GlobalLocale &) = delete;
  GlobalLocale &operator=(const GlobalLocale &) = delete;
};

inline CountOptions make_options(Encoding encoding, WordRule rule, bool nbsp_separates = true) {
  CountOptions options;
  options.selection = fastwc::Selection::all();
  options.encoding = encoding;
  options.word_rule = rule;
  options.nbsp_separates_words = nbsp_separates;
  return options;
}

inline std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size()};
}

/// Counts `input` fed as the pieces that end at `cuts` (sorted offsets).
inline Counts count_pieces(std::string_view input, const CountOptions &options,
                           const std::vector<std::size_t> &cuts) {
  ReferenceCounter counter(options);
  std::size_t start = 0;
  for (std::size_t cut : cuts) {
    counter.update(as_bytes(input.substr(start, cut - start)));
    start = cut;
  }
  counter.update(as_bytes(input.substr(start)));
  return counter.finish();
}

inline Counts count_one(std::string_view input, const CountOptions &options) {
  return count_pieces(input, options, {});
}

inline Counts lwmcL(std::uint64_t l, std::uint64_t w, std::uint64_t m, std::uint64_t c,
                    std::uint64_t max) {
  return Counts{l, w, m, c, max};
}

inline std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

/// The settings a test runs under: locale, loop and word rule.
struct Setting {
  const char *name;
  const char *locale;
  CountOptions options;
};

inline std::vector<Setting> all_settings() {
  std::vector<Setting> settings;
  for (WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents}) {
    const bool v95 = rule == WordRule::non_space_constituents;
    settings.push_back({v95 ? "C 9.5" : "C 9.1", "C", make_options(Encoding::single_byte, rule)});
    settings.push_back(
        {v95 ? "UTF-8 9.5" : "UTF-8 9.1", "C.UTF-8", make_options(Encoding::utf8, rule)});
    settings.push_back({v95 ? "UTF-8 POSIXLY_CORRECT 9.5" : "UTF-8 POSIXLY_CORRECT 9.1", "C.UTF-8",
                        make_options(Encoding::utf8, rule, false)});
    settings.push_back({v95 ? "mbrtowc 9.5" : "mbrtowc 9.1", "C.UTF-8",
                        make_options(Encoding::other_multibyte, rule)});
  }
  return settings;
}

}  // namespace reference_test
