// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's pre-pass: before reading anything it stats every input to choose
// one column width for all lines (GNU wc.c's compute_number_width), and the
// -c shortcut later reuses these stats when there are several inputs.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

namespace fastwc::input {

/// GNU's struct fstatus: failed is 1 while not stat'ed yet, 0 after a
/// successful stat and -1 after a failed one.
struct InputStatus {
  int failed = 1;
  struct stat st {};
};

/// Stats every name ("-", or no name at all, means standard input) unless
/// there is exactly one input and one count, where GNU stats nothing.
/// names may be empty only for a streamed list (one unstat'ed entry then).
/// A long list is shared among up to `threads` threads (the caller's
/// included): each stat is a path lookup, and the pre-pass of 100,000
/// names is a quarter of their counting.
std::vector<InputStatus> stat_inputs(const std::vector<const char *> &names, int selected_counts,
                                     unsigned threads = 1);

/// The column width: digits of the summed sizes of the regular files, at
/// least 7 when any input is not a regular file, 1 when nothing was stat'ed.
/// saturate_sum selects 9.3+'s saturating sum over 9.1's wrap-around.
int number_width(const std::vector<InputStatus> &statuses, bool saturate_sum);

}  // namespace fastwc::input
