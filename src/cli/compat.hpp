// SPDX-License-Identifier: GPL-3.0-or-later
// Which GNU wc version fastwc imitates (FASTWC_COMPAT, else the build's
// default), and every observable behaviour that version decides. Each flag
// names the coreutils release that introduced the change (its NEWS entry).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fastwc/options.hpp"
#include "out/quote.hpp"

namespace fastwc::cli {

struct GnuVersion {
  int major = 9;
  int minor = 1;
  friend auto operator<=>(const GnuVersion &, const GnuVersion &) = default;
};

/// The oldest GNU wc version whose behaviour fastwc reproduces, and the
/// newest one it knows: a newer version gets the newest known behaviour
/// (every method below compares with the release that made a change).
inline constexpr GnuVersion oldest_supported{8, 30};
inline constexpr GnuVersion newest_known{9, 12};

struct Compat {
  GnuVersion version;

  /// 8.31: U+00A0, U+2007, U+202F and U+2060 separate words (unless
  /// POSIXLY_CORRECT); before, no-break spaces are word characters.
  bool nbsp_can_separate_words() const noexcept { return version >= GnuVersion{8, 31}; }
  /// 9.0: --debug exists (with the AVX2 line count); before, it and its
  /// abbreviations are unrecognized options.
  bool has_debug_option() const noexcept { return version >= GnuVersion{9, 0}; }

  /// 9.2: --total=WHEN exists.
  bool has_total_option() const noexcept { return version >= GnuVersion{9, 2}; }
  /// 9.3: an overflowing total is diagnosed, saturated and fails the run;
  /// the width pre-pass saturates its size sum instead of wrapping.
  bool saturates_totals() const noexcept { return version >= GnuVersion{9, 3}; }
  /// 9.3: wc -c moves the file offset past what it counted from st_size.
  bool size_shortcut_moves_offset() const noexcept { return version >= GnuVersion{9, 3}; }
  /// 9.5: everything that is not white space is part of a word.
  WordRule word_rule() const noexcept {
    return version >= GnuVersion{9, 5} ? WordRule::non_space_constituents
                                       : WordRule::printable_constituents;
  }
  /// 9.5 (seen in 9.7 and 9.10): a multibyte character split by a read is
  /// partly re-read as encoding errors; the value is GNU's read size then
  /// (16 KiB in 9.5, 256 KiB from 9.6), else 0 (CountOptions has the story).
  std::uint32_t split_rescan_read_size() const noexcept {
    if (version < GnuVersion{9, 5}) return 0;
    return version < GnuVersion{9, 6} ? 16 * 1024 : 256 * 1024;
  }
  /// 9.5: --debug's hardware line comes once per process (a static in
  /// wc_lines), not once per input that counts lines.
  bool reports_hardware_once() const noexcept { return version >= GnuVersion{9, 5}; }
  /// 9.5: a read error is reported after that file's count line, not before.
  bool reports_read_error_after_counts() const noexcept { return version >= GnuVersion{9, 5}; }
  /// 9.8: "when reading file names from standard input" (was "from stdin").
  bool says_standard_input_for_list() const noexcept { return version >= GnuVersion{9, 8}; }
  /// 9.8: --debug's hardware line follows GLIBC_TUNABLES' glibc.cpu.hwcaps
  /// masks (gnulib cpu_supports), as the choice of loop does.
  bool debug_honours_hwcaps() const noexcept { return version >= GnuVersion{9, 8}; }
  /// 9.9: --debug can report AVX-512 line counting.
  bool reports_avx512() const noexcept { return version >= GnuVersion{9, 9}; }
  /// gnulib's shell-escape quoting of a name holding a ' and ending in an
  /// escaped byte was fixed after 9.1: 9.1 has the bug, 9.7 not. Which
  /// release in between took the fix is unverified; 9.7 is assumed.
  out::quoting_revision quoting_revision() const noexcept {
    return version >= GnuVersion{9, 7} ? out::quoting_revision::coreutils_9_7
                                       : out::quoting_revision::coreutils_9_1;
  }
  /// 9.11: UTF-8 is decoded by gnulib's RFC 3629 decoder instead of glibc's
  /// mbrtowc (coreutils commit 1204b29ba, "Pick up mbrto{c32,wc}
  /// optimizations on UTF-8 on GLIBC").
  Utf8Decoding utf8_decoding() const noexcept {
    return version >= GnuVersion{9, 11} ? Utf8Decoding::rfc3629 : Utf8Decoding::glibc;
  }
  /// 9.10: write errors are diagnosed after each line, with strerror, and end
  /// the run at once.
  bool diagnoses_write_errors_at_once() const noexcept { return version >= GnuVersion{9, 10}; }
  /// 9.0 to 9.4: wc_lines (the loop of -l and -lc) returns on a read error
  /// before storing its counts, so the input's lines and bytes print as 0.
  /// 8.x's inline loop and 9.5's rewritten wc_lines keep the partial counts.
  bool lines_loop_drops_counts_on_read_error() const noexcept {
    return version >= GnuVersion{9, 0} && version < GnuVersion{9, 5};
  }
  /// 9.6 to 9.11: gnulib's modules (argmatch, quotearg, closeout) look their
  /// messages up in a "gnulib" text domain (gnulib's "Use the translation
  /// domain \"gnulib\"", 2024-12), of which no catalog is installed: they
  /// stay English while wc's own messages are translated. Before, and again
  /// in 9.12 (its NEWS), they come from the coreutils catalog.
  const char *gnulib_text_domain() const noexcept {
    return version >= GnuVersion{9, 6} && version < GnuVersion{9, 12} ? "gnulib" : "coreutils";
  }
  /// Up to 9.7, gnulib's quotearg gives GB18030 locales quotes of their own;
  /// the gnulib of 9.8 dropped that case ("quotearg: do not depend on
  /// localcharset", 2025-09).
  bool quotes_gb18030_specially() const noexcept { return version < GnuVersion{9, 8}; }
  /// 9.5: gnulib's mbrtoc32 is "regular" (configure.ac defines
  /// GNULIB_MBRTOC32_REGULAR, commit 07f8ec6bf), so quoting a name in a
  /// stateful locale (BIG5-HKSCS, JIS X 0213) drops the second character of
  /// a combining pair instead of escaping a pair that ends the name. The
  /// counting loop's side of that change comes with the 9.5 word rule.
  out::name_decoding name_decoding() const noexcept {
    return version >= GnuVersion{9, 5} ? out::name_decoding::regular_mbrtoc32
                                       : out::name_decoding::until_initial_state;
  }
  /// 9.6: wc reads 256 KiB at a time (was 16 KiB), which is where a
  /// stateful converter's decoding can change (CountOptions has the story).
  std::uint32_t multibyte_read_size() const noexcept {
    return version < GnuVersion{9, 6} ? 16 * 1024 : 256 * 1024;
  }
};

/// Parses "8.30", "9.1", "9.10", ... Returns nothing for malformed versions
/// and versions older than oldest_supported; a version newer than
/// newest_known is kept as it is (and behaves as newest_known).
std::optional<Compat> parse_compat(std::string_view text);

/// FASTWC_COMPAT when set, else the build default (Meson option gnu_compat).
/// On a bad FASTWC_COMPAT value, returns nothing and sets *error to a message.
std::optional<Compat> compat_from_environment(std::string *error);

}  // namespace fastwc::cli
