// SPDX-License-Identifier: GPL-3.0-or-later
// Every code point U+0080..U+10FFFF, and glibc's longer forms (values above
// U+10FFFF in four bytes, five- and six-byte forms, sampled), counted by
// every kernel in three layouts and compared with the reference engine in
// C.UTF-8: under GNU 9.1's and 9.5's word rules, with and without GNU's
// no-break spaces (POSIXLY_CORRECT), and with RFC 3629's decoder (9.11+).
// Each kernel classifies characters several ways (by lead byte, separator
// pattern, cell, table, one by one) depending on what it has learned, so
// every code point is counted both before and after the lead planes, the
// separator patterns, the table of planes 0 and 1 and the censuses of
// separators and of word classes by cell exist. Counts are
// compared per group of 64 code points, so one wrong class cannot hide
// behind another.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "../support/sweep_stride.hpp"
#include "count/chunk_summarizer.hpp"
#include "count/dispatch.hpp"
#include "count/reference_counter.hpp"
#include "count/unit_classes.hpp"
#include "locale/char_classes.hpp"

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;
using fastwc::count::KernelId;

const fastwc::locale::CharClasses &utf8_classes() {
  static const fastwc::locale::CharClasses classes("C.UTF-8");
  return classes;
}

/// The glibc encoding of any value below 2^31 (one to six bytes).
void append_utf8(std::string &s, std::uint32_t c) {
  if (c < 0x80) {
    s += static_cast<char>(c);
    return;
  }
  const unsigned length = c < 0x800       ? 2
                          : c < 0x10000   ? 3
                          : c < 0x200000  ? 4
                          : c < 0x4000000 ? 5
                                          : 6;
  static constexpr unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
  s += static_cast<char>(lead[length] | (c >> (6 * (length - 1))));
  for (unsigned k = length - 1; k-- > 0;) s += static_cast<char>(0x80 | ((c >> (6 * k)) & 0x3F));
}

/// Every code point; every 31st under a sanitizer (tests/support/sweep_stride.hpp).
constexpr std::uint32_t code_point_stride = sweep::stride(31);

/// The values tested: every code point but the surrogates, then samples of
/// the forms beyond U+10FFFF.
std::vector<std::uint32_t> values() {
  std::vector<std::uint32_t> out;
  for (std::uint32_t c = 0x80; c < 0x110000; c += code_point_stride)
    if (c < 0xD800 || c > 0xDFFF) out.push_back(c);
  for (std::uint32_t c = 0x110000; c < 0x200000; c += 4099) out.push_back(c);
  out.push_back(0x1FFFFF);
  for (std::uint32_t c = 0x200000; c < 0x80000000u; c += 0x10003) out.push_back(c);
  out.push_back(0x3FFFFFF);
  out.push_back(0x4000000);
  out.push_back(0x7FFFFFFF);
  return out;
}

/// Layout 0: each character between a letter and a space ("x<c> "), so
/// that its word class decides the count. Layout 1: the characters side by
/// side on lines of 64 (widths and characters). Layout 2: each character
/// straddling a 64-byte block boundary, after a tab and a letter.
std::string layout(int kind, std::span<const std::uint32_t> group) {
  std::string s;
  for (const std::uint32_t c : group) {
    if (kind == 0) {
      s += 'x';
      append_utf8(s, c);
      s += ' ';
    } else if (kind == 1) {
      append_utf8(s, c);
    } else {
      while (s.size() % 64 != 62) s += (s.size() % 64 == 10) ? '\t' : 'a';
      append_utf8(s, c);
      s += ' ';
    }
  }
  s += '\n';
  return s;
}

struct OptionSet {
  WordRule rule;
  bool nbsp;
  fastwc::Utf8Decoding decoding;
  const char *name;
};

