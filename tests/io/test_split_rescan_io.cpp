// SPDX-License-Identifier: GPL-3.0-or-later
// GNU >= 9.5's split rescan (its word counts depend on where its reads
// end) through the pipeline: a regular file counted in parallel, whose
// GNU boundaries are walked afterwards, and a pipe, whose boundaries are
// the writer's and whose reads the reader thread must make exactly as
// GNU's loop makes them. The oracle is the serial GNU-read reference.
#include <doctest/doctest.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "../support/split_rescan_text.hpp"
#include "engine/gnu_read_loop.hpp"
#include "io_test_support.hpp"

namespace {

using fastwc::ReadStats;
using fastwc::pipeline::ReadSettings;
using namespace io_test;

TEST_CASE("pipeline: GNU 9.5+'s split rescan on a regular file, counted in parallel") {
  GlobalLocale locale("C.UTF-8");
  // GNU's read sizes (16 KiB in 9.5, 256 KiB from 9.6), both UTF-8 decoders
  // (glibc's carries more), from the start and from an offset: every
  // boundary of a multi-MiB file, where GNU's loop would read, must get the
  // words the serial GNU-read reference gives, whatever the chunks.
  const std::string text = fastwc::testing::split_rescan_text(3 * 1024 * 1024 + 4321, 77);
  TempFile file(text);
  int checked = 0;
  int quirk_seen = 0;
  for (const std::uint32_t gnu_read : {16u * 1024, 256u * 1024})
    for (const auto decoding : {fastwc::Utf8Decoding::glibc, fastwc::Utf8Decoding::rfc3629})
      for (const off_t start : {off_t{0}, off_t{12345}}) {
        CountOptions options;
        options.selection = Selection::all();
        options.encoding = Encoding::utf8;
        options.word_rule = WordRule::non_space_constituents;
        options.utf8_decoding = decoding;
        options.gnu_split_rescan_read_size = gnu_read;
        std::size_t offset = static_cast<std::size_t>(start);
        const auto expected = fastwc::engine::count_with_gnu_reads_reference(
            options, [&](std::byte *buffer, std::size_t size) {
              const std::size_t n = std::min(size, text.size() - offset);
              std::memcpy(buffer, text.data() + offset, n);
              offset += n;
              return static_cast<ssize_t>(n);
            });
        CountOptions contiguous = options;
        contiguous.gnu_split_rescan_read_size = 0;
        const auto rest = std::string_view(text).substr(static_cast<std::size_t>(start));
        if (reference_counts(rest, contiguous).words != expected.counts.words) ++quirk_seen;
        for (const unsigned jobs : {1u, 2u, 3u})
          for (const std::size_t read_size : {std::size_t{4096}, std::size_t{100000}}) {
            CAPTURE(gnu_read);
            CAPTURE(static_cast<int>(decoding));
            CAPTURE(start);
            CAPTURE(jobs);
            CAPTURE(read_size);
            ReadSettings read;
            read.jobs = jobs;
            read.read_size = read_size;
            read.serial_threshold = 0;
            REQUIRE(::lseek(file.fd(), start, SEEK_SET) == start);
            ReadStats stats;
            const auto got = count(file.fd(), options, read, stats);
            CHECK(got.error == 0);
            CHECK(show(got.counts) == show(expected.counts));
            CHECK(stats.path != ReadStats::Path::serial);
            CHECK(offset_of(file.fd()) == static_cast<off_t>(text.size()));
            ++checked;
          }
      }
  CHECK(checked == 48);
  // The quirk must change the word count in most configurations, or the
  // comparison proves nothing.
  CHECK(quirk_seen >= 4);
}

/// Every read(2) made, in order: what was asked for and what came.
class JournalSys final : public fastwc::io::Sys {
 public:
  struct Entry {
    std::size_t asked;
    ssize_t got;
  };
  ssize_t read(int fd, void *buffer, std::size_t size) noexcept override {
    const ssize_t n = Sys::real().read(fd, buffer, size);
    const std::lock_guard lock(mutex_);
    journal_.push_back({size, n});
    return n;
  }
  std::vector<Entry> journal() const {
    const std::lock_guard lock(mutex_);
    return journal_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> journal_;
};

TEST_CASE("pipeline: GNU 9.5+'s reads of a pipe, made by the reader thread") {
  GlobalLocale locale("C.UTF-8");
  // On a pipe GNU's read boundaries are the writer's: fastwc must ask for
  // exactly the sizes GNU's loop asks for (the read size less the carried
  // bytes), serially and then on the reader thread, and count what those
  // reads returned as GNU would. The oracle replays the same reads into
  // the serial GNU-read reference and checks each size asked for.
  const std::string text = fastwc::testing::split_rescan_text(3 * 1024 * 1024 + 777, 91);
  int checked = 0;
  int quirk_seen = 0;
  for (const std::uint32_t gnu_read : {16u * 1024, 256u * 1024})
    for (const auto decoding : {fastwc::Utf8Decoding::glibc, fastwc::Utf8Decoding::rfc3629})
      for (const std::uint64_t threshold : {std::uint64_t{0}, std::uint64_t{1} << 20})
        for (const unsigned jobs : {1u, 3u})
          for (const std::size_t read_size : {std::size_t{4096}, std::size_t{1} << 20}) {
            CAPTURE(gnu_read);
            CAPTURE(static_cast<int>(decoding));
            CAPTURE(threshold);
            CAPTURE(jobs);
            CAPTURE(read_size);
            CountOptions options = utf8_all();
            options.utf8_decoding = decoding;
            options.gnu_split_rescan_read_size = gnu_read;
            ReadSettings read;
            read.jobs = jobs;
            read.read_size = read_size;
            read.serial_threshold = threshold;
            FedPipe pipe(text, static_cast<unsigned>(gnu_read + jobs + threshold));
            JournalSys sys;
            ReadStats stats;
            const auto got = count(pipe.fd(), options, read, sys, stats);
            CHECK(got.error == 0);
            CHECK(stats.path == ReadStats::Path::read);

            const std::vector<JournalSys::Entry> journal = sys.journal();
            std::size_t call = 0;
            std::size_t offset = 0;
            bool same_sizes = true;
            const auto expected = fastwc::engine::count_with_gnu_reads_reference(
                options, [&](std::byte *buffer, std::size_t size) -> ssize_t {
                  if (call == journal.size()) return 0;
                  const JournalSys::Entry entry = journal[call++];
                  if (entry.asked != size || entry.got > static_cast<ssize_t>(size)) {
                    same_sizes = false;
                    return 0;
                  }
                  if (entry.got <= 0) return entry.got;
                  std::memcpy(buffer, text.data() + offset, static_cast<std::size_t>(entry.got));
                  offset += static_cast<std::size_t>(entry.got);
                  return entry.got;
                });
            CHECK(same_sizes);
            CHECK(call == journal.size());
            CHECK(offset == text.size());
            CHECK(show(got.counts) == show(expected.counts));
            CountOptions contiguous = options;
            contiguous.gnu_split_rescan_read_size = 0;
            if (reference_counts(text, contiguous).words != expected.counts.words) ++quirk_seen;
            ++checked;
          }
  CHECK(checked == 32);
  // Pipe reads end anywhere, so the quirk must show in most runs, or the
  // comparison proves nothing.
  CHECK(quirk_seen >= 16);
}

}  // namespace
