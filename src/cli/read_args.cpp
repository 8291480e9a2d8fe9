// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing and validation of --jobs, --io, --read-size and their variables.
#include "cli/read_args.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "cli/argmatch.hpp"
#include "out/messages.hpp"

namespace fastwc::cli {

namespace {

constexpr std::string_view io_arguments[] = {"auto", "uring", "read", "pread"};
constexpr IoBackend io_backends[] = {IoBackend::automatic, IoBackend::uring, IoBackend::read,
                                     IoBackend::pread};

enum class NumberStatus { ok, invalid, invalid_suffix, too_large };

/// A decimal number with an optional binary suffix (K, KiB, M, MiB, G,
/// GiB; k as K), in [1, max] ([0, max] with allow_zero). Leading blanks and
/// a '+' are refused, unlike strtoul, so that "--jobs= 2" is not silently 2.
NumberStatus parse_number(std::string_view text, bool suffixes, std::uint64_t max,
                          std::uint64_t &value, bool allow_zero = false) {
  const char *first = text.data();
  const char *last = first + text.size();
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(first, last, number);
  if (end == first) return NumberStatus::invalid;
  bool overflow = error == std::errc::result_out_of_range;
  const std::string_view suffix(end, static_cast<std::size_t>(last - end));
  unsigned shift = 0;
  if (!suffix.empty()) {
    if (!suffixes) return NumberStatus::invalid;
    if (suffix == "K" || suffix == "k" || suffix == "KiB") {
      shift = 10;
    } else if (suffix == "M" || suffix == "MiB") {
      shift = 20;
    } else if (suffix == "G" || suffix == "GiB") {
      shift = 30;
    } else {
      return NumberStatus::invalid_suffix;
    }
  }
  if (!overflow && number > (std::numeric_limits<std::uint64_t>::max() >> shift)) overflow = true;
  if (overflow || (number << shift) > max) return NumberStatus::too_large;
  value = number << shift;
  return value == 0 && !allow_zero ? NumberStatus::invalid : NumberStatus::ok;
}

/// gnulib xstrtol_fatal's wording for option arguments.
void report_number_error(NumberStatus status, std::string_view option, std::string_view text) {
  const std::string name = "--" + std::string(option);
  const char *format = status == NumberStatus::too_large        ? "%s argument %s too large"
                       : status == NumberStatus::invalid_suffix ? "invalid suffix in %s argument %s"
                                                                : "invalid %s argument %s";
  out::report(0, out::format_message(format, {name, out::quote_locale(text)}));
}

bool parse_number_option(std::string_view option, std::string_view text, bool suffixes,
                         std::uint64_t max, std::uint64_t &value) {
  const NumberStatus status = parse_number(text, suffixes, max, value);
  if (status == NumberStatus::ok) return true;
  report_number_error(status, option, text);
  return false;
}

/// A variable's value, when set and non-empty.
std::optional<std::string_view> environment(const char *name) {
  const char *value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string_view(value);
}

void report_bad_variable(const char *name, std::string_view value, bool too_large) {
  const std::string variable(name);
  out::report(0, out::format_message(too_large ? "%s value %s too large" : "invalid %s value %s",
                                     {variable, out::quote_locale(value)}));
}

}  // namespace

bool parse_jobs_option(std::string_view text, ReadOptions &options) {
  std::uint64_t value = 0;
  if (!parse_number_option("jobs", text, false, max_jobs, value)) return false;
  options.jobs = static_cast<unsigned>(value);
  return true;
}

bool parse_io_option(std::string_view text, ReadOptions &options) {
  const int index = argmatch(text, io_arguments);
  if (index < 0) {
    report_bad_argument(text, "--io", io_arguments, index == -2);
    return false;
  }
  options.backend = io_backends[index];
  return true;
}

bool parse_read_size_option(std::string_view text, ReadOptions &options) {
  std::uint64_t value = 0;
  if (!parse_number_option("read-size", text, true, max_read_size, value)) return false;
  options.read_size = static_cast<std::size_t>(value);
  return true;
}

bool apply_read_environment(const ReadOptionsGiven &given, ReadOptions &options,
                            ReadTuning &tuning) {
  std::uint64_t value = 0;
  if (auto text = environment("FASTWC_JOBS"); text && !given.jobs) {
    const NumberStatus status = parse_number(*text, false, max_jobs, value);
    if (status != NumberStatus::ok) {
      report_bad_variable("FASTWC_JOBS", *text, status == NumberStatus::too_large);
      return false;
    }
    options.jobs = static_cast<unsigned>(value);
  }
  if (auto text = environment("FASTWC_IO"); text && !given.io) {
    const int index = argmatch(*text, io_arguments);
    if (index < 0) {
      report_bad_variable("FASTWC_IO", *text, false);
      return false;
    }
    options.backend = io_backends[index];
  }
  if (auto text = environment("FASTWC_READ_SIZE"); text && !given.read_size) {
    const NumberStatus status = parse_number(*text, true, max_read_size, value);
    if (status != NumberStatus::ok) {
      report_bad_variable("FASTWC_READ_SIZE", *text, status == NumberStatus::too_large);
      return false;
    }
    options.read_size = static_cast<std::size_t>(value);
  }
  // A tuning and testing knob without an option: inputs smaller than this
  // are counted serially (0 sends every input through the pipeline, which
  // is how the conformance suite exercises it on small files).
  if (auto text = environment("FASTWC_SERIAL_THRESHOLD")) {
    const NumberStatus status =
        parse_number(*text, true, std::numeric_limits<std::uint64_t>::max(), value, true);
    if (status != NumberStatus::ok) {
      report_bad_variable("FASTWC_SERIAL_THRESHOLD", *text, status == NumberStatus::too_large);
      return false;
    }
    tuning.serial_threshold = value;
    tuning.pread_threshold = value;
  }
  // Another knob without an option: IOSQE_ASYNC on the ring's reads.
  if (auto text = environment("FASTWC_URING_ASYNC")) {
    if (*text != "0" && *text != "1") {
      report_bad_variable("FASTWC_URING_ASYNC", *text, false);
      return false;
    }
    tuning.async_reads = *text == "1";
  }
  return true;
}

bool has_empty_long_option(int argc, char **argv) noexcept {
  // getopt_long stops at "--", and (POSIXLY_CORRECT) at the first operand;
  // otherwise it scans every argument. A "--=x" that is an option's
  // separate argument is counted too: then fastwc's own options are only
  // unavailable on that one command line.
  const bool stop_at_operand = std::getenv("POSIXLY_CORRECT") != nullptr;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (std::strcmp(arg, "--") == 0) return false;
    if (std::strncmp(arg, "--=", 3) == 0) return true;
    if (stop_at_operand && (arg[0] != '-' || arg[1] == '\0')) return false;
  }
  return false;
}

}  // namespace fastwc::cli
