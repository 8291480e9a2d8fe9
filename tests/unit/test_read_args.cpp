// SPDX-License-Identifier: GPL-3.0-or-later
// fastwc's reading options (src/cli/read_args.*): --jobs, --io, --read-size
// and --stats with their abbreviations, FASTWC_JOBS / FASTWC_IO /
// FASTWC_READ_SIZE / FASTWC_SERIAL_THRESHOLD with the option winning, the
// GNU-style diagnostics and exit status 1 for bad values, and GNU's own
// abbreviations and "--=x" list left exactly as they were.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/read_args.hpp"

namespace {

using fastwc::IoBackend;
using fastwc::cli::Compat;
using fastwc::cli::parse_args;
using fastwc::cli::ParseOutcome;

const Compat gnu_9_10{{9, 10}};

/// Parses argv and returns the outcome together with what went to stderr.
struct Parsed {
  ParseOutcome outcome;
  std::string errors;
};

Parsed parse(std::initializer_list<const char *> words) {
  std::vector<std::string> storage(words.begin(), words.end());
  std::vector<char *> argv;
  for (auto &word : storage) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stderr);
  FILE *capture = std::tmpfile();
  REQUIRE(capture != nullptr);
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  Parsed parsed{parse_args(static_cast<int>(storage.size()), argv.data(), gnu_9_10), {}};
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(capture);
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, capture)) > 0) parsed.errors.append(buffer, n);
  std::fclose(capture);
  return parsed;
}

/// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      unsetenv(name_);
    } else {
      setenv(name_, old_.c_str(), 1);
    }
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

 private:
  const char *name_;
  std::string old_;
};

}  // namespace

TEST_CASE("read options: values, suffixes and abbreviations") {
  auto p = parse({"wc", "--jobs=3", "--io=read", "--read-size=64K", "--stats", "f"});
  REQUIRE(p.outcome.config);
  CHECK(p.outcome.config->read.jobs == 3);
  CHECK(p.outcome.config->read.backend == IoBackend::read);
  CHECK(p.outcome.config->read.read_size == 65536);
  CHECK(p.outcome.config->stats);
  CHECK(p.outcome.config->operands == std::vector<std::string>{"f"});

  p = parse({"wc", "--j", "2", "--io=u", "--r=1M", "--s", "--l"});
  REQUIRE(p.outcome.config);
  CHECK(p.outcome.config->read.jobs == 2);
  CHECK(p.outcome.config->read.backend == IoBackend::uring);
  CHECK(p.outcome.config->read.read_size == std::size_t{1} << 20);
  CHECK(p.outcome.config->stats);
  CHECK(p.outcome.config->selection.lines);  // GNU's --l is still --lines

  CHECK(parse({"wc", "--read-size=4096"}).outcome.config->read.read_size == 4096);
  CHECK(parse({"wc", "--read-size=2MiB"}).outcome.config->read.read_size == std::size_t{2} << 20);
  CHECK(parse({"wc", "--read-size=32M"}).outcome.config->read.read_size ==
        fastwc::cli::max_read_size);
  CHECK(parse({"wc", "--io=auto"}).outcome.config->read.backend == IoBackend::automatic);
  CHECK(parse({"wc", "--io=pread"}).outcome.config->read.backend == IoBackend::pread);
  CHECK(parse({"wc", "--io=p"}).outcome.config->read.backend == IoBackend::pread);
  CHECK(parse({"wc", "--io=r"}).outcome.config->read.backend == IoBackend::read);
  CHECK(parse({"wc", "--jobs=256"}).outcome.config->read.jobs == 256);

  // Nothing given: the defaults of ReadOptions.
  p = parse({"wc", "f"});
  REQUIRE(p.outcome.config);
  CHECK(p.outcome.config->read == fastwc::ReadOptions{});
  CHECK(p.outcome.config->tuning == fastwc::ReadTuning{});
  CHECK_FALSE(p.outcome.config->stats);
}

