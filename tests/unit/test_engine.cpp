// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the public engine API (include/fastwc/engine.hpp, options.hpp):
// Counter and count_buffer agree with the reference engine, count_fd reads
// pipes and files larger than its buffer, count_path reports errno values,
// and options_for_current_locale maps the locale to an encoding.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <thread>

#include "count/reference_counter.hpp"
#include "fastwc/engine.hpp"

using namespace std::string_view_literals;

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::WordRule;

struct GlobalLocale {
  explicit GlobalLocale(const char *name) { REQUIRE(std::setlocale(LC_ALL, name) != nullptr); }
  ~GlobalLocale() { std::setlocale(LC_ALL, "C"); }
  GlobalLocale(const GlobalLocale &) = delete;
  GlobalLocale &operator=(const GlobalLocale &) = delete;
};

std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size()};
}

CountOptions utf8_options(WordRule rule) {
  CountOptions options;
  options.selection = fastwc::Selection::all();
  options.encoding = Encoding::utf8;
  options.word_rule = rule;
  return options;
}

/// About `size` bytes of text where multibyte characters and truncated
/// sequences often straddle the 256 KiB read boundaries.
std::string mixed_text(std::size_t size) {
  static const std::string_view pool[] = {"word ", "中文",   "😀", "\t",   "\n",     "\344\270",
                                          "\377",  "\u00a0", "é", "\0"sv, "\u3000", "\r"};
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(pool) - 1);
  std::string out;
  while (out.size() < size) out += pool[pick(rng)];
  return out;
}

struct TempFile {
  std::string path;
  explicit TempFile(std::string_view contents) {
    char name[] = "/tmp/fastwc-engine-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    path = name;
    std::size_t done = 0;
    while (done < contents.size()) {
      const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;
};

}  // namespace

TEST_CASE("engine: Counter and count_buffer equal the reference engine") {
  const GlobalLocale global("C.UTF-8");
  const std::string text = mixed_text(10'000);
  for (WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents}) {
    const CountOptions options = utf8_options(rule);
    fastwc::count::ReferenceCounter reference(options);
    reference.update(as_bytes(text));
    const Counts want = reference.finish();
    CHECK(fastwc::count_buffer(as_bytes(text), options) == want);

    fastwc::Counter counter(options);
    counter.update(as_bytes(std::string_view(text).substr(0, 4001)));
    fastwc::Counter moved(std::move(counter));
    moved.update(as_bytes(std::string_view(text).substr(4001)));
    CHECK(moved.finish() == want);
    // Reusable after finish().
    moved.update(as_bytes("two words\n"sv));
    CHECK(moved.finish() == Counts{1, 2, 10, 10, 9});
  }
}

TEST_CASE("engine: finish_after_error keeps counts but drops a truncated tail") {
  const GlobalLocale global("C.UTF-8");
  fastwc::Counter counter(utf8_options(WordRule::non_space_constituents));
  counter.update(as_bytes("a \344\270"sv));
  CHECK(counter.finish_after_error() == Counts{0, 1, 2, 4, 2});
  counter.update(as_bytes("a \344\270"sv));
  CHECK(counter.finish() == Counts{0, 2, 2, 4, 2});
}

TEST_CASE("engine: count_path reads files larger than its buffer") {
  const GlobalLocale global("C.UTF-8");
  const std::string text = mixed_text(700'000);
  const TempFile file(text);
  for (WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents}) {
    const CountOptions options = utf8_options(rule);
    const fastwc::CountResult result = fastwc::count_path(file.path.c_str(), options);
    CHECK(result.error == 0);
    CHECK(result.counts == fastwc::count_buffer(as_bytes(text), options));
    CHECK(result.counts.bytes == text.size());
  }
}

TEST_CASE("engine: count_fd reads a pipe in small writes from its current offset") {
  const GlobalLocale global("C.UTF-8");
  const std::string text = mixed_text(100'000);
  const CountOptions options = utf8_options(WordRule::printable_constituents);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    // Odd-sized writes cut characters between reads.
    for (std::size_t done = 0; done < text.size();) {
      const std::size_t chunk = std::min<std::size_t>(777, text.size() - done);
      const ssize_t n = ::write(fds[1], text.data() + done, chunk);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  const fastwc::CountResult result = fastwc::count_fd(fds[0], options);
  writer.join();
  ::close(fds[0]);
  CHECK(result.error == 0);
  CHECK(result.counts == fastwc::count_buffer(as_bytes(text), options));

  // From the current offset: only what is left is counted.
  const TempFile file("skip\nrest of it\n");
  const int fd = ::open(file.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  REQUIRE(::lseek(fd, 5, SEEK_SET) == 5);
  const fastwc::CountResult rest = fastwc::count_fd(fd, options);
  ::close(fd);
  CHECK(rest.counts == Counts{1, 3, 11, 11, 10});
}

TEST_CASE("engine: count_path reports open and read errors") {
  const CountOptions options = utf8_options(WordRule::printable_constituents);
  const fastwc::CountResult missing = fastwc::count_path("/nonexistent/fastwc-test", options);
  CHECK(missing.error == ENOENT);
  CHECK(missing.counts == Counts{});
  // A directory opens but read() fails with EISDIR, as `wc /tmp` reports.
  const fastwc::CountResult directory = fastwc::count_path("/tmp", options);
  CHECK(directory.error == EISDIR);
  CHECK(directory.counts == Counts{});
}

TEST_CASE("engine: options_for_current_locale") {
  const auto selection = fastwc::Selection::all();
  {
    const GlobalLocale global("C");
    const CountOptions options =
        fastwc::options_for_current_locale(selection, WordRule::non_space_constituents);
    CHECK(options.encoding == Encoding::single_byte);
    CHECK(options.word_rule == WordRule::non_space_constituents);
    CHECK(options.selection == selection);
    // Presence of POSIXLY_CORRECT, whatever its value (not changed here).
    CHECK(options.nbsp_separates_words == (std::getenv("POSIXLY_CORRECT") == nullptr));
  }
  {
    const GlobalLocale global("C.UTF-8");
    const CountOptions options =
        fastwc::options_for_current_locale(selection, WordRule::printable_constituents);
    CHECK(options.encoding == Encoding::utf8);
    CHECK(options.word_rule == WordRule::printable_constituents);
  }
}
