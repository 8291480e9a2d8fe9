// SPDX-License-Identifier: GPL-3.0-or-later
// Every command-line option, once: getopt_long's table (cli/args.cpp),
// --help (cli/usage.cpp) and the test that the man page documents every
// option read it. Adding an option is a row here and its case in
// parse_args().
#pragma once

#include <array>
#include <string_view>

#include "cli/compat.hpp"

namespace fastwc::cli {

/// What getopt_long returns for an option: the short name where there is
/// one, else a value above every character.
enum class OptionId : int {
  bytes = 'c',
  chars = 'm',
  lines = 'l',
  words = 'w',
  max_line_length = 'L',
  debug = 256,
  files0_from,
  total,
  help,
  version,
  jobs,
  io,
  read_size,
  stats,
  progress,
};

enum class OptionOwner : unsigned char {
  gnu,     ///< GNU wc's, with its semantics
  fastwc,  ///< fastwc's own, which never changes the counts
};

struct OptionSpec {
  OptionId id;
  char short_name;        ///< '\0': a long option only
  std::string_view name;  ///< the long name, without "--"
  /// The argument's name in --help ("F", "WHEN"); empty: takes none.
  std::string_view argument;
  OptionOwner owner;
  /// Where GNU's longopts array has it (wc.c): glibc lists the candidates
  /// of an ambiguous abbreviation in that order.
  int getopt_position;
  /// The GNU versions that have it; null: every version.
  bool (Compat::*exists)() const noexcept;
  /// --help's description; each '\n' starts a continuation line.
  std::string_view help;
};

/// In --help's order.
inline constexpr std::array option_table{
    OptionSpec{OptionId::bytes, 'c', "bytes", "", OptionOwner::gnu, 0, nullptr,
               "print the byte counts"},
    OptionSpec{OptionId::chars, 'm', "chars", "", OptionOwner::gnu, 1, nullptr,
               "print the character counts"},
    OptionSpec{OptionId::lines, 'l', "lines", "", OptionOwner::gnu, 2, nullptr,
               "print the newline counts"},
    OptionSpec{OptionId::files0_from, '\0', "files0-from", "F", OptionOwner::gnu, 5, nullptr,
               "read input from the files specified by\n"
               "NUL-terminated names in file F;\n"
               "If F is - then read names from standard input"},
    OptionSpec{OptionId::max_line_length, 'L', "max-line-length", "", OptionOwner::gnu, 6, nullptr,
               "print the maximum display width"},
    OptionSpec{OptionId::words, 'w', "words", "", OptionOwner::gnu, 3, nullptr,
               "print the word counts"},
    OptionSpec{OptionId::total, '\0', "total", "WHEN", OptionOwner::gnu, 7,
               &Compat::has_total_option,
               "when to print a line with total counts;\n"
               "WHEN can be: auto, always, only, never"},
    OptionSpec{OptionId::debug, '\0', "debug", "", OptionOwner::gnu, 4, &Compat::has_debug_option,
               "report the counting method on standard error"},
    OptionSpec{OptionId::help, '\0', "help", "", OptionOwner::gnu, 8, nullptr,
               "display this help and exit"},
    OptionSpec{OptionId::version, '\0', "version", "", OptionOwner::gnu, 9, nullptr,
               "output version information and exit"},
    OptionSpec{OptionId::jobs, '\0', "jobs", "N", OptionOwner::fastwc, 10, nullptr,
               "count with at most N threads (default: the CPUs available)"},
    OptionSpec{OptionId::io, '\0', "io", "BACKEND", OptionOwner::fastwc, 11, nullptr,
               "read large files with auto (the default), uring, read\n"
               "or pread"},
    OptionSpec{OptionId::read_size, '\0', "read-size", "BYTES", OptionOwner::fastwc, 12, nullptr,
               "bytes per read, K and M suffixes allowed (default: from\n"
               "the CPU's cache sizes)"},
    OptionSpec{OptionId::stats, '\0', "stats", "", OptionOwner::fastwc, 13, nullptr,
               "report how each input was read, and how fast"},
    OptionSpec{OptionId::progress, '\0', "progress", "", OptionOwner::fastwc, 14, nullptr,
               "on a terminal, show a progress line on standard error\n"
               "for each input that takes more than a second"},
};

/// Whether the GNU version being matched has the option (fastwc's own
/// options exist in every version).
inline bool option_exists(const OptionSpec &spec, const Compat &compat) noexcept {
  return spec.exists == nullptr || (compat.*spec.exists)();
}

}  // namespace fastwc::cli
