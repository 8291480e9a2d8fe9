// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc --debug's line about the hardware support its line-counting loop
// uses ("using avx2 hardware support"), as the matched version words it.
#pragma once

#include "cli/compat.hpp"

namespace fastwc::app {

/// Prints the line (two under 9.9+ without AVX-512) on stderr.
void report_hardware_support(const cli::Compat &compat);

}  // namespace fastwc::app
