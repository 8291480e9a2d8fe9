// SPDX-License-Identifier: GPL-3.0-or-later
// The GNU output format: column order, widths from the stat pre-pass, names,
// and message formatting.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <limits>

#include "cli/compat.hpp"
#include "input/stat_prepass.hpp"
#include "out/count_line.hpp"
#include "out/messages.hpp"

namespace {

using fastwc::Counts;
using fastwc::Selection;
using fastwc::input::InputStatus;

InputStatus regular(off_t size) {
  InputStatus status;
  status.failed = 0;
  status.st.st_mode = S_IFREG | 0644;
  status.st.st_size = size;
  return status;
}

InputStatus fifo() {
  InputStatus status;
  status.failed = 0;
  status.st.st_mode = S_IFIFO | 0644;
  return status;
}

InputStatus failed() {
  InputStatus status;
  status.failed = -1;
  return status;
}

}  // namespace

TEST_CASE("columns come in GNU's order whatever was selected") {
  Counts counts{1, 2, 12, 13, 11};
  CHECK(fastwc::out::format_count_line(counts, Selection::all(), 2, "f1") == " 1  2 12 13 11 f1\n");
  CHECK(fastwc::out::format_count_line(counts, Selection{true, false, false, false, false}, 1,
                                       "f1") == "1 f1\n");
  CHECK(fastwc::out::format_count_line(counts, Selection::gnu_default(), 7, nullptr) ==
        "      1       2      13\n");
}

TEST_CASE("a count wider than the column overflows it") {
  Counts counts{0, 0, 0, 12345678, 0};
  CHECK(fastwc::out::format_count_line(counts, Selection{true, false, false, true, false}, 7,
                                       nullptr) == "      0 12345678\n");
}

TEST_CASE("a name with a newline is shell-quoted in the count line") {
  Counts counts{1, 0, 0, 0, 0};
  CHECK(fastwc::out::format_count_line(counts, Selection{true, false, false, false, false}, 1,
                                       "nl\nname") == "1 'nl'$'\\n''name'\n");
  CHECK(fastwc::out::format_count_line(counts, Selection{true, false, false, false, false}, 1,
                                       "a b:c") == "1 a b:c\n");
}

TEST_CASE("width: digits of the regular sizes, 7 with a non-regular input") {
  using fastwc::input::number_width;
  CHECK(number_width({regular(12)}, false) == 2);
  CHECK(number_width({regular(12), regular(123456)}, false) == 6);
  CHECK(number_width({regular(0)}, false) == 1);
  CHECK(number_width({fifo()}, false) == 7);
  CHECK(number_width({regular(12345678), fifo()}, false) == 8);
  CHECK(number_width({failed(), regular(100)}, false) == 3);
  CHECK(number_width({InputStatus{}}, false) == 1);  // not stat'ed: one input, one count
}

TEST_CASE("width: 9.1 wraps the size sum, 9.3 saturates it") {
  using fastwc::input::number_width;
  const off_t four_eib = off_t{1} << 62;
  std::vector<InputStatus> huge(4, regular(four_eib));
  CHECK(number_width(huge, false) == 1);  // 2^64 wraps to 0
  CHECK(number_width(huge, true) == 20);  // UINT64_MAX has 20 digits
}

TEST_CASE("format_message substitutes %s in order") {
  CHECK(fastwc::out::format_message("extra operand %s", {"'x'"}) == "extra operand 'x'");
  CHECK(fastwc::out::format_message("%s for %s", {"a", "b"}) == "a for b");
  CHECK(fastwc::out::format_message("100%% %s", {"x"}) == "100%% x");
}

TEST_CASE("format_message takes %N$s from argument N") {
  using fastwc::out::format_message;
  // The zh_CN catalog of coreutils: "invalid argument %s for %s".
  CHECK(format_message("%2$s 的参数 %1$s 无效", {"\"x\"", "\"--total\""}) ==
        "\"--total\" 的参数 \"x\" 无效");
  CHECK(format_message("%1$s, %1$s and %s", {"a", "b"}) == "a, a and a");
  CHECK(format_message("%3$s", {"a", "b"}) == "%3$s");  // no such argument: kept
  CHECK(format_message("%0$s %$s", {"a"}) == "%0$s %$s");
}

