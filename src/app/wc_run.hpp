// SPDX-License-Identifier: GPL-3.0-or-later
// The wc program proper: every input in order, each counted with the engine,
// its line printed, errors reported per input, then the total line.
#pragma once

#include "cli/args.hpp"
#include "cli/compat.hpp"

namespace fastwc::app {

/// Runs wc for a parsed command line and returns the exit status (0 or 1).
int run_wc(const cli::Config &config, const cli::Compat &compat);

}  // namespace fastwc::app
