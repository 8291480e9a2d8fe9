// SPDX-License-Identifier: GPL-3.0-or-later
// read_loop: the floor for any wc, a program that reads a file and does
// nothing with the bytes. Either a bare read(2) loop with one buffer (what
// `cat file >/dev/null` does, without the write), or io_uring with DEPTH
// reads in flight into DEPTH buffers (optionally registered, optionally
// IOSQE_ASYNC), so that bench/pipeline/run.sh can put fastwc's numbers next
// to what the kernel can deliver and find the read sizes and depths that
// keep the bytes in cache. Prints one line: mode, bytes, seconds, GB/s.
//
//   read_loop [--size=BYTES] [--uring [--depth=N] [--fixed] [--async]] FILE
#include <fcntl.h>
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
    if (const int r = io_uring_register_buffers(&ring, buffers.data(), depth); r < 0) die("register", -r);
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

}  // namespace

int main(int argc, char **argv) {
  std::size_t size = std::size_t{1} << 20;
  unsigned depth = 4;
  bool uring = false;
  bool fixed = false;
  bool async = false;
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
    } else {
      path = argv[i];
    }
  }
  if (path == nullptr || size == 0 || depth == 0) {
    std::fputs("usage: read_loop [--size=BYTES] [--uring [--depth=N] [--fixed] [--async]] FILE\n", stderr);
    return 2;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) die(path, errno);
  const double start = seconds_now();
  const std::uint64_t bytes = uring ? uring_loop(fd, size, depth, fixed, async) : read_loop(fd, size);
  const double elapsed = seconds_now() - start;
  std::string mode = uring ? "uring depth " + std::to_string(depth) + (fixed ? " fixed" : "") + (async ? " async" : "")
                           : std::string("read");
  std::printf("%s size %zu: %llu bytes in %.4f s = %.2f GB/s\n", mode.c_str(), size,
              static_cast<unsigned long long>(bytes), elapsed, static_cast<double>(bytes) / elapsed / 1e9);
  return 0;
}
