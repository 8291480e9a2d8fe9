// SPDX-License-Identifier: GPL-3.0-or-later
// Reading on every core, for counts that cost less than the copy:
// -l, and -c where it reads. There one reader thread is the bottleneck: a
// read that hits the page cache is copied by the thread that issues it,
// on one core, into buffers that a counting core must then pull from a
// shared cache. Here each of several threads reads its own chunks with
// pread(2) into one buffer of its own, which stays in that core's L2, and
// counts each chunk at once while it is hot. Measured on a 2-CPU machine,
// 256 MiB (bench/results/2026-11-30-vm-256M-run3, Study C): a bare 1 MiB
// read() loop 10.7 ms, the reader-thread pipeline 14.0 ms, two striped
// threads 9.6 ms.
#pragma once

#include <cstddef>

#include "count/chunk_summarizer.hpp"
#include "count/summary.hpp"
#include "fastwc/diagnostics.hpp"
#include "io/sys.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/read_settings.hpp"

namespace fastwc::pipeline {

/// Counts the regular file `input` (input.positioned) from input.offset to
/// its end on `threads` threads, the calling thread one of them (fewer if
/// a thread cannot be started). Chunk c is the `read_size` bytes at
/// input.offset + c * read_size; threads claim chunks in file order from
/// one cursor, read each to its end (a short read is followed by another
/// read of the rest, EINTR is retried) and publish its summary to an
/// ordered merge. The input ends at the first chunk, in file order, that
/// came back short: a read returned 0 (EOF) or failed (its errno is the
/// outcome's error, the bytes read before it are counted), which is what a
/// read(2) loop over the same file would have seen. Chunks read past that
/// point are dropped. The file offset is not moved.
///
/// `sys` is called from every thread at once. Throws only if no memory for
/// the buffers can be mapped, before anything is read.
Outcome run_striped(const Input &input, const count::ChunkSummarizer &counter,
                    const count::ChunkSummary &initial, std::size_t read_size, unsigned threads,
                    io::Sys &sys, ReadStats &stats);

}  // namespace fastwc::pipeline
