// SPDX-License-Identifier: GPL-3.0-or-later
// Option parsing with the C library's getopt_long, which is what GNU wc uses
// on glibc: its diagnostics ("invalid option -- 'x'", "unrecognized option",
// "option '--lines' doesn't allow an argument") come from glibc itself, in
// the same words and translations.
#include "cli/args.hpp"

#include <getopt.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/argmatch.hpp"
#include "cli/option_table.hpp"
#include "cli/read_args.hpp"
#include "cli/usage.hpp"
#include "out/messages.hpp"
#include "out/quote.hpp"

namespace fastwc::cli {

namespace {

constexpr std::array<std::string_view, 4> total_arguments = {"auto", "always", "only", "never"};
constexpr std::array<TotalMode, 4> total_modes = {TotalMode::automatic, TotalMode::always,
                                                  TotalMode::only, TotalMode::never};

}  // namespace

ParseOutcome parse_args(int argc, char **argv, const Compat &compat) {
  // getopt_long's table from the option table, in GNU's order (glibc lists
  // the candidates of an ambiguous abbreviation, as for wc --=x, in table
  // order). An option the matched version lacks (--debug before 9.0,
  // --total before 9.2) is unrecognized there, and "--d" or "--t" no
  // abbreviation of it. fastwc's own options are left out when the only
  // effect they could have is to lengthen the list of an ambiguous "--=x".
  const bool gnu_options_only = has_empty_long_option(argc, argv);
  std::vector<const OptionSpec *> specs;
  std::string short_options;
  for (const OptionSpec &spec : option_table) {
    if (spec.short_name != '\0') short_options += spec.short_name;
    if (!option_exists(spec, compat)) continue;
    if (spec.owner == OptionOwner::fastwc && gnu_options_only) continue;
    specs.push_back(&spec);
  }
  std::sort(specs.begin(), specs.end(), [](const OptionSpec *a, const OptionSpec *b) {
    return a->getopt_position < b->getopt_position;
  });
  std::vector<option> long_options;
  for (const OptionSpec *spec : specs) {
    long_options.push_back({spec->name.data(),
                            spec->argument.empty() ? no_argument : required_argument, nullptr,
                            static_cast<int>(spec->id)});
  }
  long_options.push_back({nullptr, 0, nullptr, 0});

  Config config;
  ReadOptionsGiven read_given;
  optind = 0;  // a full re-initialisation, so that tests may parse repeatedly
  int option_char;
  while ((option_char =
              getopt_long(argc, argv, short_options.c_str(), long_options.data(), nullptr)) != -1) {
    switch (static_cast<OptionId>(option_char)) {
      case OptionId::bytes:
        config.selection.bytes = true;
        break;
      case OptionId::chars:
        config.selection.chars = true;
        break;
      case OptionId::lines:
        config.selection.lines = true;
        break;
      case OptionId::words:
        config.selection.words = true;
        break;
      case OptionId::max_line_length:
        config.selection.max_line_length = true;
        break;
      case OptionId::debug:
        config.debug = true;
        break;
      case OptionId::files0_from:
        config.files0_from = optarg;
        break;
      case OptionId::total: {
        int index = argmatch(optarg, total_arguments);
        if (index < 0) {
          report_bad_argument(optarg, "--total", total_arguments, index == -2);
          return {std::nullopt, 1};
        }
        config.total_mode = total_modes[static_cast<std::size_t>(index)];
        break;
      }
      case OptionId::jobs:
        read_given.jobs = true;
        if (!parse_jobs_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case OptionId::io:
        read_given.io = true;
        if (!parse_io_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case OptionId::read_size:
        read_given.read_size = true;
        if (!parse_read_size_option(optarg, config.read)) return {std::nullopt, 1};
        break;
      case OptionId::stats:
        config.stats = true;
        break;
      case OptionId::progress:
        config.progress = true;
        break;
      case OptionId::help:
        return {std::nullopt, print_help(compat)};
      case OptionId::version:
        return {std::nullopt, print_version(compat)};
      default:
        out::print_try_help();
        return {std::nullopt, 1};
    }
  }
  if (!apply_read_environment(read_given, config.read, config.tuning)) return {std::nullopt, 1};
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
