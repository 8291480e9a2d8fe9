// SPDX-License-Identifier: GPL-3.0-or-later
// Text dense in what GNU 9.5+'s split rescan is about, so that most of
// GNU's read boundaries cut a character: multibyte separators (printable
// spaces, no-break spaces, U+1680, U+2028, U+2060), constituents, ASCII
// spaces, invalid and truncated sequences, and the forms only glibc's
// decoder takes (5 bytes, surrogates, above U+10FFFF). For the unit and io
// suites' tests of the rescan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace fastwc::testing {

/// `size` bytes of such text; the same `seed` gives the same text.
inline std::string split_rescan_text(std::size_t size, std::uint32_t seed) {
  static constexpr std::string_view pieces[] = {" ",
                                                "\n",
                                                "\t",
                                                "x",
                                                "yz",
                                                "\xc2\xa0",
                                                "\xe2\x80\xaf",
                                                "\xe2\x80\x83",
                                                "\xe3\x80\x80",
                                                "\xe2\x80\xa8",
                                                "\xe4\xb8\xad",
                                                "\xf0\x9f\x98\x80",
                                                "\xc3\xa9",
                                                "\xff",
                                                "\xe2\x80",
                                                "\xf8\x88\x80\x80\x80",
                                                "\xed\xa0\x80",
                                                "\xe1\x9a\x80",
                                                "\xe2\x81\xa0",
                                                "\xe0\x80",
                                                "\xf4\x90\x80\x80",
                                                "\xf4\x8f\xbf\xbf",
                                                "\xf5\x80"};
  std::string text;
  std::uint32_t state = seed * 2654435761u + 1;
  while (text.size() < size) {
    state = state * 1664525u + 1013904223u;
    text += pieces[(state >> 8) % std::size(pieces)];
  }
  text.resize(size);
  return text;
}

}  // namespace fastwc::testing
