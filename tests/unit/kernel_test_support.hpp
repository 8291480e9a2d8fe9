// SPDX-License-Identifier: GPL-3.0-or-later
// What the kernel tests share (test_kernels.cpp, test_separator_words.cpp):
// the plans and requests every SIMD kernel is compared on, the comparison
// with the scalar kernel, and generators of test data.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../support/sweep_stride.hpp"
#include "count/dispatch.hpp"
#include "count/kernels/kernel.hpp"
#include "count/summary_ops.hpp"
#include "count/unit_classes.hpp"
#include "locale/char_classes.hpp"

namespace kernel_test {

using fastwc::WordRule;
using fastwc::count::BaselineTag;
using fastwc::count::KernelId;
using fastwc::count::UnitClasses;
using fastwc::count::UnitSummary;
using fastwc::count::kernels::BodyResult;
using fastwc::count::kernels::Plan;
using fastwc::count::kernels::Request;
using Acc = fastwc::count::Accumulate<BaselineTag>;

inline constexpr Plan all_plans[] = {
    Plan::newlines,          Plan::bytes_words,      Plan::bytes_width,
    Plan::bytes_words_width, Plan::utf8_chars,       Plan::utf8_words,
    Plan::utf8_width,        Plan::utf8_words_width, Plan::utf8_separator_words,
    Plan::utf8_lead_words,   Plan::utf8_lead_width};

inline const UnitClasses &unit_classes(bool utf8, WordRule rule, bool nbsp) {
  static const fastwc::locale::CharClasses c_locale("C");
  static const fastwc::locale::CharClasses utf8_locale("C.UTF-8");
  return UnitClasses::get(utf8 ? utf8_locale : c_locale, rule, nbsp);
}

/// GNU 9.5's UTF-8 classes of their own, with the census of separators
/// taken: of U+0080..U+FFFF alone (four-byte characters are decoded), or
/// of every plane (census_parts 1 and 2), so that the pattern kernels run
/// on small inputs; the process-wide ones take it only past 1 MiB.
inline const UnitClasses &census_classes(int census_parts, bool nbsp) {
  static const fastwc::locale::CharClasses utf8_locale("C.UTF-8");
  static UnitClasses *instances[2][2] = {};
  UnitClasses *&slot = instances[census_parts - 1][nbsp ? 1 : 0];
  if (slot == nullptr) {
    slot = new UnitClasses(utf8_locale, WordRule::non_space_constituents, nbsp);
    REQUIRE(slot->take_separator_census(census_parts == 2));
    REQUIRE(slot->separator_census(0) != nullptr);
    REQUIRE(slot->separator_census(0)->four_byte_clear == (census_parts == 2));
  }
  return *slot;
}

/// UTF-8 classes of their own with the census of word classes by cell
/// taken, so that the stride kernels (cells_in_stride.hpp) run on small
/// inputs; the process-wide ones take it only past 2 MiB.
inline const UnitClasses &cell_census_classes(WordRule rule, bool nbsp) {
  static const fastwc::locale::CharClasses utf8_locale("C.UTF-8");
  static UnitClasses *instances[2][2] = {};
  UnitClasses *&slot = instances[rule == WordRule::non_space_constituents ? 1 : 0][nbsp ? 1 : 0];
  if (slot == nullptr) {
    slot = new UnitClasses(utf8_locale, rule, nbsp);
    REQUIRE(slot->take_cell_census() != nullptr);
    REQUIRE(slot->cell_census(0) == slot->take_cell_census());
  }
  return *slot;
}

struct Case {
  Request request;
  std::string name;
};

inline std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const Plan plan : all_plans)
    for (const WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents})
      for (const bool nbsp : {true, false}) {
        if ((plan == Plan::utf8_separator_words || plan == Plan::utf8_words) &&
            rule == WordRule::non_space_constituents) {
          // GNU 9.5+'s words by separator patterns, without -m and with it
          // (separator_chars_in_stride.hpp), with each part of the census
          // here; below, with the process-wide classes, which take it only
          // once the tests have asked for 1 MiB.
          for (const int parts : {1, 2}) {
            const UnitClasses &classes = census_classes(parts, nbsp);
            Request r{plan, true, true, classes.a0_separates(), &classes};
            const std::string name =
                std::string(plan == Plan::utf8_words ? "separator chars census "
                                                     : "separator words census ") +
                (parts == 2 ? "all" : "bmp") + (nbsp ? " nbsp" : "");
            out.push_back({r, name});
            r.utf8_decoding = fastwc::Utf8Decoding::rfc3629;
            out.push_back({r, name + " rfc3629"});
          }
        }
        if (plan == Plan::utf8_separator_words && rule != WordRule::non_space_constituents)
          continue;
        // GNU 9.1's plan; 9.5's words without -m go by separator patterns.
        if (plan == Plan::utf8_lead_words && rule != WordRule::printable_constituents) continue;
        if (plan == Plan::utf8_words || plan == Plan::utf8_lead_words || plan == Plan::utf8_width ||
            plan == Plan::utf8_words_width || plan == Plan::utf8_lead_width) {
          // Words and widths in stride, with the census by cell.
          const UnitClasses &classes = cell_census_classes(rule, nbsp);
          Request r{plan, rule == WordRule::non_space_constituents, true, classes.a0_separates(),
                    &classes};
          const std::string name = std::string("cells ") +
                                   (plan == Plan::utf8_lead_words    ? "leads "
                                    : plan == Plan::utf8_lead_width  ? "leads width "
                                    : plan == Plan::utf8_width       ? "width "
                                    : plan == Plan::utf8_words_width ? "words width "
                                                                     : "") +
                                   (r.rule95 ? "9.5" : "9.1") + (nbsp ? " nbsp" : "");
          out.push_back({r, name});
          if (r.rule95) {
            r.utf8_decoding = fastwc::Utf8Decoding::rfc3629;
            out.push_back({r, name + " rfc3629"});
          }
        }
        const bool utf8 = fastwc::count::kernels::decodes_utf8(plan);
        const UnitClasses &classes = unit_classes(utf8, rule, nbsp);
        REQUIRE(classes.ascii_matches_c_locale());
        REQUIRE((utf8 || classes.bytes_match_c_locale()));
        Request r{plan, rule == WordRule::non_space_constituents, true, classes.a0_separates(),
                  &classes};
        const std::string name = "plan " + std::to_string(static_cast<int>(plan)) +
                                 (r.rule95 ? " 9.5" : " 9.1") + (nbsp ? " nbsp" : "");
        out.push_back({r, name});
        // GNU 9.11+ (which has the 9.5 rule) decodes with RFC 3629's rules.
        if (utf8 && r.rule95) {
          r.utf8_decoding = fastwc::Utf8Decoding::rfc3629;
          out.push_back({r, name + " rfc3629"});
        }
      }
  return out;
}

