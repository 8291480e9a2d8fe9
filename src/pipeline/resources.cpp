// SPDX-License-Identifier: GPL-3.0-or-later
// CPU and cache discovery, and the pool sizing rule. Runs only when a
// pipeline is about to start (never for small inputs, --help or -c).
#include "pipeline/resources.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>

namespace fastwc::pipeline {

namespace {

/// The first line of a small file, without the newline; empty on failure.
std::string first_line(const std::string &path) {
  std::string line;
  if (FILE *file = std::fopen(path.c_str(), "re")) {
    char buffer[4096];
    if (std::fgets(buffer, sizeof buffer, file)) line = buffer;
    std::fclose(file);
  }
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

/// A sysfs cache size such as "1024K" or "32768K" or "8M", in bytes.
std::size_t parse_cache_size(std::string_view text) noexcept {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{}) return 0;
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (unit == "K") return value << 10;
  if (unit == "M") return value << 20;
  if (unit == "G") return value << 30;
  return unit.empty() ? value : 0;
}

std::size_t sysconf_size(int name) noexcept {
  const long value = sysconf(name);
  return value > 0 ? static_cast<std::size_t>(value) : 0;
}

std::size_t clamp_size(std::size_t value, std::size_t low, std::size_t high) noexcept {
  return std::min(std::max(value, low), high);
}

}  // namespace

namespace {

CacheSizes read_cache_sizes() noexcept {
  CacheSizes sizes;
  try {
    // sysfs describes the cache instance this CPU actually uses; glibc's
    // sysconf reports, on some AMD parts, the L3 of the whole package
    // (384 MiB where one CCX shares 32 MiB).
    for (int index = 0; index < 8; ++index) {
      const std::string dir =
          "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
      const std::string level = first_line(dir + "level");
      if (level.empty()) break;
      const std::string type = first_line(dir + "type");
      if (type != "Unified" && type != "Data") continue;
      const std::size_t size = parse_cache_size(first_line(dir + "size"));
      if (level == "2") sizes.l2 = size;
      if (level == "3") sizes.l3 = size;
    }
  } catch (...) {
    // Out of memory building a path: keep what sysconf says.
  }
  if (sizes.l2 == 0) sizes.l2 = sysconf_size(_SC_LEVEL2_CACHE_SIZE);
  if (sizes.l3 == 0) sizes.l3 = sysconf_size(_SC_LEVEL3_CACHE_SIZE);
  return sizes;
}

}  // namespace

CacheSizes cache_sizes() noexcept {
  // Read once per process: a run over many large files asks every time.
  static const CacheSizes cached = read_cache_sizes();
  return cached;
}

std::optional<unsigned> cpu_max_quota(std::string_view line) noexcept {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::string_view quota_text = line.substr(0, space);
  const std::string_view period_text = line.substr(space + 1);
  if (quota_text == "max") return std::nullopt;
  unsigned long long quota = 0;
  unsigned long long period = 0;
  if (std::from_chars(quota_text.data(), quota_text.data() + quota_text.size(), quota).ec !=
          std::errc{} ||
      std::from_chars(period_text.data(), period_text.data() + period_text.size(), period).ec !=
          std::errc{} ||
      period == 0 || quota == 0) {
    return std::nullopt;
  }
  // 150000/100000 is 1.5 CPUs of time: two threads can use it.
  return static_cast<unsigned>(std::max<unsigned long long>(1, (quota + period - 1) / period));
}

unsigned usable_cpus() noexcept {
  unsigned cpus = 1;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    cpus = static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  } else if (const long online = sysconf(_SC_NPROCESSORS_ONLN); online > 0) {
    cpus = static_cast<unsigned>(online);
  }
  try {
    // cgroup v2: "0::/path" in /proc/self/cgroup; every ancestor's cpu.max
    // limits too. On a v1-only or hybrid host the files are missing.
    std::string path;
    if (FILE *file = std::fopen("/proc/self/cgroup", "re")) {
      char buffer[4096];
      while (std::fgets(buffer, sizeof buffer, file)) {
        std::string_view line(buffer);
        if (line.starts_with("0::")) {
          path = line.substr(3);
          while (!path.empty() && path.back() == '\n') path.pop_back();
          break;
        }
      }
      std::fclose(file);
    }
    if (!path.empty()) {
      for (;;) {
        const std::string file =
            "/sys/fs/cgroup" + (path == "/" ? std::string() : path) + "/cpu.max";
        if (auto quota = cpu_max_quota(first_line(file))) cpus = std::min(cpus, *quota);
        if (path == "/" || path.empty()) break;
        const std::size_t slash = path.rfind('/');
        path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
      }
    }
  } catch (...) {
    // Out of memory building a path: the affinity count stands.
  }
  return std::max(1u, cpus);
}

