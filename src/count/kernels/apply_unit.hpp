// SPDX-License-Identifier: GPL-3.0-or-later
// One unit's properties (unit_classes.hpp) applied to a UnitAccumulator:
// the scalar step shared by the scalar kernel, the exact UTF-8 path and the
// merge of chunk summaries. A template over the instruction-set tag like
// everything in summary_ops.hpp.
#pragma once

#include <cstdint>

#include "count/summary_ops.hpp"
#include "count/unit_classes.hpp"

namespace fastwc::count {

template <class Tag, bool Words, bool Width>
struct ApplyUnit {
  using Acc = Accumulate<Tag>;

  /// Counts a 0x0A, and the word and -L effects when the plan asks for them.
  static constexpr void apply(UnitAccumulator &acc, std::uint8_t props) noexcept {
    acc.summary.lines += (props & unit_props::newline) != 0 ? 1 : 0;
    if constexpr (Words) {
      if ((props & unit_props::separator) != 0)
        Acc::separator(acc);
      else if ((props & unit_props::constituent) != 0)
        Acc::constituent(acc);
    }
    if constexpr (Width) {
      if ((props & unit_props::tab) != 0)
        Acc::tab(acc);
      else if ((props & unit_props::line_break) != 0)
        Acc::line_break(acc);
      else
        Acc::width(acc, (props & unit_props::width_mask) >> unit_props::width_shift);
    }
  }
};

}  // namespace fastwc::count