inline std::vector<KernelId> simd_kernels() {
  std::vector<KernelId> out;
  for (const KernelId id : fastwc::count::all_kernels)
    if (id != KernelId::scalar && fastwc::count::kernel_supported(id)) out.push_back(id);
  return out;
}

/// The UTF-8 form of a code point from U+0080 to U+10FFFF.
inline void append_utf8(std::string &s, char32_t c) {
  if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  }
  s += static_cast<char>(0x80 | (c & 0x3F));
}

struct Outcome {
  UnitSummary units;
  std::size_t tail;
  friend bool operator==(const Outcome &, const Outcome &) = default;
};

inline Outcome run(KernelId id, const Request &r, const std::uint8_t *data, std::size_t size) {
  const BodyResult result = fastwc::count::kernel_function(id)(r, data, size);
  return {Acc::finish(result.acc), result.tail_size};
}

inline std::string describe(const Outcome &o) {
  const auto &u = o.units;
  return "lines " + std::to_string(u.lines) + " chars " + std::to_string(u.chars) + " words " +
         std::to_string(u.words.words) + "/" + std::to_string(static_cast<int>(u.words.first)) +
         std::to_string(static_cast<int>(u.words.last)) + " L head " +
         std::to_string(u.width.head.a) + "," + std::to_string(u.width.head.b) +
         (u.width.head.has_tab ? "t" : "") + " max " + std::to_string(u.width.inner_max) +
         " tail " + std::to_string(u.width.tail) + (u.width.has_break ? " br" : "") + " utf8tail " +
         std::to_string(o.tail);
}

