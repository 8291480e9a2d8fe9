// SPDX-License-Identifier: GPL-3.0-or-later
// fastwc's own --help and --version texts (GNU leaves these to each
// implementation; the differential tests do not compare them).
#pragma once

#include "cli/compat.hpp"

namespace fastwc::cli {

/// Prints the help text on stdout; returns the exit status (0).
int print_help(const Compat &compat);
/// Prints the version text on stdout; returns the exit status (0).
int print_version(const Compat &compat);

}  // namespace fastwc::cli
