// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/argmatch.hpp"

#include <cstdio>

#include "out/messages.hpp"
#include "out/quote.hpp"

namespace fastwc::cli {

int argmatch(std::string_view argument, std::span<const std::string_view> valid) noexcept {
  int found = -1;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    if (valid[i] == argument) return static_cast<int>(i);
    if (valid[i].starts_with(argument)) found = found == -1 ? static_cast<int>(i) : -2;
  }
  return found;
}

void report_bad_argument(std::string_view argument, std::string_view option,
                         std::span<const std::string_view> valid, bool ambiguous) {
  const char *format = ambiguous ? "ambiguous argument %s for %s" : "invalid argument %s for %s";
  out::report(0, out::format_message(out::translate_gnulib(format),
                                     {out::quote_locale(argument), out::quote_locale(option)}));
  std::fputs(out::translate_gnulib("Valid arguments are:"), stderr);
  for (auto word : valid) std::fprintf(stderr, "\n  - %s", out::quote_locale(word).c_str());
  std::fputc('\n', stderr);
  out::print_try_help();
}

}  // namespace fastwc::cli
