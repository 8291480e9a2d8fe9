// SPDX-License-Identifier: GPL-3.0-or-later
// What fastwc says on stderr about how it read an input: the silent
// fallbacks (no io_uring, buffers not registered) under --debug, and the
// --stats lines (backend, pool, workers, kernel, per-stage times and
// throughput). Neither is GNU output; both are off by default.
#pragma once

#include <string>

#include "fastwc/diagnostics.hpp"

namespace fastwc::app {

/// The --stats lines for one input, without program name or newline:
///   "NAME: 1.000 GiB in 0.142 s = 7.04 GiB/s (io_uring, 8 x 1 MiB
///   registered, 2 workers, avx512bw)" and a line of stage times.
std::string stats_summary(const std::string &name, const ReadStats &stats);
std::string stats_stages(const std::string &name, const ReadStats &stats);

/// Prints (through out::report) the --debug lines for a fallback, if any,
/// then the --stats lines when `stats` is set (one line when nothing was
/// read: read_stats.wall_ns == 0). `name` is already quoted.
void report_reading(const std::string &name, const ReadStats &read_stats, bool debug, bool stats);

}  // namespace fastwc::app
