// SPDX-License-Identifier: GPL-3.0-or-later
// Diagnostics the way GNU wc writes them: "argv[0]: message[: strerror]" on
// stderr after flushing stdout, with every message translated through the
// system's gettext catalogs of the coreutils domain, as wc does.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace fastwc::out {

/// Records argv[0] verbatim: GNU wc prefixes every diagnostic with it.
void set_program_name(const char *argv0) noexcept;
const char *program_name() noexcept;

/// Binds the coreutils message catalogs; call after setlocale(LC_ALL, "").
void init_translations() noexcept;

/// msgid translated in the coreutils domain (e.g. "total" -> "insgesamt").
const char *translate(const char *msgid) noexcept;

/// How the GNU version being matched treats the messages of its gnulib
/// modules (argmatch, quotearg, closeout): the text domain they are looked
/// up in, and whether quotes in a GB18030 locale are gnulib's own.
void set_gnulib_messages(const char *text_domain, bool gb18030_quotes) noexcept;

/// msgid translated as GNU's gnulib modules translate it: in the "gnulib"
/// domain for GNU 9.6 to 9.11 (no catalog of that name is installed, so the
/// message stays English), else in the coreutils domain.
const char *translate_gnulib(const char *msgid) noexcept;

/// Replaces each "%s" of a (translated) printf format with the next
/// argument and each "%N$s" with argument N (catalogs reorder arguments:
/// ja, ko, tr, zh): the messages fastwc borrows from GNU take only strings.
std::string format_message(std::string_view format, std::initializer_list<std::string_view> args);

/// GNU error(0, errnum, "%s", message): flushes stdout, then writes
/// "PROGRAM: message" and ": strerror(errnum)" when errnum != 0.
void report(int errnum, std::string_view message) noexcept;

/// gnulib quote() (locale_quoting_style): the text between the catalog's
/// translations of ` and ' (else curly quotes in a UTF-8 locale, else ASCII
/// apostrophes), control characters, backslashes, the closing quote and
/// whatever the locale cannot print escaped C-style (quote_escaped).
std::string quote_locale(std::string_view text);

/// Writes "Try 'PROGRAM --help' for more information." to stderr.
void print_try_help() noexcept;

}  // namespace fastwc::out