Sizing choose_sizing(const ReadSettings &options, const CacheSizes &caches, unsigned cpus,
                     std::uint64_t expected_bytes) noexcept {
  constexpr std::size_t KiB = 1024;
  constexpr std::size_t MiB = 1024 * KiB;
  Sizing sizing;
  sizing.jobs = options.jobs != 0 ? options.jobs : std::max(1u, cpus);

  // A chunk is counted by one core right after it lands: it should fit
  // that core's L2 (with room left for the kernel's own data), but reads
  // below 128 KiB cost more in system-call and hand-off overhead than the
  // cache saves.
  const std::size_t l2 = caches.l2 != 0 ? caches.l2 : MiB;
  sizing.read_size = options.read_size != 0 ? options.read_size : clamp_size(l2, 128 * KiB, MiB);
  // The kernel takes at most 2 GiB per read; registered buffers are limited
  // to 1 GiB each.
  sizing.read_size = std::min(sizing.read_size, std::size_t{1} << 30);

  // Bytes in flight, read but not yet counted, must stay in the last-level
  // cache that the reading and the counting cores share: an eighth of it
  // leaves the rest to the page cache's own lines and to other processes.
  const std::size_t l3 = caches.l3 != 0 ? caches.l3 : 32 * MiB;
  const std::size_t budget = clamp_size(l3 / 8, 2 * MiB, options.max_pool_bytes);
  const std::size_t in_flight = clamp_size(budget / sizing.read_size, 2, 32);

  if (options.buffers != 0) {
    sizing.buffers = std::max<std::size_t>(2, options.buffers);
  } else {
    // One buffer per counting thread beyond the reads in flight, so that
    // counting never waits for the reader's next submission.
    sizing.buffers = in_flight + sizing.jobs;
  }
  const std::size_t fitting = std::max<std::size_t>(2, options.max_pool_bytes / sizing.read_size);
  sizing.buffers = std::min(sizing.buffers, fitting);
  if (expected_bytes != 0 && options.read_size == 0) {
    // Every pool page is faulted in (and zeroed) on first use, which costs
    // more than reading it: a medium file gets smaller reads, so that the
    // pool stays within an eighth of the input.
    while (sizing.read_size > 128 * KiB && sizing.buffers * sizing.read_size > expected_bytes / 8) {
      sizing.read_size /= 2;
    }
  }
  if (expected_bytes != 0 && options.buffers == 0) {
    // A file of a few buffers needs no more (plus one for the read that
    // finds EOF): every buffer is memory to fault in, or to pin, before
    // the first byte is counted.
    const std::uint64_t chunks = expected_bytes / sizing.read_size + 2;
    sizing.buffers = static_cast<std::size_t>(
        std::min<std::uint64_t>(sizing.buffers, std::max<std::uint64_t>(chunks, 2)));
  }
  sizing.depth =
      std::clamp<std::size_t>(std::min(in_flight, sizing.buffers - 1), 1, sizing.buffers - 1);
  // Pinning the pool costs about one pass over it up front; it saves the
  // page pinning of every read, which pays only when each buffer is
  // reused many times.
  const std::uint64_t pool_bytes = static_cast<std::uint64_t>(sizing.buffers) * sizing.read_size;
  switch (options.registration) {
    case BufferRegistration::automatic:
      sizing.register_buffers = expected_bytes == 0 || expected_bytes >= 8 * pool_bytes;
      break;
    case BufferRegistration::always:
      sizing.register_buffers = true;
      break;
    case BufferRegistration::never:
      sizing.register_buffers = false;
      break;
  }
  return sizing;
}

}  // namespace fastwc::pipeline
