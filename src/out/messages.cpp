// SPDX-License-Identifier: GPL-3.0-or-later
// GNU-style diagnostics and gettext lookups in the coreutils domain.
#include "out/messages.hpp"

#include <langinfo.h>
#include <libintl.h>

#include <cstdio>
#include <cstring>

#include "fastwc_config.hpp"

namespace fastwc::out {

namespace {

const char *g_program_name = "fastwc";

// fastwc speaks with GNU wc's words, so it borrows GNU's translations: the
// catalogs installed with the system's coreutils.
constexpr const char *translation_domain = "coreutils";

}  // namespace

void set_program_name(const char *argv0) noexcept {
  // GNU uses argv[0] verbatim, even an empty one (exec -a '' wc), except
  // that gnulib's set_program_name drops a libtool wrapper's directory and
  // "lt-" prefix: /x/.libs/lt-wc is called "wc".
  if (!argv0) return;
  const char *slash = std::strrchr(argv0, '/');
  const char *base = slash ? slash + 1 : argv0;
  if (base - argv0 >= 7 && std::strncmp(base - 7, "/.libs/", 7) == 0) {
    argv0 = std::strncmp(base, "lt-", 3) == 0 ? base + 3 : base;
  }
  g_program_name = argv0;
}

const char *program_name() noexcept { return g_program_name; }

void init_translations() noexcept {
  bindtextdomain(translation_domain, FASTWC_GNU_LOCALEDIR);
}

const char *translate(const char *msgid) noexcept { return dgettext(translation_domain, msgid); }

std::string format_message(std::string_view format, std::initializer_list<std::string_view> args) {
  std::string result;
  auto next_arg = args.begin();
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == 's' && next_arg != args.end()) {
      result.append(*next_arg++);
      ++i;
    } else {
      result.push_back(format[i]);
    }
  }
  return result;
}

void report(int errnum, std::string_view message) noexcept {
  // error() flushes stdout first so that count lines and diagnostics keep
  // their order when both go to one file (wc-spec.md §3.2).
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %.*s", g_program_name, static_cast<int>(message.size()),
               message.data());
  if (errnum != 0) std::fprintf(stderr, ": %s", std::strerror(errnum));
  std::fputc('\n', stderr);
}

std::string quote_locale(std::string_view text) {
  // gnulib gettext_quote(): a translation of "`" / "'" wins; untranslated,
  // a UTF-8 locale gets U+2018 / U+2019.
  const char *open = translate("`");
  const char *close = translate("'");
  if (std::strcmp(open, "`") == 0 || std::strcmp(close, "'") == 0) {
    bool utf8 = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    open = utf8 ? "\u2018" : "'";
    close = utf8 ? "\u2019" : "'";
  }
  std::string quoted = open;
  quoted.append(text);
  quoted.append(close);
  return quoted;
}

void print_try_help() noexcept {
  std::string line =
      format_message(translate("Try '%s --help' for more information.\n"), {g_program_name});
  std::fputs(line.c_str(), stderr);
}

}  // namespace fastwc::out
