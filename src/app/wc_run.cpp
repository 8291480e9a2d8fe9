// SPDX-License-Identifier: GPL-3.0-or-later
// The per-input driver: GNU wc's main loop, wc_file() and wc(), rebuilt on
// fastwc's engine. The order of every diagnostic relative to the count lines
// follows the GNU version being matched.
#include "app/wc_run.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/file_fanout.hpp"
#include "app/hardware_report.hpp"
#include "app/list_diagnostics.hpp"
#include "app/measured_input.hpp"
#include "app/progress_meter.hpp"
#include "app/read_report.hpp"
#include "app/totals.hpp"
#include "fastwc/engine.hpp"
#include "fastwc/tuning.hpp"
#include "input/input_list.hpp"
#include "input/size_shortcut.hpp"
#include "input/stat_prepass.hpp"
#include "out/count_line.hpp"
#include "out/messages.hpp"
#include "out/quote.hpp"
#include "out/stdout_sink.hpp"

namespace fastwc::app {

namespace {

CountOptions make_count_options(const cli::Config &config, const cli::Compat &compat) {
  CountOptions options = options_for_current_locale(config.selection, compat.word_rule());
  options.nbsp_separates_words = options.nbsp_separates_words && compat.nbsp_can_separate_words();
  options.gnu_split_rescan_read_size = compat.split_rescan_read_size();
  options.utf8_decoding = compat.utf8_decoding();
  options.gnu_multibyte_read_size = compat.multibyte_read_size();
  return options;
}

class WcRun {
 public:
  WcRun(const cli::Config &config, const cli::Compat &compat)
      : config_(config), compat_(compat), options_(make_count_options(config, compat)) {
    // No meter (and no thread) unless asked for and stderr is a terminal.
    if (config.progress && isatty(STDERR_FILENO) == 1)
      progress_ = std::make_unique<ProgressMeter>(STDERR_FILENO);
  }

  int run();

 private:
  MeasuredInput measure(int fd, input::InputStatus &status, off_t offset,
                        std::atomic<std::uint64_t> *bytes_read) const;
  MeasuredInput measure_with_progress(int fd, const char *name, input::InputStatus &status,
                                      off_t offset);
  bool report(const char *name, const MeasuredInput &measured);
  bool count_name(const char *name, input::InputStatus &status);
  bool count_open_input(int fd, const char *name, input::InputStatus &status, off_t offset);
  bool count_name_ahead(const char *name, input::InputStatus &status, FileOutcome &outcome) const;
  bool report_ahead(const char *name, const FileOutcome &outcome);
  void start_fanout(const std::vector<const char *> &names,
                    std::vector<input::InputStatus> &statuses, unsigned threads);
  void write_line_or_exit(std::string_view line);
  bool bytes_only() const;
  void report_failure(int errnum, const char *name);
  bool uses_lines_loop() const;
  void print_debug_line();
  void print_total(std::size_t names);

