// SPDX-License-Identifier: GPL-3.0-or-later
// The --help and --version texts. The options come from the option table,
// as the version being matched has them (--debug from 9.0 on, --total from
// 9.2), then fastwc's own and its environment.
#include "cli/usage.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/option_table.hpp"
#include "fastwc_config.hpp"
#include "out/messages.hpp"

namespace fastwc::cli {

namespace {

/// The option table's rows of one owner, as GNU's --help lays them out:
/// "  -c, --bytes" or "      --files0-from=F", the description from
/// column 26 (or after two spaces when the name is longer), continuation
/// lines from column 28.
void print_options(const Compat &compat, OptionOwner owner) {
  constexpr std::size_t description_column = 25;
  for (const OptionSpec &spec : option_table) {
    if (spec.owner != owner || !option_exists(spec, compat)) continue;
    std::string line = spec.short_name != '\0' ? std::string("  -") + spec.short_name + ", "
                                               : std::string("      ");
    line += "--";
    line += spec.name;
    if (!spec.argument.empty()) {
      line += '=';
      line += spec.argument;
    }
    line.resize(std::max(line.size() + 2, description_column), ' ');
    std::string_view help = spec.help;
    for (std::size_t newline; (newline = help.find('\n')) != std::string_view::npos;) {
      line += help.substr(0, newline);
      line += '\n';
      line.append(description_column + 2, ' ');
      help.remove_prefix(newline + 1);
    }
    line += help;
    line += '\n';
    std::fputs(line.c_str(), stdout);
  }
}

}  // namespace

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
      "the following order: newline, word, character, byte, maximum line length.\n",
      stdout);
  print_options(compat, OptionOwner::gnu);
  std::fputs("\nfastwc's own options, which never change the counts:\n", stdout);
  print_options(compat, OptionOwner::fastwc);
  std::fputs(
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
