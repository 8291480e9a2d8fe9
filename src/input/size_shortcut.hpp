// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's byte-count shortcut (wc -c, and -m in a single-byte locale): the
// size comes from st_size where that can be trusted, so the file need not be
// read (GNU wc.c's wc, usable_st_size). Every quirk of GNU's version is kept on purpose.
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "input/stat_prepass.hpp"

namespace fastwc::input {

struct SizeShortcut {
  std::uint64_t bytes = 0;  ///< bytes accounted for without reading
  bool read_rest = true;    ///< the caller must still read to EOF and add
};

/// status: the pre-pass stat (re-done with fstat when not stat'ed yet).
/// current_offset: 0 for a named file (GNU < 9.8 assumes it), -1 to ask the
/// file (standard input). moves_offset: GNU 9.3+ seeks past what it counted.
SizeShortcut count_bytes_from_size(int fd, input::InputStatus &status, off_t current_offset,
                                   bool moves_offset) noexcept;

}  // namespace fastwc::input
