// SPDX-License-Identifier: GPL-3.0-or-later
// The io suite's main: runs every test (the read(2) paths are tested
// everywhere), then exits 77, Meson's "skipped", when this kernel refuses
// io_uring, so that a green result never hides untested ring code.
#include <doctest/doctest.h>
#include <liburing.h>

#include <csignal>
#include <cstdio>

#include "io_test_support.hpp"

bool io_test::uring_available() noexcept {
  static const bool available = [] {
    io_uring ring{};
    if (io_uring_queue_init(2, &ring, 0) != 0) return false;
    io_uring_queue_exit(&ring);
    return true;
  }();
  return available;
}

int main(int argc, char **argv) {
  std::signal(SIGPIPE, SIG_IGN);  // FedPipe writers whose reader stopped early
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  if (!io_test::uring_available()) {
    std::fputs("io_tests: io_uring is unavailable here; the ring paths were not exercised\n",
               stderr);
    return 77;
  }
  return 0;
}
