// SPDX-License-Identifier: GPL-3.0-or-later
// The st_size shortcut, including the /proc and /sys page-multiple rule.
#include "input/size_shortcut.hpp"

#include <unistd.h>

#include <cstdint>

namespace fastwc::input {

namespace {

/// gnulib ST_BLKSIZE: st_blksize when sane, else 512.
off_t block_size(const struct stat &st) {
  constexpr off_t fallback = 512;
  constexpr auto largest = static_cast<blksize_t>(SIZE_MAX / 8 + 1);
  return st.st_blksize > 0 && st.st_blksize <= largest ? st.st_blksize : fallback;
}

/// gnulib usable_st_size(): regular files and shared memory objects (glibc
/// has no typed memory objects).
bool usable_st_size(const struct stat &st) { return S_ISREG(st.st_mode) || S_TYPEISSHM(&st); }

}  // namespace

SizeShortcut count_bytes_from_size(int fd, input::InputStatus &status, off_t current_offset,
                                   bool moves_offset) noexcept {
  SizeShortcut result;
  // With several inputs GNU reuses the pre-pass stat, so a file that grew
  // since start-up is reported at its old size (GNU wc.c's wc_file).
  if (status.failed > 0) status.failed = fstat(fd, &status.st);
  if (status.failed != 0 || !usable_st_size(status.st) || status.st.st_size < 0) return result;

  off_t end = status.st.st_size;
  if (current_offset < 0) current_offset = lseek(fd, 0, SEEK_CUR);
  static const long page_size = sysconf(_SC_PAGESIZE);
  if (end % page_size != 0) {
    // The common case: trust st_size. The offset may lie past the end.
    result.bytes = end < current_offset ? 0 : static_cast<std::uint64_t>(end - current_offset);
    result.read_rest = false;
    if (moves_offset) {
      // GNU 9.3+: move past the counted bytes, or read them when the seek fails.
      if (result.bytes == 0 || lseek(fd, static_cast<off_t>(result.bytes), SEEK_CUR) < 0) {
        result.bytes = 0;
        result.read_rest = true;
      }
    }
    return result;
  }
  // A size that is a page multiple may be a /proc or /sys file that lies
  // about its size: trust only all but the last block and read the rest.
  // GNU seeks *relative* by hi, which miscounts when stdin starts at a
  // non-zero offset below hi; this quirk is kept (GNU wc.c's wc, `lseek (fd, hi, SEEK_CUR)`).
  off_t hi = end - end % (block_size(status.st) + 1);
  if (0 <= current_offset && current_offset < hi && lseek(fd, hi, SEEK_CUR) >= 0) {
    result.bytes = static_cast<std::uint64_t>(hi - current_offset);
  }
  return result;
}

}  // namespace fastwc::input
