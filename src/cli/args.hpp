// SPDX-License-Identifier: GPL-3.0-or-later
// The command line: getopt_long over GNU wc's option table, so that bundling,
// argument permutation, unique-prefix abbreviations, "--" and POSIXLY_CORRECT
// behave exactly as in GNU wc, and the usage errors read the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/compat.hpp"
#include "fastwc/counts.hpp"
#include "fastwc/read_options.hpp"
#include "fastwc/tuning.hpp"

namespace fastwc::cli {

/// --total=WHEN (GNU 9.2+).
enum class TotalMode { automatic, always, only, never };

struct Config {
  Selection selection;  ///< never empty: GNU's default -lwc is filled in
  std::vector<std::string> operands;
  std::optional<std::string> files0_from;
  TotalMode total_mode = TotalMode::automatic;
  bool debug = false;
  /// fastwc's own --jobs, --io, --read-size (else FASTWC_JOBS, FASTWC_IO,
  /// FASTWC_READ_SIZE): how large inputs are read.
  ReadOptions read;
  /// FASTWC_SERIAL_THRESHOLD and FASTWC_URING_ASYNC, which have no option.
  ReadTuning tuning;
  /// --stats: per-input backend, sizes, stage times and throughput on stderr.
  bool stats = false;
  /// --progress (or FASTWC_PROGRESS=1): a meter on stderr, where stderr is
  /// a terminal, for inputs that take more than a second.
  bool progress = false;
};

/// What parsing decided: run with a Config, or exit with a status after
/// --help, --version or a usage error (already printed).
struct ParseOutcome {
  std::optional<Config> config;
  int exit_status = 0;
};

ParseOutcome parse_args(int argc, char **argv, const Compat &compat);

}  // namespace fastwc::cli
