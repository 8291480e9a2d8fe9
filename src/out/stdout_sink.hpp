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

/// Writes one complete output line. false: under the 9.10 rule the write
/// failed and "PROGRAM: write error: <strerror>" was printed; the caller
/// must then exit with status 1 at once, as GNU does.
[[nodiscard]] bool write_line(std::string_view line) noexcept;

}  // namespace fastwc::out
