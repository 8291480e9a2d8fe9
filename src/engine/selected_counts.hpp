// SPDX-License-Identifier: GPL-3.0-or-later
// The public API's promise about counts nobody asked for (engine.hpp): 0,
// whichever engine ran (the reference engine counts everything, the chunk
// engine only what is selected), except bytes, which every engine counts.
#pragma once

#include "fastwc/counts.hpp"

namespace fastwc::engine {

constexpr Counts keep_selected(Counts counts, const Selection &selection) noexcept {
  if (!selection.lines) counts.lines = 0;
  if (!selection.words) counts.words = 0;
  if (!selection.chars) counts.chars = 0;
  if (!selection.max_line_length) counts.max_line_length = 0;
  return counts;
}

}  // namespace fastwc::engine
