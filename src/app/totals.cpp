// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/totals.hpp"

#include <cerrno>
#include <cstdint>
#include <limits>

#include "out/messages.hpp"

namespace fastwc::app {

void Totals::add(const Counts &c) noexcept {
  lines_overflowed_ |= __builtin_add_overflow(sums_.lines, c.lines, &sums_.lines);
  words_overflowed_ |= __builtin_add_overflow(sums_.words, c.words, &sums_.words);
  chars_overflowed_ |= __builtin_add_overflow(sums_.chars, c.chars, &sums_.chars);
  bytes_overflowed_ |= __builtin_add_overflow(sums_.bytes, c.bytes, &sums_.bytes);
  if (c.max_line_length > sums_.max_line_length) sums_.max_line_length = c.max_line_length;
}

Counts Totals::to_print(const Selection &selection, const cli::Compat &compat, bool &failed) const {
  Counts total = sums_;
  if (!compat.saturates_totals()) return total;
  // GNU 9.3+: a total that overflowed is shown saturated and diagnosed. GNU
  // checks every sum it kept, printed or not, and every one of its loops
  // counts bytes: -m in a single-byte locale (chars = bytes) reports "total
  // bytes" too. Its unprinted line, word and character sums can only
  // overflow after reading 16 EiB, so only the printed ones are checked.
  constexpr auto saturated = std::numeric_limits<std::uint64_t>::max();
  struct Check {
    bool overflowed;
    std::uint64_t *value;
    const char *what;
  };
  for (const Check &check :
       {Check{lines_overflowed_ && selection.lines, &total.lines, "total lines"},
        Check{words_overflowed_ && selection.words, &total.words, "total words"},
        Check{chars_overflowed_ && selection.chars, &total.chars, "total characters"},
        Check{bytes_overflowed_, &total.bytes, "total bytes"}}) {
    if (!check.overflowed) continue;
    *check.value = saturated;
    out::report(EOVERFLOW, out::translate(check.what));
    failed = true;
  }
  return total;
}

}  // namespace fastwc::app
