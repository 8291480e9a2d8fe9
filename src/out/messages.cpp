// SPDX-License-Identifier: GPL-3.0-or-later
// GNU-style diagnostics and gettext lookups in the coreutils domain.
#include "out/messages.hpp"

#include <langinfo.h>
#include <libintl.h>

#include <cstdio>
#include <cstring>

#include "fastwc_config.hpp"
#include "out/quote.hpp"

namespace fastwc::out {

namespace {

const char *g_program_name = "fastwc";

// fastwc speaks with GNU wc's words, so it borrows GNU's translations: the
// catalogs installed with the system's coreutils.
constexpr const char *translation_domain = "coreutils";

const char *g_gnulib_domain = translation_domain;
bool g_gb18030_quotes = false;

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

void init_translations() noexcept { bindtextdomain(translation_domain, FASTWC_GNU_LOCALEDIR); }

const char *translate(const char *msgid) noexcept { return dgettext(translation_domain, msgid); }

void set_gnulib_messages(const char *text_domain, bool gb18030_quotes) noexcept {
  g_gnulib_domain = text_domain;
  g_gb18030_quotes = gb18030_quotes;
}

// GNU never binds the "gnulib" domain: it is looked up where the C library
// looks by default, as here.
const char *translate_gnulib(const char *msgid) noexcept {
  return dgettext(g_gnulib_domain, msgid);
}

std::string format_message(std::string_view format, std::initializer_list<std::string_view> args) {
  std::string result;
  std::size_t next_arg = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      result.push_back(format[i]);
      continue;
    }
    // "%N$s": argument N (1-based); "%s": the next one.
    std::size_t j = i + 1;
    std::size_t position = 0;
    while (j < format.size() && format[j] >= '0' && format[j] <= '9') {
      position = position * 10 + static_cast<std::size_t>(format[j] - '0');
      ++j;
    }
    const bool positional = j > i + 1 && j < format.size() && format[j] == '$' && position >= 1;
    if (positional) ++j;
    const std::size_t arg = positional ? position - 1 : next_arg;
    if (j < format.size() && format[j] == 's' && (positional || j == i + 1) && arg < args.size()) {
      result.append(args.begin()[arg]);
      if (!positional) ++next_arg;
      i = j;
    } else {
      result.push_back('%');
    }
  }
  return result;
}

void report(int errnum, std::string_view message) noexcept {
  // error() flushes stdout first so that count lines and diagnostics keep
  // their order when both go to one file (gnulib's error.c).
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %.*s", g_program_name, static_cast<int>(message.size()),
               message.data());
  if (errnum != 0) std::fprintf(stderr, ": %s", std::strerror(errnum));
  std::fputc('\n', stderr);
}

namespace {

/// gnulib gettext_quote() for locale_quoting_style: the translation of "`"
/// (or "'") wins; untranslated, U+2018 (U+2019) in a UTF-8 locale, else an
/// apostrophe. Until 9.7 gnulib also had a GB18030 case, whose opening
/// quote is "\xa1\ae" (A1 07 65: a typo for A1 AE, printed as it is).
const char *gettext_quote(const char *msgid) {
  const char *translation = translate_gnulib(msgid);
  if (translation != msgid) return translation;
  const bool opening = msgid[0] == '`';
  const char *codeset = nl_langinfo(CODESET);
  if (std::strcmp(codeset, "UTF-8") == 0) return opening ? "\u2018" : "\u2019";
  if (g_gb18030_quotes && std::strcmp(codeset, "GB18030") == 0)
    return opening ? "\xa1\x07"
                     "e"
                   : "\xa1\xaf";
  return "'";
}

}  // namespace

std::string quote_locale(std::string_view text) {
  return quote_escaped(text, gettext_quote("`"), gettext_quote("'"));
}

void print_try_help() noexcept {
  std::string line =
      format_message(translate("Try '%s --help' for more information.\n"), {g_program_name});
  std::fputs(line.c_str(), stderr);
}

}  // namespace fastwc::out
