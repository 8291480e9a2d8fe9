// SPDX-License-Identifier: GPL-3.0-or-later
// small_files_loop: the floor for counting many small files, and the
// experiment behind fastwc's choice not to batch them through io_uring.
// Reads every file of a NUL-separated list (as --files0-from gives them) and
// does nothing with the bytes, either with plain system calls (open, read to
// EOF, close: what GNU wc does, without its stat pre-pass and its writes)
// or through one io_uring: per file an openat into a registered file slot,
// a read from that slot and a close, linked, 64 files per submission.
// Prints one line: mode, files, bytes, seconds.
//
//   small_files_loop [--uring] LIST0
//
// Measured on the project's 2-CPU VM (25,000 files of 1 KiB, page cache
// warm, 2026-11-30): 0.079 s with system calls, 0.077 s through the ring
// (0.149 and 0.138 s while a build ran). The kernel's own work per file
// (path walk, file setup, page-cache copy) dominates; the system calls'
// entry and exit are a few per cent of it, so batching them cannot give the
// 6x over GNU wc that the pipeline's goals ask for: only opening files on several CPUs
// at once could.
#include <fcntl.h>
#include <liburing.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr unsigned batch = 64;
constexpr std::size_t buffer_size = 64 * 1024;

double seconds_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

std::vector<std::string> read_list(const char *path) {
  std::vector<std::string> names;
  FILE *list = std::fopen(path, "rb");
  if (list == nullptr) return names;
  std::string name;
  for (int c; (c = std::fgetc(list)) != EOF;) {
    if (c != 0) {
      name += static_cast<char>(c);
    } else {
      names.push_back(name);
      name.clear();
    }
  }
  std::fclose(list);
  return names;
}

std::uint64_t with_system_calls(const std::vector<std::string> &names, std::vector<char> &buffer) {
  std::uint64_t total = 0;
  for (const std::string &name : names) {
    const int fd = open(name.c_str(), O_RDONLY);
    if (fd < 0) continue;
    for (ssize_t n; (n = read(fd, buffer.data(), buffer.size())) > 0;)
      total += static_cast<std::uint64_t>(n);
    close(fd);
  }
  return total;
}

/// Files up to buffer_size bytes (one read each).
std::uint64_t through_ring(const std::vector<std::string> &names, std::vector<char> &buffers) {
  io_uring ring{};
  if (io_uring_queue_init(3 * batch, &ring, 0) < 0) return 0;
  std::vector<int> slots(batch, -1);
  if (io_uring_register_files(&ring, slots.data(), batch) < 0) return 0;
  std::uint64_t total = 0;
  for (std::size_t first = 0; first < names.size(); first += batch) {
    const std::size_t end = std::min(names.size(), first + batch);
    for (std::size_t i = first; i < end; ++i) {
      const auto slot = static_cast<unsigned>(i - first);
      io_uring_sqe *sqe = io_uring_get_sqe(&ring);
      io_uring_prep_openat_direct(sqe, AT_FDCWD, names[i].c_str(), O_RDONLY, 0, slot);
      sqe->flags |= IOSQE_IO_LINK;
      sqe = io_uring_get_sqe(&ring);
      io_uring_prep_read(sqe, static_cast<int>(slot), buffers.data() + slot * buffer_size,
                         buffer_size, 0);
      sqe->flags |= IOSQE_FIXED_FILE | IOSQE_IO_LINK;
      io_uring_sqe_set_data64(sqe, 1);  // the read: its result is the bytes
      sqe = io_uring_get_sqe(&ring);
      io_uring_prep_close_direct(sqe, slot);
    }
    io_uring_submit_and_wait(&ring, static_cast<unsigned>(3 * (end - first)));
    unsigned seen = 0;
    unsigned head;
    io_uring_cqe *cqe;
    io_uring_for_each_cqe(&ring, head, cqe) {
      if (io_uring_cqe_get_data64(cqe) == 1 && cqe->res > 0)
        total += static_cast<std::uint64_t>(cqe->res);
      ++seen;
    }
    io_uring_cq_advance(&ring, seen);
  }
  io_uring_queue_exit(&ring);
  return total;
}

}  // namespace

int main(int argc, char **argv) {
  const bool uring = argc == 3 && std::strcmp(argv[1], "--uring") == 0;
  if (argc != 2 && !uring) {
    std::fprintf(stderr, "usage: small_files_loop [--uring] LIST0\n");
    return 2;
  }
  const std::vector<std::string> names = read_list(argv[argc - 1]);
  std::vector<char> buffers(uring ? batch * buffer_size : buffer_size);
  const double start = seconds_now();
  const std::uint64_t bytes =
      uring ? through_ring(names, buffers) : with_system_calls(names, buffers);
  const double took = seconds_now() - start;
  std::printf("%s: %zu files, %llu bytes in %.3f s\n",
              uring ? "io_uring (open+read+close linked)" : "system calls", names.size(),
              static_cast<unsigned long long>(bytes), took);
  return 0;
}
