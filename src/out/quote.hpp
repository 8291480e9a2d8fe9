// SPDX-License-Identifier: GPL-3.0-or-later
// File-name quoting for diagnostics and output lines, byte-exact with GNU wc.
// This module owns the two quoting functions that GNU wc takes from gnulib's
// quotearg module: coreutils' quotef() (the "shell-escape" style with ':'
// also treated as special, used for every file name in a diagnostic and for
// output names that contain a newline) and quoteaf() (the
// "shell-escape-always" style, used for `cannot open 'F' for reading` and
// `extra operand 'X'`). Like gnulib, the result depends on the LC_CTYPE
// category of the active C locale: in a multibyte locale, valid printable
// characters (mbrtowc + iswprint) are kept raw; in a single-byte locale such
// as "C", every byte that isprint() rejects is written as a $'\ooo' escape.

#pragma once

#include <string>
#include <string_view>

namespace fastwc::out {

/// The gnulib quotearg revision whose output to reproduce. The two differ
/// only for names that hold a `'` together with something that cannot go in
/// double quotes and that end in an escaped byte (see quote.cpp).
enum class quoting_revision : unsigned char {
  coreutils_9_1,  ///< as bundled in coreutils 9.1 (the system wc here)
  coreutils_9_7,  ///< as bundled in coreutils 9.7 and 9.10 (both checked);
                  ///< which release between 9.2 and 9.7 changed is unknown
};

/// The revision used when a call names none; main() sets it once from
/// FASTWC_COMPAT (cli::Compat::quoting_revision) before any output.
void set_default_quoting_revision(quoting_revision revision) noexcept;
quoting_revision default_quoting_revision() noexcept;

/// How gnulib decodes a multibyte character of a name. They differ only in
/// stateful locales, where one multibyte character can stand for two (the
/// combining pairs of BIG5-HKSCS and JIS X 0213).
enum class name_decoding : unsigned char {
  /// coreutils up to 9.4: mbrtowc (mbrtoc32 in 9.4) until the conversion
  /// state is initial again, so a pair ending the name is "incomplete" and
  /// escaped.
  until_initial_state,
  /// coreutils 9.5 and later define GNULIB_MBRTOC32_REGULAR ("maint: assume
  /// non-rare encodings"): mbrtoc32 resets the state after each character,
  /// which drops a pair's second half; the first one decides.
  regular_mbrtoc32,
};

/// The decoding used by both quoting functions; main() sets it once from
/// FASTWC_COMPAT (cli::Compat::name_decoding) before any output.
void set_name_decoding(name_decoding decoding) noexcept;

/// coreutils' `quotef(name)`: gnulib `quotearg_n_style_colon(0,
/// shell_escape_quoting_style, name)`.
///
/// Returns `name` unchanged when a POSIX shell would read it back as the
/// same single word and it holds no ':'; otherwise returns the
/// `quote_always()` form of it. Examples (C locale): `a.txt` -> `a.txt`,
/// `a b` -> `'a b'`, `x:y` -> `'x:y'`, `no'such` -> `"no'such"`, `é` ->
/// `''$'\303\251'`, `` (empty) -> `''`.
///
/// `revision` selects the gnulib quirk of coreutils 9.1 or the later fix;
/// the caller maps FASTWC_COMPAT onto it.
/// The name is read as a C string: bytes from the first NUL on are ignored,
/// as they would be by GNU wc, which only ever sees NUL-terminated names.
/// Depends on the calling thread's LC_CTYPE locale (MB_CUR_MAX, isprint,
/// mbrtowc, iswprint); safe to call from several threads as long as no
/// thread changes the locale meanwhile. Throws only std::bad_alloc.
[[nodiscard]] std::string quote_file_name_for_diagnostic(
    std::string_view name, quoting_revision revision = default_quoting_revision());

/// coreutils' `quoteaf(name)`: gnulib `quotearg_n_style(0,
/// shell_escape_always_quoting_style, name)`.
///
/// Always quotes: the name goes in single quotes, an embedded `'` becomes
/// `'\''`, and control, non-printable and invalid bytes go in `$'...'`
/// segments (`\a \b \t \n \v \f \r` by letter, any other byte as three octal
/// digits). When the only reason for quoting is one or more `'` and every
/// other character is harmless inside double quotes, gnulib's apostrophe rule
/// applies and the result is `"name"` instead. Examples: `nosuch` ->
/// `'nosuch'`, `a'b<LF>c` -> `'a'\''b'$'\n''c'`, `` -> `''`.
///
/// `revision` matters only for names with a `'` (see quoting_revision).
/// Same NUL, locale and thread-safety rules as
/// `quote_file_name_for_diagnostic()`. Throws only std::bad_alloc.
[[nodiscard]] std::string quote_always(std::string_view name,
                                       quoting_revision revision = default_quoting_revision());

/// The body of gnulib's locale_quoting_style (quote(), used by argmatch for
/// option arguments), between the quotes `left` and `right` that the caller
/// chose (out::quote_locale): \a \b \f \n \r \t \v by letter, a backslash
/// doubled, an occurrence of `right` preceded by a backslash, and a byte
/// that is not part of a printable character (isprint in a single-byte
/// locale; mbrtowc and iswprint otherwise, as quote_always) as \ooo.
/// Example (C locale, quotes '): `a<LF>b` -> `'a\nb'`, `it's` -> `'it\'s'`.
/// Same NUL, locale and thread-safety rules as quote_always().
[[nodiscard]] std::string quote_escaped(std::string_view text, std::string_view left,
                                        std::string_view right);

}  // namespace fastwc::out
