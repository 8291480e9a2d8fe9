// SPDX-License-Identifier: GPL-3.0-or-later
// fastwc: parse the command line, run wc, exit with its status. Nothing else
// lives here.
#include <clocale>
#include <cstdio>

#include "app/wc_run.hpp"
#include "cli/args.hpp"
#include "cli/compat.hpp"
#include "out/messages.hpp"
#include "out/quote.hpp"
#include "out/stdout_sink.hpp"

int main(int argc, char **argv) {
  using namespace fastwc;
  out::set_program_name(argc > 0 ? argv[0] : nullptr);
  std::setlocale(LC_ALL, "");
  out::init_translations();

  std::string compat_error;
  auto compat = cli::compat_from_environment(&compat_error);
  if (!compat) {
    out::report(0, compat_error);
    return 1;
  }
  out::set_default_quoting_revision(compat->quoting_revision());
  out::set_gnulib_messages(compat->gnulib_text_domain(), compat->quotes_gb18030_specially());
  out::set_name_decoding(compat->name_decoding());
  out::prepare_stdout(compat->diagnoses_write_errors_at_once());

  auto parsed = cli::parse_args(argc, argv, *compat);
  if (!parsed.config) return parsed.exit_status;
  return app::run_wc(*parsed.config, *compat);
}