TEST_CASE("read options: bad values are GNU-style errors with status 1") {
  struct Bad {
    const char *argument;
    const char *message;
  };
  for (const Bad &bad :
       {Bad{"--jobs=0", "invalid --jobs argument"}, Bad{"--jobs=x", "invalid --jobs argument"},
        Bad{"--jobs=-1", "invalid --jobs argument"}, Bad{"--jobs= 2", "invalid --jobs argument"},
        Bad{"--jobs=257", "--jobs argument"}, Bad{"--jobs=2K", "invalid --jobs argument"},
        Bad{"--jobs=99999999999999999999999", "too large"},
        Bad{"--read-size=0", "invalid --read-size argument"},
        Bad{"--read-size=12X", "invalid suffix in --read-size argument"},
        Bad{"--read-size=33M", "--read-size argument"}, Bad{"--read-size=1G", "too large"},
        Bad{"--io=mmap", "invalid argument"}, Bad{"--io=", "ambiguous argument"}}) {
    CAPTURE(bad.argument);
    const auto p = parse({"wc", bad.argument, "f"});
    CHECK_FALSE(p.outcome.config);
    CHECK(p.outcome.exit_status == 1);
    CHECK(p.errors.find(bad.message) != std::string::npos);
  }
  const auto p = parse({"wc", "--io=x"});
  CHECK(p.errors.find("Valid arguments are:\n  - 'auto'\n  - 'uring'\n  - 'read'\n  - 'pread'\n") !=
        std::string::npos);
  CHECK(p.errors.find("--help' for more information") != std::string::npos);
}

TEST_CASE("read options: the environment, and the option winning over it") {
  {
    ScopedEnv jobs("FASTWC_JOBS", "5");
    ScopedEnv io("FASTWC_IO", "read");
    ScopedEnv size("FASTWC_READ_SIZE", "8K");
    ScopedEnv threshold("FASTWC_SERIAL_THRESHOLD", "0");
    ScopedEnv async("FASTWC_URING_ASYNC", "1");
    auto p = parse({"wc", "f"});
    REQUIRE(p.outcome.config);
    CHECK(p.outcome.config->read.jobs == 5);
    CHECK(p.outcome.config->read.backend == IoBackend::read);
    CHECK(p.outcome.config->read.read_size == 8192);
    CHECK(p.outcome.config->tuning.serial_threshold == 0);
    CHECK(p.outcome.config->tuning.pread_threshold == 0);
    CHECK(p.outcome.config->tuning.async_reads);
    p = parse({"wc", "--jobs=1", "--io=uring", "--read-size=4K", "f"});
    REQUIRE(p.outcome.config);
    CHECK(p.outcome.config->read.jobs == 1);
    CHECK(p.outcome.config->read.backend == IoBackend::uring);
    CHECK(p.outcome.config->read.read_size == 4096);
  }
  {
    // An empty variable is unset.
    ScopedEnv jobs("FASTWC_JOBS", "");
    CHECK(parse({"wc", "f"}).outcome.config->read.jobs == 0);
  }
  for (const char *name : {"FASTWC_JOBS", "FASTWC_IO", "FASTWC_READ_SIZE",
                           "FASTWC_SERIAL_THRESHOLD", "FASTWC_URING_ASYNC"}) {
    CAPTURE(name);
    ScopedEnv bad(name, "bogus");
    auto p = parse({"wc", "f"});
    CHECK_FALSE(p.outcome.config);
    CHECK(p.outcome.exit_status == 1);
    CHECK(p.errors.find(std::string("invalid ") + name + " value 'bogus'") != std::string::npos);
  }
  // A bad variable does not matter when its option is given.
  ScopedEnv bad("FASTWC_JOBS", "bogus");
  CHECK(parse({"wc", "--jobs=2", "f"}).outcome.config);
}

TEST_CASE("read options: '--=x' sees exactly GNU's option list") {
  using fastwc::cli::has_empty_long_option;
  std::vector<std::string> words = {"wc", "-l", "--=x"};
  std::vector<char *> argv;
  for (auto &word : words) argv.push_back(word.data());
  CHECK(has_empty_long_option(3, argv.data()));
  words = {"wc", "--", "--=x"};
  argv.clear();
  for (auto &word : words) argv.push_back(word.data());
  CHECK_FALSE(has_empty_long_option(3, argv.data()));

  const auto p = parse({"wc", "--=x"});
  CHECK(p.outcome.exit_status == 1);
  CHECK(p.errors.find("'--bytes'") != std::string::npos);
  CHECK(p.errors.find("--jobs") == std::string::npos);
  CHECK(p.errors.find("--stats") == std::string::npos);
}
