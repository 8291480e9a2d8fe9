// SPDX-License-Identifier: GPL-3.0-or-later
// Option parsing: GNU's option table, abbreviations, bundling, --total per
// version, and the usage errors' exit status.
#include <doctest/doctest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "cli/args.hpp"

namespace {

using fastwc::Selection;
using fastwc::cli::Compat;
using fastwc::cli::parse_args;
using fastwc::cli::ParseOutcome;
using fastwc::cli::TotalMode;

const Compat gnu_9_1{{9, 1}};
const Compat gnu_9_10{{9, 10}};

ParseOutcome parse(std::initializer_list<const char *> words, const Compat &compat = gnu_9_1) {
  std::vector<std::string> storage(words.begin(), words.end());
  std::vector<char *> argv;
  for (auto &word : storage) argv.push_back(word.data());
  argv.push_back(nullptr);
  return parse_args(static_cast<int>(storage.size()), argv.data(), compat);
}

}  // namespace

TEST_CASE("no count option means lines, words and bytes") {
  auto outcome = parse({"wc", "f"});
  REQUIRE(outcome.config);
  CHECK(outcome.config->selection == Selection::gnu_default());
  CHECK(outcome.config->operands == std::vector<std::string>{"f"});
}

TEST_CASE("bundled short options and permuted operands") {
  auto outcome = parse({"wc", "a", "-Lc", "b", "-m"});
  REQUIRE(outcome.config);
  CHECK(outcome.config->selection == Selection{false, false, true, true, true});
  CHECK(outcome.config->operands == std::vector<std::string>{"a", "b"});
}

TEST_CASE("unique prefixes of long options are accepted") {
  auto outcome = parse({"wc", "--li", "--ch", "--m", "--w", "--by", "--files0=list"});
  REQUIRE(outcome.config);
  CHECK(outcome.config->selection == Selection::all());
  CHECK(outcome.config->files0_from == std::string("list"));
}

TEST_CASE("-- ends options and - is an operand") {
  auto outcome = parse({"wc", "--", "-l", "-"});
  REQUIRE(outcome.config);
  CHECK(outcome.config->operands == std::vector<std::string>{"-l", "-"});
}

TEST_CASE("--total exists from GNU 9.2 on") {
  CHECK_FALSE(parse({"wc", "--total=only", "f"}).config);
  CHECK(parse({"wc", "--total=only", "f"}).exit_status == 1);
  auto outcome = parse({"wc", "--total=o", "f"}, gnu_9_10);
  REQUIRE(outcome.config);
  CHECK(outcome.config->total_mode == TotalMode::only);
  CHECK(parse({"wc", "--total=al"}, gnu_9_10).config->total_mode == TotalMode::always);
  CHECK(parse({"wc", "--total=never"}, gnu_9_10).config->total_mode == TotalMode::never);
  CHECK_FALSE(parse({"wc", "--total=a"}, gnu_9_10).config);  // ambiguous: auto, always
  CHECK_FALSE(parse({"wc", "--total=x"}, gnu_9_10).config);
}

TEST_CASE("--progress, abbreviated or from FASTWC_PROGRESS=1") {
  CHECK_FALSE(parse({"wc", "f"}).config->progress);
  CHECK(parse({"wc", "--progress", "f"}).config->progress);
  CHECK(parse({"wc", "--p", "f"}).config->progress);  // no GNU option starts with p
  CHECK(parse({"wc", "--progress=1", "f"}).exit_status == 1);
  setenv("FASTWC_PROGRESS", "1", 1);
  CHECK(parse({"wc", "f"}).config->progress);
  setenv("FASTWC_PROGRESS", "0", 1);
  CHECK_FALSE(parse({"wc", "f"}).config->progress);
  unsetenv("FASTWC_PROGRESS");
}

TEST_CASE("usage errors exit with status 1") {
  CHECK(parse({"wc", "-x"}).exit_status == 1);
  CHECK(parse({"wc", "--lines=2"}).exit_status == 1);
  CHECK(parse({"wc", "--files0-from"}).exit_status == 1);
  CHECK(parse({"wc", "--files0-from=list", "f1"}).exit_status == 1);
  CHECK(parse({"wc", "--nosuch"}).exit_status == 1);
}
