// SPDX-License-Identifier: GPL-3.0-or-later
// read_loop: the floor for any wc, a program that reads a file and does
// nothing with the bytes. Either a bare read(2) loop with one buffer (what
// `cat file >/dev/null` does, without the write), or io_uring with DEPTH
// reads in flight into DEPTH buffers (optionally registered, optionally
// IOSQE_ASYNC), so that bench/pipeline/run.sh can put fastwc's numbers next
// to what the kernel can deliver and find the read sizes and depths that
// keep the bytes in cache. Two ways around the copy, for the record of
// what fastwc does not do: --direct (O_DIRECT: the device writes into the
// buffers, no page cache; for data that is not cached), and --mmap (the
// file mapped, no copy at all; its newlines are counted on THREADS threads,
// each over its share, since mapped bytes that nobody reads cost nothing).
// fastwc does not map files: one truncated underneath kills the process
// with SIGBUS. Prints one line: mode, bytes, seconds, GB/s.
//
//   read_loop [--size=BYTES] [--direct] [--uring [--depth=N] [--fixed] [--async]] FILE
//   read_loop --mmap [--threads=N] FILE
#include <fcntl.h>
#include <immintrin.h>
#include <liburing.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

double seconds_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

/// "1M", "64K", "4096".
std::size_t parse_size(std::string_view text) {
  char *end = nullptr;
  std::size_t value = std::strtoull(std::string(text).c_str(), &end, 10);
  const std::string_view suffix(end);
  if (suffix == "K" || suffix == "k") value <<= 10;
  if (suffix == "M") value <<= 20;
  return value;
}

[[noreturn]] void die(const char *what, int error) {
  std::fprintf(stderr, "read_loop: %s: %s\n", what, std::strerror(error));
  std::exit(1);
}

std::uint64_t read_loop(int fd, std::size_t size) {
  void *buffer = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buffer == MAP_FAILED) die("mmap", errno);
  std::uint64_t total = 0;
  for (;;) {
    const ssize_t n = read(fd, buffer, size);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      die("read", errno);
    }
    total += static_cast<std::uint64_t>(n);
  }
  return total;
}

std::uint64_t uring_loop(int fd, std::size_t size, unsigned depth, bool fixed, bool async) {
  io_uring ring{};
  if (const int r = io_uring_queue_init(depth, &ring, 0); r < 0) die("io_uring_queue_init", -r);
  auto *base = static_cast<char *>(
      mmap(nullptr, size * depth, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (base == MAP_FAILED) die("mmap", errno);
  std::vector<iovec> buffers;
  for (unsigned i = 0; i < depth; ++i) buffers.push_back({base + i * size, size});
  if (fixed) {
    if (const int r = io_uring_register_buffers(&ring, buffers.data(), depth); r < 0)
      die("register", -r);
  }
  struct Slot {
    std::uint64_t offset;
    std::size_t got;
  };
  std::vector<Slot> slots(depth);
  std::uint64_t next = 0;
  std::uint64_t total = 0;
  unsigned in_flight = 0;
  bool eof = false;
  auto queue = [&](unsigned i) {
    io_uring_sqe *sqe = io_uring_get_sqe(&ring);
    char *target = base + i * size + slots[i].got;
    const unsigned length = static_cast<unsigned>(size - slots[i].got);
    const std::uint64_t at = slots[i].offset + slots[i].got;
    if (fixed) {
      io_uring_prep_read_fixed(sqe, fd, target, length, at, static_cast<int>(i));
    } else {
      io_uring_prep_read(sqe, fd, target, length, at);
    }
    io_uring_sqe_set_data64(sqe, i);
    if (async) sqe->flags |= IOSQE_ASYNC;
  };
  for (unsigned i = 0; i < depth; ++i) {
    slots[i] = {next, 0};
    next += size;
    queue(i);
    ++in_flight;
  }
  while (in_flight > 0) {
    io_uring_submit_and_wait(&ring, 1);
    io_uring_cqe *cqe;
    while (io_uring_peek_cqe(&ring, &cqe) == 0) {
      const auto i = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
      const int res = cqe->res;
      io_uring_cqe_seen(&ring, cqe);
      if (res == -EAGAIN || res == -EINTR) {
        queue(i);
        continue;
      }
      if (res < 0) die("read", -res);
      slots[i].got += static_cast<std::size_t>(res);
      total += static_cast<std::uint64_t>(res);
      if (res == 0) eof = true;
      if (res > 0 && slots[i].got < size) {
        queue(i);  // short read: the rest
        continue;
      }
      if (eof) {
        --in_flight;
        continue;
      }
      slots[i] = {next, 0};
      next += size;
      queue(i);
    }
  }
  io_uring_queue_exit(&ring);
  return total;
}

/// The newlines of [p, p + n), 32 bytes a step where AVX2 is there (so
/// that the mapping, not this loop, is what --mmap measures).
__attribute__((target("avx2,popcnt"))) std::uint64_t count_newlines_avx2(const unsigned char *p,
                                                                         std::size_t n) {
  std::uint64_t count = 0;
  std::size_t i = 0;
  const __m256i newline = _mm256_set1_epi8('\n');
  for (; i + 32 <= n; i += 32) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + i));
    count += static_cast<std::uint64_t>(__builtin_popcount(
        static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, newline)))));
  }
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