constexpr OptionSet option_sets[] = {
    {WordRule::printable_constituents, true, fastwc::Utf8Decoding::glibc, "9.1"},
    {WordRule::printable_constituents, false, fastwc::Utf8Decoding::glibc, "9.1 POSIXLY_CORRECT"},
    {WordRule::non_space_constituents, true, fastwc::Utf8Decoding::glibc, "9.5"},
    {WordRule::non_space_constituents, false, fastwc::Utf8Decoding::glibc, "9.5 POSIXLY_CORRECT"},
    {WordRule::non_space_constituents, true, fastwc::Utf8Decoding::rfc3629, "9.11"},
};

/// Words alone (the separator patterns; 9.1's lead bytes), characters
/// alone, words and characters (in stride by cell), and all counts.
const Selection selections[] = {
    Selection{false, true, false, false, false}, Selection{false, false, true, false, false},
    Selection{false, true, true, false, false}, Selection{true, true, true, true, true}};

Counts selected(Counts c, const Selection &s) {
  if (!s.lines) c.lines = 0;
  if (!s.words) c.words = 0;
  if (!s.chars) c.chars = 0;
  if (!s.max_line_length) c.max_line_length = 0;
  return c;
}

/// Compares every kernel with the reference on every group of every layout.
void compare_all(const std::vector<std::uint32_t> &all) {
  for (const OptionSet &set : option_sets)
    for (const Selection &selection : selections) {
      CountOptions options;
      options.encoding = Encoding::utf8;
      options.selection = selection;
      options.word_rule = set.rule;
      options.nbsp_separates_words = set.nbsp;
      options.utf8_decoding = set.decoding;
      std::vector<fastwc::count::ChunkSummarizer> counters;
      std::vector<KernelId> ids;
      for (const KernelId id : fastwc::count::all_kernels)
        if (fastwc::count::kernel_supported(id)) {
          counters.emplace_back(options, utf8_classes(), id);
          ids.push_back(id);
        }
      std::uint64_t groups = 0;
      for (int kind = 0; kind < 3; ++kind)
        for (std::size_t at = 0; at < all.size(); at += 64) {
          const std::span<const std::uint32_t> group(all.data() + at,
                                                     std::min<std::size_t>(64, all.size() - at));
          const std::string text = layout(kind, group);
          const std::span<const std::byte> bytes(reinterpret_cast<const std::byte *>(text.data()),
                                                 text.size());
          fastwc::count::ReferenceCounter reference(options, utf8_classes());
          reference.update(bytes);
          const Counts want = selected(reference.finish(), selection);
          for (std::size_t k = 0; k < counters.size(); ++k) {
            const Counts got = counters[k].finish(counters[k].summarize(bytes));
            if (!(got == want)) {
              const std::string option_set = set.name;
              const std::string kernel = fastwc::count::kernel_id_name(ids[k]);
              CAPTURE(option_set);
              CAPTURE(kernel);
              CAPTURE(kind);
              CAPTURE(group.front());
              CHECK(got.words == want.words);
              CHECK(got.chars == want.chars);
              CHECK(got.lines == want.lines);
              REQUIRE(got.max_line_length == want.max_line_length);
            }
          }
          ++groups;
        }
      CHECK(groups > 3 * 17000 / code_point_stride);
    }
}

}  // namespace

TEST_CASE("kernels: every code point against the reference engine in C.UTF-8") {
  const std::vector<std::uint32_t> all = values();
  // First with whatever the process has learned so far, then with every
  // lead examined, every separator pattern known and the table built.
  compare_all(all);
  for (const OptionSet &set : option_sets) {
    const auto &units = fastwc::count::UnitClasses::get(utf8_classes(), set.rule, set.nbsp);
    units.resolve_all_leads();
    REQUIRE(units.build_bmp_table());
    // GNU 9.5+'s words without -m then go by the separators' byte patterns.
    REQUIRE(units.take_separator_census(true) == (set.rule == WordRule::non_space_constituents));
    // Words then go in stride over valid text, by cell.
    REQUIRE(units.take_cell_census() != nullptr);
  }
  compare_all(all);
}
