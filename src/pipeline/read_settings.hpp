// SPDX-License-Identifier: GPL-3.0-or-later
// Everything that decides how an input is read, as the engine's layers use
// it: the public ReadOptions and the unstable ReadTuning in one value.
#pragma once

#include "fastwc/read_options.hpp"
#include "fastwc/tuning.hpp"

namespace fastwc::pipeline {

struct ReadSettings : ReadOptions, ReadTuning {
  ReadSettings() = default;
  ReadSettings(const ReadOptions &options, const ReadTuning &tuning)
      : ReadOptions(options), ReadTuning(tuning) {}

  friend bool operator==(const ReadSettings &, const ReadSettings &) = default;
};

}  // namespace fastwc::pipeline
