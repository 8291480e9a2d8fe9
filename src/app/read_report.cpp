// SPDX-License-Identifier: GPL-3.0-or-later
// Formatting of the --stats and --debug reading reports.
#include "app/read_report.hpp"

#include <sys/utsname.h>

#include <cstdio>
#include <cstring>

#include "out/messages.hpp"

namespace fastwc::app {

namespace {

/// "12.345 unit" (or "12 unit" when whole).
std::string with_unit(double value, const char *unit, bool whole = false) {
  char buffer[64];
  if (whole) {
    std::snprintf(buffer, sizeof buffer, "%.0f %s", value, unit);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f %s", value, unit);
  }
  return buffer;
}

/// 123 B, 12.500 KiB, 1.000 GiB.
std::string human_bytes(double bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return with_unit(bytes, "B", true);
  int unit = 0;
  bytes /= 1024;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  return with_unit(bytes, units[unit]);
}

/// 1 MiB, 256 KiB, 4093 B: buffer sizes, exact when they are whole units.
std::string buffer_size(std::size_t size) {
  if (size >= (std::size_t{1} << 20) && size % (std::size_t{1} << 20) == 0) {
    return std::to_string(size >> 20) + " MiB";
  }
  if (size >= 1024 && size % 1024 == 0) return std::to_string(size >> 10) + " KiB";
  return std::to_string(size) + " B";
}

std::string seconds(std::uint64_t ns) { return with_unit(static_cast<double>(ns) / 1e9, "s"); }

}  // namespace

std::string stats_summary(const std::string &name, const ReadStats &stats) {
  const double secs = static_cast<double>(stats.wall_ns) / 1e9;
  const double rate = secs > 0 ? static_cast<double>(stats.bytes) / secs : 0;
  std::string how;
  switch (stats.path) {
    case ReadStats::Path::serial:
      how = "serial read(), 1 x 256 KiB";
      break;
    case ReadStats::Path::read:
      how = "read(), " + std::to_string(stats.buffers) + " x " + buffer_size(stats.read_size);
      break;
    case ReadStats::Path::uring:
      how = "io_uring, " + std::to_string(stats.buffers) + " x " + buffer_size(stats.read_size) +
            (stats.registered ? " registered" : " unregistered") +
            (stats.async_reads ? ", async" : "");
      break;
    case ReadStats::Path::pread:
      how = "pread() on each worker, " + std::to_string(stats.buffers) + " x " +
            buffer_size(stats.read_size);
      break;
  }
  const unsigned workers = stats.path == ReadStats::Path::serial ? 1 : stats.workers;
  return name + ": " + human_bytes(static_cast<double>(stats.bytes)) + " in " +
         seconds(stats.wall_ns) + " = " + human_bytes(rate) + "/s (" + how + ", " +
         std::to_string(workers) + (workers == 1 ? " worker, " : " workers, ") + stats.kernel + ")";
}

std::string stats_stages(const std::string &name, const ReadStats &stats) {
  std::string line =
      name + ": stages: setup " + with_unit(static_cast<double>(stats.setup_ns) / 1e6, "ms") +
      "; read " + seconds(stats.read_wait_ns) + " in the kernel, " + seconds(stats.read_idle_ns) +
      " waiting for buffers; count " + seconds(stats.count_ns) + " summed over workers; merge " +
      seconds(stats.merge_ns) + "; " + std::to_string(stats.chunks) + " chunks (" +
      std::to_string(stats.worker_chunks) + " by oneTBB workers), " +
      std::to_string(stats.resubmits) + " retried reads";
  if (stats.redone_reads != 0)
    line += ", " + std::to_string(stats.redone_reads) + " redone with pread()";
  if (stats.serial_bytes != 0)
    line += "; first " + human_bytes(static_cast<double>(stats.serial_bytes)) + " serial";
  utsname system{};
  if (uname(&system) == 0) line += std::string("; ") + system.sysname + " " + system.release;
  return line;
}

void report_reading(const std::string &name, const ReadStats &read_stats, bool debug, bool stats) {
  if (debug && read_stats.uring_error != 0) {
    out::report(0, name + ": io_uring unavailable (" + std::strerror(read_stats.uring_error) +
                       "); reading with read()");
  }
  if (debug && read_stats.register_error != 0) {
    out::report(0, name + ": io_uring buffer registration refused (" +
                       std::strerror(read_stats.register_error) +
                       "); reading into unregistered buffers");
  }
  if (debug && read_stats.workers_error != nullptr) {
    out::report(0, name + ": no counting threads (" + read_stats.workers_error +
                       "); counting on one thread");
  }
  if (debug && read_stats.redone_reads != 0) {
    out::report(0, name + ": " + std::to_string(read_stats.redone_reads) +
                       " io_uring reads did not complete in time; read again with pread()");
  }
  if (!stats) return;
  if (read_stats.wall_ns == 0) {
    // The -c shortcut took the size from fstat and count_fd never ran.
    out::report(0, name + ": size from fstat, nothing read");
    return;
  }
  out::report(0, stats_summary(name, read_stats));
  if (read_stats.path != ReadStats::Path::serial) out::report(0, stats_stages(name, read_stats));
}

}  // namespace fastwc::app
