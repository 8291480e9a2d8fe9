// SPDX-License-Identifier: GPL-3.0-or-later
// Option parsing with the C library's getopt_long, which is what GNU wc uses
// on glibc: its diagnostics ("invalid option -- 'x'", "unrecognized option",
// "option '--lines' doesn't allow an argument") come from glibc itself, in
// the same words and translations.
#include "cli/args.hpp"

#include <getopt.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "cli/read_args.hpp"
#include "cli/usage.hpp"
#include "out/messages.hpp"
#include "out/quote.hpp"

namespace fastwc::cli {

namespace {

enum LongOnlyOption : int {
  debug_option = 256,
  files0_from_option,
  total_option,
  help_option,
  version_option,
  jobs_option,
  io_option,
  read_size_option,
  stats_option,
  progress_option,
};

constexpr std::array<std::string_view, 4> total_arguments = {"auto", "always", "only", "never"};
constexpr std::array<TotalMode, 4> total_modes = {TotalMode::automatic, TotalMode::always,
                                                  TotalMode::only, TotalMode::never};

/// gnulib argmatch(): an exact match, else a unique prefix. Returns -1 for
/// no match and -2 for an ambiguous prefix.
int match_total_argument(std::string_view argument) {
  int found = -1;
  for (std::size_t i = 0; i < total_arguments.size(); ++i) {
    if (total_arguments[i] == argument) return static_cast<int>(i);
    if (total_arguments[i].starts_with(argument)) found = found == -1 ? static_cast<int>(i) : -2;
  }
  return found;
}

/// gnulib argmatch_die(): "invalid argument" or "ambiguous argument", the
/// list of valid arguments, then the usage hint.
void report_bad_total_argument(std::string_view argument, bool ambiguous) {
  const char *format = ambiguous ? "ambiguous argument %s for %s" : "invalid argument %s for %s";
  out::report(0, out::format_message(out::translate_gnulib(format),
                                     {out::quote_locale(argument), out::quote_locale("--total")}));
  std::fputs(out::translate_gnulib("Valid arguments are:"), stderr);
  for (auto valid : total_arguments) {
    std::fprintf(stderr, "\n  - %s", out::quote_locale(valid).c_str());
  }
  std::fputc('\n', stderr);
  out::print_try_help();
}

}  // namespace

ParseOutcome parse_args(int argc, char **argv, const Compat &compat) {
  // GNU wc's long options, in GNU's order: getopt lists them in that order
  // when an abbreviation is ambiguous (wc --=x). --debug exists only from 9.0 on and --total
  // from 9.2 on: below that each is an unrecognized option, and "--d" or "--t" is no
  // abbreviation of anything.
  std::vector<option> long_options = {
      {"bytes", no_argument, nullptr, 'c'},
      {"chars", no_argument, nullptr, 'm'},
      {"lines", no_argument, nullptr, 'l'},
      {"words", no_argument, nullptr, 'w'},
  };
  if (compat.has_debug_option())
    long_options.push_back({"debug", no_argument, nullptr, debug_option});
  long_options.push_back({"files0-from", required_argument, nullptr, files0_from_option});
  long_options.push_back({"max-line-length", no_argument, nullptr, 'L'});
  if (compat.has_total_option())
    long_options.push_back({"total", required_argument, nullptr, total_option});
  long_options.push_back({"help", no_argument, nullptr, help_option});
  long_options.push_back({"version", no_argument, nullptr, version_option});
  // fastwc's own options (read_args.hpp), left out when the only effect they
  // could have is to lengthen the list of an ambiguous "--=x".
  if (!has_empty_long_option(argc, argv)) {
    long_options.push_back({"jobs", required_argument, nullptr, jobs_option});
    long_options.push_back({"io", required_argument, nullptr, io_option});
    long_options.push_back({"read-size", required_argument, nullptr, read_size_option});
    long_options.push_back({"stats", no_argument, nullptr, stats_option});
    long_options.push_back({"progress", no_argument, nullptr, progress_option});
  }
  long_options.push_back({nullptr, 0, nullptr, 0});

  Config config;
  ReadOptionsGiven read_given;
  optind = 0;  // a full re-initialisation, so that tests may parse repeatedly
  int option_char;
  while ((option_char = getopt_long(argc, argv, "clLmw", long_options.data(), nullptr)) != -1) {
    switch (option_char) {
      case 'c':
        config.selection.bytes = true;
        break;
      case 'm':
        config.selection.chars = true;
        break;
      case 'l':
        config.selection.lines = true;
        break;
      case 'w':
        config.selection.words = true;
        break;
      case 'L':
        config.selection.max_line_length = true;
        break;
      case debug_option:
        config.debug = true;
        break;
      case files0_from_option:
        config.files0_from = optarg;
        break;
      case total_option: {
        int index = match_total_argument(optarg);
        if (index < 0) {
          report_bad_total_argument(optarg, index == -2);
          return {std::nullopt, 1};
        }
        config.total_mode = total_modes[static_cast<std::size_t>(index)];
        break;
      }
      case jobs_option:
        read_given.jobs = true;
        if (!parse_jobs_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case io_option:
        read_given.io = true;
        if (!parse_io_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case read_size_option:
        read_given.read_size = true;
        if (!parse_read_size_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case stats_option:
        config.stats = true;
        break;
      case progress_option:
        config.progress = true;
        break;
      case help_option:
        return {std::nullopt, print_help(compat)};
      case version_option:
        return {std::nullopt, print_version(compat)};
      default:
        out::print_try_help();
        return {std::nullopt, 1};
    }
  }
  if (!apply_read_environment(read_given, config.read)) return {std::nullopt, 1};
  if (const char *progress = std::getenv("FASTWC_PROGRESS");
      progress != nullptr && std::strcmp(progress, "1") == 0)
    config.progress = true;
  if (config.selection.empty()) config.selection = Selection::gnu_default();
  for (int i = optind; i < argc; ++i) config.operands.emplace_back(argv[i]);

  if (config.files0_from && !config.operands.empty()) {
    // wc: extra operand 'f1' / file operands cannot be combined with ...
    out::report(0, out::format_message(out::translate("extra operand %s"),
                                       {out::quote_always(config.operands.front())}));
    std::fprintf(stderr, "%s\n",
                 out::translate("file operands cannot be combined with --files0-from"));
    out::print_try_help();
    return {std::nullopt, 1};
  }
  return {std::move(config), 0};
}

}  // namespace fastwc::cli