std::uint64_t count_newlines(const unsigned char *p, std::size_t n) {
  if (__builtin_cpu_supports("avx2")) return count_newlines_avx2(p, n);
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < n; ++i) count += p[i] == '\n';
  return count;
}

/// Maps the file and counts its newlines on `threads` threads, each over
/// one contiguous share. Returns the bytes mapped; *newlines gets the count.
std::uint64_t mmap_loop(int fd, unsigned threads, std::uint64_t *newlines) {
  const off_t end = lseek(fd, 0, SEEK_END);
  if (end <= 0) return 0;
  const auto size = static_cast<std::size_t>(end);
  void *map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) die("mmap", errno);
  madvise(map, size, MADV_SEQUENTIAL);
  const auto *base = static_cast<const unsigned char *>(map);
  std::vector<std::uint64_t> counts(threads);
  std::vector<std::thread> pool;
  const std::size_t share = (size + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t from = std::min(size, t * share);
    const std::size_t to = std::min(size, from + share);
    pool.emplace_back([&, t, from, to] { counts[t] = count_newlines(base + from, to - from); });
  }
  for (std::thread &thread : pool) thread.join();
  *newlines = 0;
  for (std::uint64_t c : counts) *newlines += c;
  munmap(map, size);
  return size;
}

}  // namespace

int main(int argc, char **argv) {
  std::size_t size = std::size_t{1} << 20;
  unsigned depth = 4;
  bool uring = false;
  bool fixed = false;
  bool async = false;
  bool direct = false;
  bool mapped = false;
  unsigned threads = 1;
  const char *path = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.starts_with("--size=")) {
      size = parse_size(arg.substr(7));
    } else if (arg.starts_with("--depth=")) {
      depth = static_cast<unsigned>(std::strtoul(argv[i] + 8, nullptr, 10));
    } else if (arg == "--uring") {
      uring = true;
    } else if (arg == "--fixed") {
      fixed = true;
    } else if (arg == "--async") {
      async = true;
    } else if (arg == "--direct") {
      direct = true;
    } else if (arg == "--mmap") {
      mapped = true;
    } else if (arg.starts_with("--threads=")) {
      threads = static_cast<unsigned>(std::strtoul(argv[i] + 10, nullptr, 10));
    } else {
      path = argv[i];
    }
  }
  if (path == nullptr || size == 0 || depth == 0 || threads == 0 || (direct && size % 4096 != 0)) {
    std::fputs(
        "usage: read_loop [--size=BYTES] [--direct] [--uring [--depth=N] [--fixed] [--async]] "
        "FILE\n"
        "       read_loop --mmap [--threads=N] FILE\n"
        "(--direct: BYTES a multiple of 4096)\n",
        stderr);
    return 2;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0));
  if (fd < 0) die(path, errno);
  const double start = seconds_now();
  std::uint64_t newlines = 0;
  const std::uint64_t bytes = mapped  ? mmap_loop(fd, threads, &newlines)
                              : uring ? uring_loop(fd, size, depth, fixed, async)
                                      : read_loop(fd, size);
  const double elapsed = seconds_now() - start;
  std::string mode = mapped ? "mmap, " + std::to_string(newlines) + " newlines counted on " +
                                  std::to_string(threads) + " threads"
                     : uring ? "uring depth " + std::to_string(depth) + (fixed ? " fixed" : "") +
                                   (async ? " async" : "")
                             : std::string("read");
  if (direct) mode += " O_DIRECT";
  std::printf("%s size %zu: %llu bytes in %.4f s = %.2f GB/s\n", mode.c_str(), size,
              static_cast<unsigned long long>(bytes), elapsed,
              static_cast<double>(bytes) / elapsed / 1e9);
  return 0;
}
