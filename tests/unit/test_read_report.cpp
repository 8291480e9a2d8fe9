// SPDX-License-Identifier: GPL-3.0-or-later
// The --stats and --debug reading reports (src/app/read_report.*): the
// summary line in the documented shape for each path, and the stage line.
#include <doctest/doctest.h>

#include <string>

#include "app/read_report.hpp"

namespace {

using fastwc::ReadStats;
using fastwc::app::stats_stages;
using fastwc::app::stats_summary;

ReadStats uring_stats() {
  ReadStats stats;
  stats.path = ReadStats::Path::uring;
  stats.registered = true;
  stats.read_size = std::size_t{1} << 20;
  stats.buffers = 8;
  stats.workers = 2;
  stats.kernel = "avx512bw";
  stats.bytes = std::uint64_t{1} << 30;
  stats.wall_ns = 142'000'000;
  stats.chunks = 1024;
  stats.worker_chunks = 10;
  stats.setup_ns = 250'000;
  return stats;
}

}  // namespace

TEST_CASE("read report: the --stats summary line") {
  CHECK(stats_summary("big", uring_stats()) ==
        "big: 1.000 GiB in 0.142 s = 7.042 GiB/s (io_uring, 8 x 1 MiB registered, 2 workers, "
        "avx512bw)");

  ReadStats stats = uring_stats();
  stats.registered = false;
  stats.async_reads = true;
  CHECK(stats_summary("big", stats).find("(io_uring, 8 x 1 MiB unregistered, async, 2 workers,") !=
        std::string::npos);

  stats.path = ReadStats::Path::read;
  stats.read_size = 4093;
  CHECK(stats_summary("big", stats).find("(read(), 8 x 4093 B, 2 workers, avx512bw)") !=
        std::string::npos);

  ReadStats serial;
  serial.bytes = 100;
  serial.wall_ns = 1'000'000;
  CHECK(stats_summary("'standard input'", serial) ==
        "'standard input': 100 B in 0.001 s = 97.656 KiB/s (serial read(), 1 x 256 KiB, 1 worker, "
        "none)");
}

TEST_CASE("read report: the --stats stage line") {
  const std::string line = stats_stages("big", uring_stats());
  CHECK(line.starts_with(
      "big: stages: setup 0.250 ms; read 0.000 s in the kernel, 0.000 s waiting for buffers; "));
  CHECK(line.find("1024 chunks (10 by oneTBB workers), 0 retried reads") != std::string::npos);
}
