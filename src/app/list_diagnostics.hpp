// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's diagnostics about the names of a --files0-from list (and an
// empty operand): names that are refused without being opened, and a list
// that cannot be read to its end.
#pragma once

#include <cstddef>
#include <string>

#include "cli/args.hpp"
#include "cli/compat.hpp"

namespace fastwc::app {

/// false, after GNU's diagnostic, for a name that is not counted: "-" in a
/// list read from standard input, and the empty name (`position`: its
/// 1-based place in the list, which the diagnostic names).
bool name_is_countable(const std::string &name, const cli::Config &config,
                       const cli::Compat &compat, std::size_t position);

/// "F: read error" for the list named by --files0-from, with `errnum`.
void report_list_read_error(const cli::Config &config, int errnum);

}  // namespace fastwc::app
