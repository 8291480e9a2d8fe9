// SPDX-License-Identifier: GPL-3.0-or-later
// The "total" line's counts: sums of every input's counts (max_line_length
// a maximum). GNU 9.1 wraps the sums silently; 9.3+ remembers which ones
// overflowed and shows them saturated, with a diagnostic.
#pragma once

#include "cli/compat.hpp"
#include "fastwc/counts.hpp"

namespace fastwc::app {

class Totals {
 public:
  void add(const Counts &counts) noexcept;

  /// The counts to print for `selection`. Under GNU 9.3+ (saturating
  /// totals) each overflowed sum GNU checks is saturated and reported
  /// ("total lines: Value too large..."); `failed` is then set.
  Counts to_print(const Selection &selection, const cli::Compat &compat, bool &failed) const;

 private:
  Counts sums_;
  bool lines_overflowed_ = false;
  bool words_overflowed_ = false;
  bool chars_overflowed_ = false;
  bool bytes_overflowed_ = false;
};

}  // namespace fastwc::app
