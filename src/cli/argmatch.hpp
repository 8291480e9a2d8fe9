// SPDX-License-Identifier: GPL-3.0-or-later
// gnulib's argmatch for the options that take one of a list of words
// (--total=WHEN, --io=BACKEND): an exact match, else a unique prefix, and
// argmatch_die's diagnostic for anything else.
#pragma once

#include <span>
#include <string_view>

namespace fastwc::cli {

/// The index of `argument` in `valid` (an exact match, else the one entry
/// it is a prefix of); -1 when it matches nothing, -2 when it is a prefix
/// of several.
int argmatch(std::string_view argument, std::span<const std::string_view> valid) noexcept;

/// gnulib argmatch_die: "invalid argument" or "ambiguous argument" for
/// `option` (as "--total"), the valid arguments one a line, then the usage
/// hint, on stderr.
void report_bad_argument(std::string_view argument, std::string_view option,
                         std::span<const std::string_view> valid, bool ambiguous);

}  // namespace fastwc::cli
