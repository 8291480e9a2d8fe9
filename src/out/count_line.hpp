// SPDX-License-Identifier: GPL-3.0-or-later
// One line of wc output: the selected counts in GNU's fixed column order,
// each right-aligned in the common width, then the name.
#pragma once

#include <string>

#include "fastwc/counts.hpp"

namespace fastwc::out {

/// Formats "counts[ name]\n". name may be null (standard input read without
/// an operand, or --total=only): then no name follows. A name containing a
/// newline is shell-quoted, as GNU wc has done since 8.25.
std::string format_count_line(const Counts &counts, const Selection &selection, int width,
                              const char *name);

}  // namespace fastwc::out
