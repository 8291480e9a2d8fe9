// SPDX-License-Identifier: GPL-3.0-or-later
// The --help and --version texts. The option list mirrors GNU wc's, in the
// version being matched (--debug appears from 9.0 on, --total from 9.2),
// plus fastwc's environment.
#include "cli/usage.hpp"

#include <cstdio>

#include "fastwc_config.hpp"
#include "out/messages.hpp"

namespace fastwc::cli {

int print_help(const Compat &compat) {
  const char *name = out::program_name();
  std::printf(
      "Usage: %s [OPTION]... [FILE]...\n"
      "  or:  %s [OPTION]... --files0-from=F\n",
      name, name);
  std::fputs(
      "Print newline, word, and byte counts for each FILE, and a total line if\n"
      "more than one FILE is specified.  fastwc is a drop-in replacement for GNU wc:\n"
      "same counts, same output, same diagnostics, only faster.\n"
      "\n"
      "With no FILE, or when FILE is -, read standard input.\n"
      "\n"
      "The options below may be used to select which counts are printed, always in\n"
      "the following order: newline, word, character, byte, maximum line length.\n"
      "  -c, --bytes            print the byte counts\n"
      "  -m, --chars            print the character counts\n"
      "  -l, --lines            print the newline counts\n"
      "      --files0-from=F    read input from the files specified by\n"
      "                           NUL-terminated names in file F;\n"
      "                           If F is - then read names from standard input\n"
      "  -L, --max-line-length  print the maximum display width\n"
      "  -w, --words            print the word counts\n",
      stdout);
  if (compat.has_total_option()) {
    std::fputs(
        "      --total=WHEN       when to print a line with total counts;\n"
        "                           WHEN can be: auto, always, only, never\n",
        stdout);
  }
  if (compat.has_debug_option()) {
    std::fputs("      --debug            report the counting method on standard error\n", stdout);
  }
  std::fputs(
      "      --help             display this help and exit\n"
      "      --version          output version information and exit\n"
      "\n"
      "fastwc's own options, which never change the counts:\n"
      "      --jobs=N           count with at most N threads (default: the CPUs available)\n"
      "      --io=BACKEND       read large files with auto (the default), uring, read\n"
      "                           or pread\n"
      "      --read-size=BYTES  bytes per read, K and M suffixes allowed (default: from\n"
      "                           the CPU's cache sizes)\n"
      "      --stats            report how each input was read, and how fast\n"
      "      --progress         on a terminal, show a progress line on standard error\n"
      "                           for each input that takes more than a second\n"
      "\n"
      "Environment:\n"
      "  FASTWC_COMPAT    GNU wc version to match, 8.30 or later (default " FASTWC_DEFAULT_COMPAT
      ")\n"
      "  FASTWC_JOBS, FASTWC_IO, FASTWC_READ_SIZE  defaults for --jobs, --io, --read-size\n"
      "  FASTWC_PROGRESS  1: as --progress\n"
      "  POSIXLY_CORRECT  options end at the first operand; no-break spaces join words\n"
      "  LC_ALL, LC_CTYPE, LANG  the locale decides what a character and a word are\n"
      "\n"
      "See fastwc(1) for details.\n",
      stdout);
  return 0;
}

int print_version(const Compat &compat) {
  std::printf("fastwc " FASTWC_VERSION
              "\n"
              "Matching GNU wc (coreutils) %d.%d\n"
              "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
              "This is free software: you are free to change and redistribute it.\n"
              "There is NO WARRANTY, to the extent permitted by law.\n",
              compat.version.major, compat.version.minor);
  return 0;
}

}  // namespace fastwc::cli
