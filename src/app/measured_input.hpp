// SPDX-License-Identifier: GPL-3.0-or-later
// What reading one input gave, before anything about it is printed: on the
// main thread, or on a helper thread ahead of its turn (file_fanout.hpp).
#pragma once

#include "fastwc/counts.hpp"
#include "fastwc/diagnostics.hpp"

namespace fastwc::app {

struct MeasuredInput {
  /// The counts, and the errno of the read that failed (or 0).
  CountResult result;
  ReadStats stats;  ///< how the input was read, for --stats and --debug
};

/// A named file counted by a helper thread ahead of its turn.
struct FileOutcome {
  int open_error = 0;  ///< open()'s errno: nothing else was done
  MeasuredInput input;
  int close_error = 0;
};

}  // namespace fastwc::app
