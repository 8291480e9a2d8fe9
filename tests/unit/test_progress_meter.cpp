// SPDX-License-Identifier: GPL-3.0-or-later
// The --progress meter's line: bytes, total and share, rate, time left,
// name, and the cut that keeps it on one terminal line.
#include <doctest/doctest.h>

#include <string>

#include "app/progress_meter.hpp"

namespace {

using fastwc::app::format_progress;

constexpr std::uint64_t second = 1'000'000'000;
constexpr std::uint64_t mib = 1 << 20;

}  // namespace

TEST_CASE("a known size gives the share and the time left") {
  CHECK(format_progress("wc", "big", 1 * mib, 4 * mib, second, 200) ==
        "wc: 1.0 MiB of 4.0 MiB (25%), 1.0 MiB/s, 0:03 left, big");
  CHECK(format_progress("wc", "big", 3 * mib, 3 * mib + 3600 * 3 * mib + 61 * 3 * mib, second,
                        200) == "wc: 3.0 MiB of 10.7 GiB (0%), 3.0 MiB/s, 1:01:01 left, big");
}

TEST_CASE("an unknown size (a pipe) gives the bytes and the rate") {
  CHECK(format_progress("fastwc", "standard input", 512, 0, 2 * second, 200) ==
        "fastwc: 512 B, 256 B/s, standard input");
}

TEST_CASE("a file read past its size shows the bytes read as the total") {
  CHECK(format_progress("wc", "f", 2 * mib, mib, second, 200) ==
        "wc: 2.0 MiB of 2.0 MiB (100%), 2.0 MiB/s, f");
}

TEST_CASE("the line is cut to one column less than the terminal, never inside a character") {
  const std::string line = format_progress("wc", "caf\xc3\xa9", 512, 0, second, 200);
  CHECK(line == "wc: 512 B, 512 B/s, caf\xc3\xa9");
  CHECK(format_progress("wc", "caf\xc3\xa9", 512, 0, second, line.size()) ==
        "wc: 512 B, 512 B/s, caf");
  CHECK(format_progress("wc", "abc", 512, 0, second, 11) == "wc: 512 B,");
  CHECK(format_progress("wc", "abc", 512, 0, second, 0).empty());
}
