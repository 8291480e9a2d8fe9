// SPDX-License-Identifier: GPL-3.0-or-later
// io/gnu_read.hpp, the read semantics every reading path shares: EINTR
// retried and counted, EAGAIN and other errors final, short reads
// resubmitted for the rest of a buffer, end of input reported.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "io/gnu_read.hpp"

namespace {

/// A scripted read(2): each step gives so many bytes, or fails with errno.
struct Step {
  ssize_t result;  ///< > 0: at most this many bytes; 0: end; -1: fails
  int error = 0;
};

struct ScriptedRead {
  explicit ScriptedRead(std::vector<Step> script = {}) : steps(std::move(script)) {}

  std::vector<Step> steps;
  std::size_t next = 0;
  std::vector<std::size_t> asked;  ///< (done, left) of each call, as done * 1000 + left

  ssize_t operator()(std::size_t done, std::size_t left) {
    asked.push_back(done * 1000 + left);
    REQUIRE(next < steps.size());
    const Step step = steps[next++];
    if (step.result < 0) {
      errno = step.error;
      return -1;
    }
    return std::min<ssize_t>(step.result, static_cast<ssize_t>(left));
  }
};

}  // namespace

TEST_CASE("gnu_read: EINTR is retried and counted, other errors end the read") {
  std::uint64_t retries = 0;
  int calls = 0;
  auto interrupted_twice = [&]() -> ssize_t {
    if (++calls <= 2) {
      errno = EINTR;
      return -1;
    }
    return 7;
  };
  CHECK(fastwc::io::retry_interrupted(interrupted_twice, &retries) == 7);
  CHECK(retries == 2);
  CHECK(calls == 3);
  // EAGAIN is an error for GNU's safe_read, not a retry.
  calls = 0;
  auto would_block = [&]() -> ssize_t {
    ++calls;
    errno = EAGAIN;
    return -1;
  };
  CHECK(fastwc::io::retry_interrupted(would_block) == -1);
  CHECK(errno == EAGAIN);
  CHECK(calls == 1);
}

TEST_CASE("gnu_read: fill resubmits short reads until full, end or error") {
  std::uint64_t retries = 0;
  SUBCASE("full after short reads and an interruption") {
    ScriptedRead read({{3}, {-1, EINTR}, {4}, {100}});
    const auto filled = fastwc::io::fill(0, 10, read, &retries);
    CHECK(filled.got == 10);
    CHECK_FALSE(filled.eof);
    CHECK(filled.error == 0);
    CHECK(retries == 1);
    CHECK(read.asked == std::vector<std::size_t>{10, 3007, 3007, 7003});
  }
  SUBCASE("end of input keeps what came") {
    ScriptedRead read({{6}, {0}});
    const auto filled = fastwc::io::fill(2, 10, read, &retries);
    CHECK(filled.got == 8);
    CHECK(filled.eof);
    CHECK(filled.error == 0);
    CHECK(read.asked == std::vector<std::size_t>{2008, 8002});
  }
  SUBCASE("an error keeps the bytes before it") {
    ScriptedRead read({{5}, {-1, EIO}});
    const auto filled = fastwc::io::fill(0, 10, read, &retries);
    CHECK(filled.got == 5);
    CHECK_FALSE(filled.eof);
    CHECK(filled.error == EIO);
  }
  SUBCASE("a full buffer makes no read") {
    ScriptedRead read;
    const auto filled = fastwc::io::fill(10, 10, read, &retries);
    CHECK(filled.got == 10);
    CHECK(read.asked.empty());
  }
  CHECK(retries <= 1);
}
