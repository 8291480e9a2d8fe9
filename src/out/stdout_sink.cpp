// SPDX-License-Identifier: GPL-3.0-or-later
// Output error handling copied in behaviour (not code) from gnulib's
// close_stdout/close_stream and coreutils' write_error.
#include "out/stdout_sink.hpp"

#include <stdio_ext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "out/messages.hpp"

namespace fastwc::out {

namespace {

bool g_diagnose_at_once = false;

/// gnulib close_stream(): a stream fails when it had an error, or when
/// fclose fails with data pending or for a reason other than EBADF. errno
/// is 0 when only the sticky error flag tells (GNU 9.1 then prints a bare
/// "write error", as for /dev/full).
int close_stream(std::FILE *stream) noexcept {
  bool some_pending = __fpending(stream) != 0;
  bool previous_failure = std::ferror(stream) != 0;
  bool close_failed = std::fclose(stream) != 0;
  if (previous_failure || (close_failed && (some_pending || errno != EBADF))) {
    if (!close_failed) errno = 0;
    return EOF;
  }
  return 0;
}

void close_stdout_at_exit() noexcept {
  if (close_stream(stdout) != 0) {
    // gnulib close_stdout's message; the one of write_line below is
    // coreutils' write_error().
    report(errno, translate_gnulib("write error"));
    _exit(EXIT_FAILURE);
  }
  if (close_stream(stderr) != 0) _exit(EXIT_FAILURE);
}

}  // namespace

void prepare_stdout(bool diagnose_write_errors_at_once) noexcept {
  g_diagnose_at_once = diagnose_write_errors_at_once;
  // Line buffering writes every line atomically, so that parallel wc runs
  // sharing a pipe do not intersperse their output (as GNU wc does).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::atexit(close_stdout_at_exit);
}

bool write_line(std::string_view line) noexcept {
  std::fwrite(line.data(), 1, line.size(), stdout);
  if (g_diagnose_at_once && std::ferror(stdout)) {
    int saved_errno = errno;
    std::fflush(stdout);
    __fpurge(stdout);
    std::clearerr(stdout);
    report(saved_errno, translate("write error"));
    return false;
  }
  return true;
}

}  // namespace fastwc::out