  const cli::Config &config_;
  const cli::Compat &compat_;
  const CountOptions options_;
  int width_ = 1;
  Totals totals_;
  std::unique_ptr<FileFanout> fanout_;  ///< many small files: helpers count ahead
  bool have_read_stdin_ = false;
  bool exit_failure_ = false;
  bool hardware_line_printed_ = false;
  int last_failure_errno_ = 0;               // errno of the last input that failed
  std::unique_ptr<ProgressMeter> progress_;  ///< --progress on a terminal, else null
};

/// GNU error(0, errno, "%s", quotef(name)) for an input that failed; GNU's
/// errno stays as that failure left it.
void WcRun::report_failure(int errnum, const char *name) {
  last_failure_errno_ = errnum;
  out::report(errnum, out::quote_file_name_for_diagnostic(name));
}

/// GNU counts only bytes (and takes the st_size shortcut) when nothing but
/// -c is asked for, or -c/-m in a locale where characters are bytes.
bool WcRun::bytes_only() const {
  const Selection &s = config_.selection;
  bool chars_are_bytes = options_.encoding == Encoding::single_byte;
  return (s.bytes || (s.chars && chars_are_bytes)) && !(s.chars && !chars_are_bytes) && !s.lines &&
         !s.words && !s.max_line_length;
}

/// GNU counts in its line loop (wc_lines) when lines are asked for and
/// neither words, line lengths nor decoded characters are.
bool WcRun::uses_lines_loop() const {
  const Selection &s = config_.selection;
  bool chars_need_decoding = s.chars && options_.encoding != Encoding::single_byte;
  return s.lines && !s.words && !s.max_line_length && !chars_need_decoding;
}

/// --debug: GNU names its line-counting loop when an input is counted by
/// it: 9.1 for every such input, 9.5+ for the first only.
void WcRun::print_debug_line() {
  if (!config_.debug || !uses_lines_loop()) return;
  if (compat_.reports_hardware_once() && hardware_line_printed_) return;
  hardware_line_printed_ = true;
  report_hardware_support(compat_);
}

/// Below this size, readahead advice is not worth its system call.
constexpr off_t small_file_bytes = 128 * 1024;

/// `bytes_read`, when not null, is the progress meter's byte counter.
MeasuredInput WcRun::measure(int fd, input::InputStatus &status, off_t offset,
                             std::atomic<std::uint64_t> *bytes_read) const {
  ReadOptions read_options = config_.read;
  read_options.bytes_read = bytes_read;
  MeasuredInput measured;
  Counts &counts = measured.result.counts;
  if (bytes_only()) {
    auto shortcut =
        input::count_bytes_from_size(fd, status, offset, compat_.size_shortcut_moves_offset());
    counts.bytes = shortcut.bytes;
    if (shortcut.read_rest) {
      posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      CountOptions bytes_options = options_;
      bytes_options.selection = Selection{false, false, false, true, false};
      CountResult rest = count_fd(fd, bytes_options, read_options, config_.tuning, &measured.stats);
      counts.bytes += rest.counts.bytes;
      measured.result.error = rest.error;
    }
  } else {
    // GNU asks for sequential readahead on every input. A regular file that
    // the stat pre-pass found smaller than one read gains nothing from it,
    // and in a list of 100,000 small files the call is one system call in
    // seven.
    const bool small_file =
        status.failed == 0 && S_ISREG(status.st.st_mode) && status.st.st_size < small_file_bytes;
    if (!small_file) posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    measured.result = count_fd(fd, options_, read_options, config_.tuning, &measured.stats);
  }
  if (measured.result.error != 0 && uses_lines_loop() &&
      compat_.lines_loop_drops_counts_on_read_error()) {
    counts = Counts{};
  }
  if (options_.encoding == Encoding::single_byte) counts.chars = counts.bytes;
  return measured;
}

bool WcRun::report(const char *name, const MeasuredInput &measured) {
  // Diagnostics name standard input "standard input" (translated).
  const char *diagnostic_name = name ? name : out::translate("standard input");
  const int read_error = measured.result.error;
  bool ok = read_error == 0;
  bool error_after_line = compat_.reports_read_error_after_counts();
  if (!ok && !error_after_line) report_failure(read_error, diagnostic_name);
  if (config_.total_mode != cli::TotalMode::only) {
    write_line_or_exit(
        out::format_count_line(measured.result.counts, config_.selection, width_, name));
  }
  if (!ok && error_after_line) report_failure(read_error, diagnostic_name);
  if (config_.debug || config_.stats) {
    report_reading(out::quote_file_name_for_diagnostic(diagnostic_name), measured.stats,
                   config_.debug, config_.stats);
  }
  totals_.add(measured.result.counts);
  return ok;
}

/// measure(), under the progress meter when there is one; the meter is
/// erased before anything about the input is printed. Not for a terminal's
/// input, where the meter would mix with what the user types.
MeasuredInput WcRun::measure_with_progress(int fd, const char *name, input::InputStatus &status,
                                           off_t offset) {
  if (!progress_ || isatty(fd) == 1) return measure(fd, status, offset, nullptr);
  std::uint64_t total = 0;
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t at = offset >= 0 ? offset : lseek(fd, 0, SEEK_CUR);
    if (at >= 0 && st.st_size > at) total = static_cast<std::uint64_t>(st.st_size - at);
  }
  progress_->begin(
      out::quote_file_name_for_diagnostic(name ? name : out::translate("standard input")), total);
  MeasuredInput measured = measure(fd, status, offset, progress_->bytes_read());
  progress_->end();
  return measured;
}

bool WcRun::count_open_input(int fd, const char *name, input::InputStatus &status, off_t offset) {
  if (!bytes_only()) print_debug_line();
  return report(name, measure_with_progress(fd, name, status, offset));
}

/// GNU wc_file(): "-" and the nameless implicit input are standard input,
/// which GNU asks for its offset; named files are opened and assumed to be
/// at offset 0.
bool WcRun::count_name(const char *name, input::InputStatus &status) {
  if (name == nullptr || std::strcmp(name, "-") == 0) {
    have_read_stdin_ = true;
    return count_open_input(STDIN_FILENO, name, status, -1);
  }
  int fd = open(name, O_RDONLY);
  if (fd < 0) {
    report_failure(errno, name);
    return false;
  }
  bool ok = count_open_input(fd, name, status, 0);
  if (close(fd) != 0) {
    report_failure(errno, name);
    return false;
  }
  return ok;
}

/// count_name()'s reading half, on a helper thread: nothing is printed.
/// false hands the file back to the main thread, which then counts it in
/// order: when open() fails for want of descriptors, which is no property
/// of the file (the main thread, with fewer open, may succeed).
bool WcRun::count_name_ahead(const char *name, input::InputStatus &status,
                             FileOutcome &outcome) const {
  outcome = FileOutcome{};
  const int fd = open(name, O_RDONLY);
  if (fd < 0) {
    if (errno == EMFILE || errno == ENFILE || errno == EINTR) return false;
    outcome.open_error = errno;
    return true;
  }
  outcome.input = measure(fd, status, 0, nullptr);
  if (close(fd) != 0) outcome.close_error = errno;
  return true;
}

/// Prints what count_name_ahead() found, exactly as count_name() would have.
bool WcRun::report_ahead(const char *name, const FileOutcome &outcome) {
  if (outcome.open_error != 0) {
    report_failure(outcome.open_error, name);
    return false;
  }
  print_debug_line();
  bool ok = report(name, outcome.input);
  if (outcome.close_error != 0) {
    report_failure(outcome.close_error, name);
    return false;
  }
  return ok;
}

/// A fatal write error (GNU >= 9.10) ends the process at once; the helpers
/// are stopped first, before exit() tears down what they use.
void WcRun::write_line_or_exit(std::string_view line) {
  if (out::write_line(line)) return;
  if (fanout_) fanout_->stop();
  std::exit(EXIT_FAILURE);
}

void WcRun::start_fanout(const std::vector<const char *> &names,
                         std::vector<input::InputStatus> &statuses, unsigned threads) {
  // -c takes sizes from the pre-pass (a few system calls a file, no read):
  // nothing to share out.
  if (bytes_only()) return;
  FanoutPlan plan = plan_fanout(names, statuses, config_.tuning.file_threshold());
  if (plan.eligible_count < fanout_min_files) return;
  fanout_ = std::make_unique<FileFanout>(
      names.size(), threads - 1, fanout_window,
      [this, eligible = std::move(plan.eligible), &statuses](std::size_t index,
                                                             FileOutcome &outcome) {
        return eligible[index] != nullptr &&
               count_name_ahead(eligible[index], statuses[index], outcome);
      },
      std::move(plan.barriers));
}

void WcRun::print_total(std::size_t names) {
  bool wanted = config_.total_mode == cli::TotalMode::always ||
                config_.total_mode == cli::TotalMode::only ||
                (config_.total_mode == cli::TotalMode::automatic && names > 1);
  if (!wanted) return;
  const Counts total = totals_.to_print(config_.selection, compat_, exit_failure_);
  const char *label =
      config_.total_mode == cli::TotalMode::only ? nullptr : out::translate("total");
  write_line_or_exit(out::format_count_line(total, config_.selection, width_, label));
}

int WcRun::run() {
  auto list = input::InputList::open(config_.files0_from, config_.operands);
  if (!list) return 1;

  // The names known before reading: the operands, a loaded list, or the
  // implicit standard input (a single nameless entry) when there are none.
  std::vector<const char *> known;
  bool implicit_stdin = !config_.files0_from && config_.operands.empty();
  if (implicit_stdin) {
    known.push_back(nullptr);
  } else {
    for (const auto &name : list->known_names()) known.push_back(name.c_str());
  }
  // A long list is worked on by several threads: the pre-pass, then the
  // counting of small files (start_fanout).
  const unsigned threads = known.size() >= fanout_min_files ? fanout_threads(config_.read.jobs) : 1;
  auto statuses = input::stat_inputs(known, config_.selection.count(), threads);
  width_ = config_.total_mode == cli::TotalMode::only
               ? 1
               : input::number_width(statuses, compat_.saturates_totals());

  // Many small files: helper threads count the files ahead while this
  // thread prints, in order.
  if (!list->streamed() && !implicit_stdin && threads > 1) start_fanout(known, statuses, threads);

  bool ok = true;
  std::string name;
  for (std::size_t index = 0;; ++index) {
    auto next = list->next(name);
    if (next == input::InputList::Next::end) break;
    if (next == input::InputList::Next::read_error) {
      // GNU reports errno as it is: the failed read's, unless the last name
      // came with that read and failing to count it changed errno since.
      report_list_read_error(config_,
                             list->read_error_came_with_last_name() && last_failure_errno_ != 0
                                 ? last_failure_errno_
                                 : list->read_errno());
      ok = false;
      break;
    }
    input::InputStatus &status = statuses[list->streamed() ? 0 : index];
    const bool skip = !name_is_countable(name, config_, compat_, list->names_produced());
    const FileOutcome *ahead = fanout_ ? fanout_->take(index) : nullptr;
    last_failure_errno_ = 0;
    if (skip) {
      ok = false;
    } else if (ahead != nullptr) {
      ok &= report_ahead(name.c_str(), *ahead);
    } else {
      ok &= count_name(name.c_str(), status);
    }
    // A streamed list has one status slot, re-stat'ed for every name.
    if (list->streamed()) statuses[0].failed = 1;
  }

  if (fanout_) fanout_->stop();

  // No operands means standard input; an empty --files0-from list means
  // nothing at all (GNU wc.c's main: no name, no count).
  if (ok && implicit_stdin) ok &= count_name(nullptr, statuses[0]);

  print_total(list->names_produced());

  if (have_read_stdin_ && close(STDIN_FILENO) != 0) {
    out::report(errno, "-");
    return 1;
  }
  return ok && !exit_failure_ ? 0 : 1;
}

}  // namespace

int run_wc(const cli::Config &config, const cli::Compat &compat) {
  return WcRun(config, compat).run();
}

}  // namespace fastwc::app
