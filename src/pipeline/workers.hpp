// SPDX-License-Identifier: GPL-3.0-or-later
// The counting threads as the pipeline sees them: the oneTBB module
// (workers_abi.h), loaded on first use. Where it cannot be loaded (not
// installed, dlopen refused), workers() is nullptr and the pipeline counts
// on the calling thread alone, with the same counts.
#pragma once

#include "pipeline/workers_abi.h"

namespace fastwc::pipeline {

/// The module's functions, loaded once per process (thread-safe); nullptr
/// when unavailable. A binary that links workers_module.cpp itself (the
/// tests) uses that copy and loads nothing. Otherwise the module is looked
/// for at $FASTWC_WORKERS_MODULE, next to the executable (a build tree),
/// then in its installed directory.
const fastwc_workers_api *workers() noexcept;

/// Why workers() is nullptr (dlerror's text), or nullptr.
const char *workers_error() noexcept;

}  // namespace fastwc::pipeline
