// SPDX-License-Identifier: GPL-3.0-or-later
// Standard output as GNU wc handles it: line-buffered so that each count
// line is written in one go, and checked for write errors either at exit
// (gnulib close_stdout, GNU <= 9.9) or after every line (GNU >= 9.10).
#pragma once

#include <string_view>

namespace fastwc::out {

/// Makes stdout line-buffered and registers the exit-time check. Call once,
/// early in main().
void prepare_stdout(bool diagnose_write_errors_at_once) noexcept;

/// Registers what must run before a fatal write error exits the process
/// (stopping helper threads); nullptr for nothing.
void set_before_fatal_exit(void (*hook)()) noexcept;

/// Writes one complete output line. Under the 9.10 rule a failed write ends
/// the process at once with "PROGRAM: write error: <strerror>".
void write_line(std::string_view line) noexcept;

}  // namespace fastwc::out
