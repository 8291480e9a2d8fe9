// SPDX-License-Identifier: GPL-3.0-or-later
// count_fd's decision between the serial read loop and the pipeline, behind
// the public fastwc::count_fd overloads, with the io::Sys seam exposed for
// the tests.
#pragma once

#include "fastwc/diagnostics.hpp"
#include "fastwc/engine.hpp"
#include "io/sys.hpp"
#include "pipeline/read_settings.hpp"

namespace fastwc::engine {

/// fastwc::count_fd(fd, options, read_options, tuning, stats) with every read going
/// through `sys`. Never throws for a per-file error (the errno is in the
/// result); a pipeline that cannot be set up falls back to the serial loop.
/// Thread-safe: distinct calls may run at once on distinct descriptors.
CountResult count_fd_with(int fd, const CountOptions &options,
                          const pipeline::ReadSettings &read_options, io::Sys &sys,
                          ReadStats *stats);

}  // namespace fastwc::engine