TEST_CASE("FASTWC_COMPAT: multibyte locales other than UTF-8") {
  using fastwc::cli::parse_compat;
  using fastwc::out::name_decoding;
  // GNULIB_MBRTOC32_REGULAR from coreutils 9.5 (configure.ac).
  CHECK(parse_compat("9.4")->name_decoding() == name_decoding::until_initial_state);
  CHECK(parse_compat("9.5")->name_decoding() == name_decoding::regular_mbrtoc32);
  CHECK(parse_compat("8.30")->name_decoding() == name_decoding::until_initial_state);
  // wc.c: IO_BUFSIZE (256 KiB) from 9.6, BUFFER_SIZE (16 KiB) before.
  CHECK(parse_compat("8.30")->multibyte_read_size() == 16 * 1024);
  CHECK(parse_compat("9.5")->multibyte_read_size() == 16 * 1024);
  CHECK(parse_compat("9.6")->multibyte_read_size() == 256 * 1024);
  CHECK(parse_compat("9.12")->multibyte_read_size() == 256 * 1024);
}

TEST_CASE("FASTWC_COMPAT versions") {
  using fastwc::cli::parse_compat;
  REQUIRE(parse_compat("9.1"));
  CHECK_FALSE(parse_compat("9.1")->has_total_option());
  CHECK(parse_compat("9.2")->has_total_option());
  CHECK(parse_compat("9.5")->word_rule() == fastwc::WordRule::non_space_constituents);
  CHECK(parse_compat("9.4")->word_rule() == fastwc::WordRule::printable_constituents);
  CHECK(parse_compat("9.10")->diagnoses_write_errors_at_once());
  CHECK_FALSE(parse_compat("9.9")->diagnoses_write_errors_at_once());
  REQUIRE(parse_compat("9.11"));
  REQUIRE(parse_compat("8.30"));
  CHECK_FALSE(parse_compat("8.30")->nbsp_can_separate_words());
  CHECK(parse_compat("8.31")->nbsp_can_separate_words());
  CHECK_FALSE(parse_compat("8.32")->has_debug_option());
  CHECK(parse_compat("9.0")->has_debug_option());
  CHECK_FALSE(parse_compat("9.4")->reports_hardware_once());
  CHECK(parse_compat("9.5")->reports_hardware_once());
  CHECK_FALSE(parse_compat("9.7")->debug_honours_hwcaps());
  CHECK(parse_compat("9.8")->debug_honours_hwcaps());
  // wc_lines of 9.0 to 9.4 drops its counts on a read error.
  CHECK_FALSE(parse_compat("8.32")->lines_loop_drops_counts_on_read_error());
  CHECK(parse_compat("9.0")->lines_loop_drops_counts_on_read_error());
  CHECK(parse_compat("9.4")->lines_loop_drops_counts_on_read_error());
  CHECK_FALSE(parse_compat("9.5")->lines_loop_drops_counts_on_read_error());
  // gnulib's messages: coreutils' catalog, the "gnulib" domain in 9.6-9.11.
  CHECK(std::string_view(parse_compat("9.5")->gnulib_text_domain()) == "coreutils");
  CHECK(std::string_view(parse_compat("9.6")->gnulib_text_domain()) == "gnulib");
  CHECK(std::string_view(parse_compat("9.11")->gnulib_text_domain()) == "gnulib");
  CHECK(std::string_view(parse_compat("9.12")->gnulib_text_domain()) == "coreutils");
  CHECK(parse_compat("9.7")->quotes_gb18030_specially());
  CHECK_FALSE(parse_compat("9.8")->quotes_gb18030_specially());
  // A version newer than the newest known behaves as the newest known.
  REQUIRE(parse_compat("9.13"));
  CHECK(parse_compat("9.13")->version > fastwc::cli::newest_known);
  CHECK(parse_compat("10.0")->diagnoses_write_errors_at_once());
  CHECK_FALSE(parse_compat("8.29"));
  CHECK_FALSE(parse_compat("7.9"));
  CHECK_FALSE(parse_compat("9"));
  CHECK_FALSE(parse_compat("9.x"));
  CHECK_FALSE(parse_compat(""));
}
