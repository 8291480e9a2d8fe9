// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's write_counts(): " %*s" per column, the first without its space.
#include "out/count_line.hpp"

#include <charconv>
#include <cstring>

#include "out/quote.hpp"

namespace fastwc::out {

namespace {

void append_column(std::string &line, std::uint64_t value, int width) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  (void)ec;
  auto length = static_cast<int>(end - digits);
  if (!line.empty()) line.push_back(' ');
  if (length < width) line.append(static_cast<std::size_t>(width - length), ' ');
  line.append(digits, end);
}

}  // namespace

std::string format_count_line(const Counts &counts, const Selection &selection, int width,
                              const char *name) {
  std::string line;
  if (selection.lines) append_column(line, counts.lines, width);
  if (selection.words) append_column(line, counts.words, width);
  if (selection.chars) append_column(line, counts.chars, width);
  if (selection.bytes) append_column(line, counts.bytes, width);
  if (selection.max_line_length) append_column(line, counts.max_line_length, width);
  if (name) {
    line.push_back(' ');
    if (std::strchr(name, '\n')) {
      line.append(quote_file_name_for_diagnostic(name));
    } else {
      line.append(name);
    }
  }
  line.push_back('\n');
  return line;
}

}  // namespace fastwc::out