/// Comparisons made so far (each test case checks that it made some).
inline std::uint64_t comparisons = 0;

/// Compares every SIMD kernel with the scalar one on data[0, size).
inline void check_all(const std::uint8_t *data, std::size_t size, const std::vector<Case> &cases) {
  for (const Case &c : cases) {
    const Outcome expected = run(KernelId::scalar, c.request, data, size);
    for (const KernelId id : simd_kernels()) {
      const Outcome got = run(id, c.request, data, size);
      ++comparisons;
      if (!(got == expected)) {
        CAPTURE(c.name);
        // A std::string: doctest shows a const char * as its address.
        const std::string kernel = fastwc::count::kernel_id_name(id);
        CAPTURE(kernel);
        CAPTURE(size);
        CHECK(describe(got) == describe(expected));
        REQUIRE(got == expected);
      }
    }
  }
}

/// The data at the very end of a heap block of its exact size.
inline void check_exact(std::string_view s, const std::vector<Case> &cases) {
  std::vector<std::uint8_t> exact(s.begin(), s.end());
  check_all(exact.data(), exact.size(), cases);
}

enum class Style { newlines, spaces, x80, xff, ascii, text, utf8, invalid, binary };

inline std::string make(Style style, std::size_t size, std::mt19937 &rng) {
  std::string s;
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> ascii(0, 127);
  std::uniform_int_distribution<std::size_t> pick(0, 1 << 20);
  static constexpr std::string_view text[] = {"the ", "cat\t", "sat\n",  "  ", "on\r\n",
                                              "a\f",  "mat.",  "x\001y", "\v", "12345678\t|"};
  static constexpr std::string_view intl[] = {"é",      "Ж",      "中",     "😀",      "\u00a0",
                                              "\u2028", "\u3000", "\u0378", "\u200b", "a",
                                              " ",      "\n",     "\t",     "\u0301", "\uffff"};
  static constexpr std::string_view bad[] = {"\377",
                                             "\200",
                                             "\344\270",
                                             "\300\200",
                                             "\355\240\200",
                                             "\364\220\200\200",
                                             "\370\210\200\200\200",
                                             "a",
                                             "\375\277\277\277\277\277",
                                             "b ",
                                             "\360\237\230",
                                             "\364\217\277\277",
                                             "\365\200\200\200",
                                             "\364\220",
                                             "\367\277\277\277",
                                             "\340\200",
                                             "\360\200\200"};
  while (s.size() < size) {
    switch (style) {
      case Style::newlines:
        s += '\n';
        break;
      case Style::spaces:
        s += ' ';
        break;
      case Style::x80:
        s += '\x80';
        break;
      case Style::xff:
        s += '\xff';
        break;
      case Style::ascii:
        s += static_cast<char>(ascii(rng));
        break;
      case Style::text:
        s += text[pick(rng) % std::size(text)];
        break;
      case Style::utf8:
        s += intl[pick(rng) % std::size(intl)];
        break;
      case Style::invalid:
        s += pick(rng) % 3 == 0 ? bad[pick(rng) % std::size(bad)]
                                : intl[pick(rng) % std::size(intl)];
        break;
      case Style::binary:
        s += static_cast<char>(byte(rng));
        break;
    }
  }
  s.resize(size);
  return s;
}

inline constexpr Style all_styles[] = {Style::newlines, Style::spaces,  Style::x80,
                                       Style::xff,      Style::ascii,   Style::text,
                                       Style::utf8,     Style::invalid, Style::binary};

}  // namespace kernel_test
