// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/list_diagnostics.hpp"

#include "out/messages.hpp"
#include "out/quote.hpp"

namespace fastwc::app {

bool name_is_countable(const std::string &name, const cli::Config &config,
                       const cli::Compat &compat, std::size_t position) {
  bool countable = true;
  const bool list_from_stdin = config.files0_from && *config.files0_from == "-";
  if (list_from_stdin && name == "-") {
    const char *message =
        compat.says_standard_input_for_list()
            ? "when reading file names from standard input, no file name of %s allowed"
            : "when reading file names from stdin, no file name of %s allowed";
    out::report(0, out::format_message(out::translate(message), {out::quote_always(name)}));
    countable = false;
  }
  if (name.empty()) {
    if (!config.files0_from) {
      out::report(0, out::translate("invalid zero-length file name"));
    } else {
      out::report(0, out::quote_file_name_for_diagnostic(*config.files0_from) + ":" +
                         std::to_string(position) + ": " +
                         out::translate("invalid zero-length file name"));
    }
    countable = false;
  }
  return countable;
}

void report_list_read_error(const cli::Config &config, int errnum) {
  out::report(errnum,
              out::format_message(out::translate("%s: read error"),
                                  {out::quote_file_name_for_diagnostic(*config.files0_from)}));
}

}  // namespace fastwc::app
