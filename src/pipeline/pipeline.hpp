// SPDX-License-Identifier: GPL-3.0-or-later
// The parallel counting pipeline for one large input: a dedicated
// reader thread fills pool buffers (io_uring or read(2), src/io/), hands
// them through a bounded lock-free queue to the counting threads (the
// calling thread and oneTBB workers), which summarize each buffer while it
// is still in cache and merge the summaries in file order; merged buffers
// go back to the reader. Blocking happens only on the reader thread (in
// the kernel) and on the calling thread (waiting for work): oneTBB workers
// never block.
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "count/chunk_summarizer.hpp"
#include "count/summary.hpp"
#include "fastwc/diagnostics.hpp"
#include "io/reader.hpp"
#include "io/sys.hpp"
#include "pipeline/read_settings.hpp"

namespace fastwc::pipeline {

/// Where the pipeline reads from.
struct Input {
  int fd = -1;
  /// A regular file read with positioned reads from `offset`; the file
  /// offset is set to offset + bytes read afterwards. false: read(2) from
  /// the current offset (pipes, and inputs of unknown size).
  bool positioned = false;
  off_t offset = 0;
  /// fstat's size when positioned (reads are not issued far beyond it).
  std::uint64_t expected_end = 0;
  /// Not positioned only: the size of every read(2) (io::ReadSchedule),
  /// for counts that depend on where reads end; null: whatever fills a
  /// buffer fastest.
  io::ReadSchedule *schedule = nullptr;
};

struct Outcome {
  /// `initial` merged with the summary of every byte read.
  count::ChunkSummary summary{};
  std::uint64_t bytes = 0;  ///< bytes read by the pipeline
  int error = 0;            ///< errno of the read that failed, or 0 at EOF
};

/// Counts `input` to its end. `initial` is the summary of what was counted
/// before (the serial prefix of a pipe), merged first. Fills the pipeline
/// fields of `stats` (path, buffers, workers, per-stage times).
///
/// Per-file read errors are returned, never thrown. Throws (std::bad_alloc,
/// std::system_error) only while setting up, before anything is read: the
/// caller may then count the input serially instead.
Outcome run(const Input &input, const count::ChunkSummarizer &counter,
            const count::ChunkSummary &initial, const ReadSettings &options, io::Sys &sys,
            ReadStats &stats);

}  // namespace fastwc::pipeline
