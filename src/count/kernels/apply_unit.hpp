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
      // No branch on the class, which text changes every few units (GCC
      // made compares here branches again): arithmetic on the class bits,
      // which are the WordEdge a separator or a constituent leaves.
      static_assert(unit_props::separator == static_cast<unsigned>(WordEdge::separator) &&
                    unit_props::constituent == static_cast<unsigned>(WordEdge::constituent));
      const unsigned edge = props & unit_props::word_mask;
      WordSummary &w = acc.summary.words;
      if (w.first == WordEdge::none) w.first = static_cast<WordEdge>(edge);
      const unsigned last = static_cast<unsigned>(w.last);
      w.words += (edge >> 1) & ~(last >> 1);               // a constituent after no constituent
      const unsigned transparent = ((edge + 3) >> 2) - 1;  // all ones for edge 0, else 0
      w.last = static_cast<WordEdge>(edge | (last & transparent));
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
