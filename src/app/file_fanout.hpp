// SPDX-License-Identifier: GPL-3.0-or-later
// The many-files policy: a long list of small regular files is counted on
// several threads ahead of its turn, and printed in order by the main
// thread (support::OrderedFanout). Which files may be counted ahead, how
// many threads, and where the order must wait.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/measured_input.hpp"
#include "input/stat_prepass.hpp"
#include "support/ordered_fanout.hpp"

namespace fastwc::app {

using FileFanout = support::OrderedFanout<FileOutcome>;

/// Lists of at least this many small files are counted on several threads:
/// a thread costs about as much to start as 20 small files to count.
inline constexpr std::size_t fanout_min_files = 32;
/// How far ahead of the printed line the helpers may be (open descriptors
/// stay at one per helper; this bounds the outcomes kept).
inline constexpr std::size_t fanout_window = 256;

/// Threads for a long list: --jobs, else the CPUs this process may use
/// (`jobs` 0), capped: small files are system-call bound, and path lookups
/// in one directory contend in the kernel on huge machines.
unsigned fanout_threads(unsigned jobs) noexcept;

struct FanoutPlan {
  /// Per name: the name when a helper may count it, else null.
  std::vector<const char *> eligible;
  std::size_t eligible_count = 0;
  /// Indexes of inputs that may wait for another process: nothing after
  /// one is counted before it is done.
  std::vector<std::size_t> barriers;
};

/// Only regular files that the pre-pass found non-empty and below
/// `file_threshold` (ReadTuning::file_threshold()) are counted ahead:
/// larger files get every CPU from
/// the engine; standard input, FIFOs and devices are read in order, when
/// GNU would read them (opening a FIFO waits for its writer, reading a tty
/// for its user); empty regular files are mostly /proc and /sys files,
/// whose contents may depend on when and from which thread they are read.
FanoutPlan plan_fanout(const std::vector<const char *> &names,
                       const std::vector<input::InputStatus> &statuses,
                       std::uint64_t file_threshold);

}  // namespace fastwc::app
