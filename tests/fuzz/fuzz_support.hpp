// SPDX-License-Identifier: GPL-3.0-or-later
// Shared pieces of the libFuzzer targets (tests/fuzz/): decoding the
// fuzzer's bytes into counting options, the locale those options need, and
// the oracle (count::ReferenceCounter) with its counts shaped as the fast
// engines report them. A failed check aborts, which libFuzzer records as a
// crash together with the input that caused it.
#pragma once

#include <clocale>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "count/chunk_summarizer.hpp"
#include "count/dispatch.hpp"
#include "count/reference_counter.hpp"
#include "fastwc/engine.hpp"
#include "locale/char_classes.hpp"

namespace fastwc_fuzz {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;

/// Reads the fuzzer's bytes front to back; past the end every value is 0,
/// so that any input, even an empty one, decodes to something.
class Input {
 public:
  Input(const std::uint8_t *data, std::size_t size) noexcept : data_(data), size_(size) {}
  std::uint8_t byte() noexcept { return used_ < size_ ? data_[used_++] : 0; }
  std::uint16_t u16() noexcept {
    const std::uint16_t low = byte();
    return static_cast<std::uint16_t>(low | (byte() << 8));
  }
  /// What is left: the text to count.
  std::span<const std::byte> rest() const noexcept {
    return {reinterpret_cast<const std::byte *>(data_ + used_), size_ - used_};
  }

 private:
  const std::uint8_t *data_;
  std::size_t size_;
  std::size_t used_ = 0;
};

/// One option byte: bit 0 the locale (C or C.UTF-8), bit 1 the word rule
/// (GNU <= 9.4 or >= 9.5), bit 2 POSIXLY_CORRECT (no-break spaces join
/// words), bits 3-7 the selection -l -w -m -c -L. Every combination GNU wc
/// can be asked for is reachable, so the fuzzer explores the kernels' plans.
inline CountOptions decode_options(std::uint8_t bits) noexcept {
  CountOptions options;
  options.encoding = (bits & 1) != 0 ? Encoding::utf8 : Encoding::single_byte;
  options.word_rule =
      (bits & 2) != 0 ? WordRule::non_space_constituents : WordRule::printable_constituents;
  options.nbsp_separates_words = (bits & 4) == 0;
  options.selection.lines = (bits & 8) != 0;
  options.selection.words = (bits & 16) != 0;
  options.selection.chars = (bits & 32) != 0;
  options.selection.bytes = (bits & 64) != 0;
  options.selection.max_line_length = (bits & 128) != 0;
  return options;
}

/// Installs the locale the options stand for as the global one (the public
/// Counter and count_with_gnu_reads take their classes from it) and returns
/// its classes. Both locales exist in every glibc since 2.35.
inline const fastwc::locale::CharClasses &use_locale(const CountOptions &options) {
  const char *name = options.encoding == Encoding::utf8 ? "C.UTF-8" : "C";
  if (std::setlocale(LC_ALL, name) == nullptr) {
    std::fprintf(stderr, "fuzz: setlocale(LC_ALL, \"%s\") failed\n", name);
    std::abort();
  }
  return fastwc::locale::CharClasses::current();
}

/// The oracle's counts shaped as ChunkSummarizer and the public Counter report
/// them: unselected counts are 0, bytes is always exact.
inline Counts as_reported(Counts c, const Selection &s) noexcept {
  if (!s.lines) c.lines = 0;
  if (!s.words) c.words = 0;
  if (!s.chars) c.chars = 0;
  if (!s.max_line_length) c.max_line_length = 0;
  return c;
}

inline std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

/// Aborts (a libFuzzer crash) when two counts differ, saying which engine
/// disagreed with the oracle.
inline void expect_equal(const Counts &actual, const Counts &expected, const char *what) {
  if (actual == expected) return;
  std::fprintf(stderr, "fuzz: %s: got %s, the reference counts %s\n", what, show(actual).c_str(),
               show(expected).c_str());
  std::abort();
}

inline void expect(bool condition, const char *what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz: %s\n", what);
  std::abort();
}

}  // namespace fastwc_fuzz
