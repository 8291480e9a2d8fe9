// SPDX-License-Identifier: GPL-3.0-or-later
// fastwc's own reading options, --jobs=N, --io=auto|uring|read|pread and
// --read-size=BYTES, with their environment variables FASTWC_JOBS,
// FASTWC_IO and FASTWC_READ_SIZE (an option wins over its variable). Bad
// values are reported in GNU's words (gnulib xstrtol_fatal and argmatch)
// and make fastwc exit with status 1. None of the names shares a prefix
// with a GNU wc option, so GNU's abbreviations (--t, --l, ...) keep working.
#pragma once

#include <string_view>

#include "fastwc/read_options.hpp"
#include "fastwc/tuning.hpp"

namespace fastwc::cli {

/// Which reading settings the command line gave (the environment fills the
/// others).
struct ReadOptionsGiven {
  bool jobs = false;
  bool io = false;
  bool read_size = false;
};

/// Parse one option's argument into `options`. On a bad value they print
/// the diagnostic on stderr and return false (exit status 1).
bool parse_jobs_option(std::string_view text, ReadOptions &options);
bool parse_io_option(std::string_view text, ReadOptions &options);
bool parse_read_size_option(std::string_view text, ReadOptions &options);

/// Applies FASTWC_JOBS, FASTWC_IO and FASTWC_READ_SIZE (set and non-empty)
/// to the settings the command line did not give, and, to `tuning`,
/// FASTWC_SERIAL_THRESHOLD (bytes, 0 allowed) and FASTWC_URING_ASYNC (0 or
/// 1), which have no option. false after printing a diagnostic for a bad
/// value.
bool apply_read_environment(const ReadOptionsGiven &given, ReadOptions &options,
                            ReadTuning &tuning);

/// The largest --jobs and --read-size accepted.
inline constexpr unsigned max_jobs = 256;
inline constexpr std::size_t max_read_size = std::size_t{32} << 20;

/// True when getopt_long would read an argument as a long option with an
/// empty name ("--=x"): glibc then calls it ambiguous and lists every long
/// option, so fastwc must offer exactly GNU's table for the list to match.
bool has_empty_long_option(int argc, char **argv) noexcept;

}  // namespace fastwc::cli
