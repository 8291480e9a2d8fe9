// SPDX-License-Identifier: GPL-3.0-or-later
// An embedder's view of libfastwc: count lines, words and bytes of each
// file named on the command line (standard input when none is), with the
// rules of the active locale, and print them as "LINES WORDS BYTES NAME".
//
// Build against an installed libfastwc:
//   c++ -std=c++20 wc_lines_words.cpp $(pkg-config --cflags --libs fastwc)
#include <clocale>
#include <cstdio>
#include <cstring>
#include <fastwc/engine.hpp>
#include <fastwc/version.hpp>

int main(int argc, char **argv) {
  // Character classes come from the locale active when counting starts.
  std::setlocale(LC_ALL, "");
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("libfastwc %s\n", FASTWC_VERSION_STRING);
    return 0;
  }
  const fastwc::CountOptions options = fastwc::options_for_current_locale(
      fastwc::Selection::gnu_default(), fastwc::WordRule::non_space_constituents);
  int status = 0;
  auto print = [&](const fastwc::CountResult &result, const char *name) {
    if (result.error != 0) {
      std::fprintf(stderr, "%s: %s\n", name, std::strerror(result.error));
      status = 1;
    }
    std::printf("%llu %llu %llu %s\n", static_cast<unsigned long long>(result.counts.lines),
                static_cast<unsigned long long>(result.counts.words),
                static_cast<unsigned long long>(result.counts.bytes), name);
  };
  if (argc == 1) print(fastwc::count_fd(0, options), "-");
  for (int i = 1; i < argc; ++i) print(fastwc::count_path(argv[i], options), argv[i]);
  return status;
}
