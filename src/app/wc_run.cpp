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
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/progress_meter.hpp"
#include "app/read_report.hpp"
#include "count/dispatch.hpp"
#include "fastwc/engine.hpp"
#include "input/input_list.hpp"
#include "input/stat_prepass.hpp"
#include "io/size_shortcut.hpp"
#include "out/count_line.hpp"
#include "out/messages.hpp"
#include "out/quote.hpp"
#include "out/stdout_sink.hpp"
#include "pipeline/fd_counter.hpp"
#include "pipeline/ordered_fanout.hpp"
#include "pipeline/resources.hpp"

namespace fastwc::app {

namespace {

/// Sums of the per-input counts; max_line_length is a maximum. GNU 9.1 wraps
/// the sums silently; 9.3+ remembers which ones overflowed.
struct Totals {
  Counts counts;
  bool lines_overflowed = false;
  bool words_overflowed = false;
  bool chars_overflowed = false;
  bool bytes_overflowed = false;

  void add(const Counts &c) {
    lines_overflowed |= __builtin_add_overflow(counts.lines, c.lines, &counts.lines);
    words_overflowed |= __builtin_add_overflow(counts.words, c.words, &counts.words);
    chars_overflowed |= __builtin_add_overflow(counts.chars, c.chars, &counts.chars);
    bytes_overflowed |= __builtin_add_overflow(counts.bytes, c.bytes, &counts.bytes);
    if (c.max_line_length > counts.max_line_length) counts.max_line_length = c.max_line_length;
  }
};

/// What reading one input gave, before anything about it is printed.
struct InputCounts {
  Counts counts;
  int read_error = 0;  // errno of the read that failed, or 0
  ReadStats stats;     // how the input was read, for --stats and --debug
};

/// A named file counted by a helper thread ahead of its turn.
struct FileOutcome {
  int open_error = 0;  // open()'s errno: nothing else was done
  InputCounts input;
  int close_error = 0;
};

using FileFanout = pipeline::OrderedFanout<FileOutcome>;

/// Lists of at least this many small files are counted on several threads:
/// a thread costs about as much to start as 20 small files to count.
constexpr std::size_t fanout_min_files = 32;
/// Each thread opens, reads and closes files on its own CPU; small files
/// are system-call bound, so one thread per CPU, and a cap for huge
/// machines (path lookups in one directory contend in the kernel).
constexpr unsigned fanout_max_threads = 8;
/// How far ahead of the printed line the helpers may be (open descriptors
/// stay at one per helper; this bounds the outcomes kept).
constexpr std::size_t fanout_window = 256;

/// The fanout that a fatal write error must stop before exiting.
FileFanout *g_active_fanout = nullptr;

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
  InputCounts measure(int fd, input::InputStatus &status, off_t offset, io::Sys &sys) const;
  InputCounts measure_with_progress(int fd, const char *name, input::InputStatus &status,
                                    off_t offset);
  bool report(const char *name, const InputCounts &measured);
  bool count_name(const char *name, input::InputStatus &status);
  bool count_open_input(int fd, const char *name, input::InputStatus &status, off_t offset);
  bool count_name_ahead(const char *name, input::InputStatus &status, FileOutcome &outcome) const;
  bool report_ahead(const char *name, const FileOutcome &outcome);
  unsigned usable_threads() const;
  std::unique_ptr<FileFanout> start_fanout(const std::vector<const char *> &names,
                                           std::vector<input::InputStatus> &statuses,
                                           unsigned threads);
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
  // GNU asks __builtin_cpu_supports (gnulib's cpu_supports from 9.8, which
  // also honours GLIBC_TUNABLES' glibc.cpu.hwcaps masks); fastwc asks the C
  // library's record of the same CPUID bits (count::detect_cpu_features),
  // because libgcc's __cpu_indicator_init, linked in by
  // __builtin_cpu_supports, runs CPUID at every start-up, and CPUID traps
  // to the hypervisor in virtual machines.
  const count::CpuFeatures cpu = count::detect_cpu_features();
  const char *tunables = compat_.debug_honours_hwcaps() ? std::getenv("GLIBC_TUNABLES") : nullptr;
  auto supports = [tunables](bool present, std::string_view hwcap) {
    return present && count::hwcap_allowed(tunables, hwcap);
  };
  // 9.9+ try AVX-512 first (avx512f and avx512bw) and say so either way.
  if (compat_.reports_avx512()) {
    if (supports(cpu.has(count::cpu_feature::avx512f), "AVX512F") &&
        supports(cpu.has(count::cpu_feature::avx512bw), "AVX512BW")) {
      out::report(0, out::translate("using avx512 hardware support"));
      return;
    }
    out::report(0, out::translate("avx512 support not detected"));
  }
  out::report(0, out::translate(supports(cpu.has(count::cpu_feature::avx2), "AVX2")
                                    ? "using avx2 hardware support"
                                    : "avx2 support not detected"));
}

/// Below this size, readahead advice is not worth its system call.
constexpr off_t small_file_bytes = 128 * 1024;

/// `sys` carries the reads: io::Sys::real(), or the progress meter's.
InputCounts WcRun::measure(int fd, input::InputStatus &status, off_t offset, io::Sys &sys) const {
  InputCounts measured;
  Counts &counts = measured.counts;
  if (bytes_only()) {
    auto shortcut =
        io::count_bytes_from_size(fd, status, offset, compat_.size_shortcut_moves_offset());
    counts.bytes = shortcut.bytes;
    if (shortcut.read_rest) {
      posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      CountOptions bytes_options = options_;
      bytes_options.selection = Selection{false, false, false, true, false};
      CountResult rest =
          pipeline::count_fd_with(fd, bytes_options, config_.read, sys, &measured.stats);
      counts.bytes += rest.counts.bytes;
      measured.read_error = rest.error;
    }
  } else {
    // GNU asks for sequential readahead on every input. A regular file that
    // the stat pre-pass found smaller than one read gains nothing from it,
    // and in a list of 100,000 small files the call is one system call in
    // seven.
    const bool small_file =
        status.failed == 0 && S_ISREG(status.st.st_mode) && status.st.st_size < small_file_bytes;
    if (!small_file) posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    CountResult result = pipeline::count_fd_with(fd, options_, config_.read, sys, &measured.stats);
    counts = result.counts;
    measured.read_error = result.error;
  }
  if (measured.read_error != 0 && uses_lines_loop() &&
      compat_.lines_loop_drops_counts_on_read_error()) {
    counts = Counts{};
  }
  if (options_.encoding == Encoding::single_byte) counts.chars = counts.bytes;
  return measured;
}

bool WcRun::report(const char *name, const InputCounts &measured) {
  // Diagnostics name standard input "standard input" (translated).
  const char *diagnostic_name = name ? name : out::translate("standard input");
  const int read_error = measured.read_error;
  bool ok = read_error == 0;
  bool error_after_line = compat_.reports_read_error_after_counts();
  if (!ok && !error_after_line) report_failure(read_error, diagnostic_name);
  if (config_.total_mode != cli::TotalMode::only) {
    out::write_line(out::format_count_line(measured.counts, config_.selection, width_, name));
  }
  if (!ok && error_after_line) report_failure(read_error, diagnostic_name);
  if (config_.debug || config_.stats) {
    report_reading(out::quote_file_name_for_diagnostic(diagnostic_name), measured.stats,
                   config_.debug, config_.stats);
  }
  totals_.add(measured.counts);
  return ok;
}

/// measure(), under the progress meter when there is one; the meter is
/// erased before anything about the input is printed. Not for a terminal's
/// input, where the meter would mix with what the user types.
InputCounts WcRun::measure_with_progress(int fd, const char *name, input::InputStatus &status,
                                         off_t offset) {
  if (!progress_ || isatty(fd) == 1) return measure(fd, status, offset, io::Sys::real());
  std::uint64_t total = 0;
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t at = offset >= 0 ? offset : lseek(fd, 0, SEEK_CUR);
    if (at >= 0 && st.st_size > at) total = static_cast<std::uint64_t>(st.st_size - at);
  }
  progress_->begin(
      out::quote_file_name_for_diagnostic(name ? name : out::translate("standard input")), total);
  InputCounts measured = measure(fd, status, offset, progress_->io());
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
  outcome.input = measure(fd, status, 0, io::Sys::real());
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

/// --jobs, else the CPUs this process may use; capped for huge machines.
unsigned WcRun::usable_threads() const {
  const unsigned jobs = config_.read.jobs != 0 ? config_.read.jobs : pipeline::usable_cpus();
  return std::min(jobs, fanout_max_threads);
}

/// Whether reading the input may wait for another process (standard input,
/// a FIFO, a terminal, any device), which may meanwhile change the files
/// after it: GNU opens those only after that input is done, so nothing after
/// it is counted ahead. Regular files, directories and names that cannot be
/// stat'ed are read without waiting on anyone.
bool may_wait_for_another_process(const char *name, const input::InputStatus &status) {
  if (name == nullptr || *name == '\0' || status.failed != 0) return false;
  return !S_ISREG(status.st.st_mode) && !S_ISDIR(status.st.st_mode);
}

std::unique_ptr<FileFanout> WcRun::start_fanout(const std::vector<const char *> &names,
                                                std::vector<input::InputStatus> &statuses,
                                                unsigned threads) {
  // -c takes sizes from the pre-pass (a few system calls a file, no read):
  // nothing to share out.
  if (bytes_only()) return nullptr;
  // Only regular files that the pre-pass found non-empty and below the
  // pipeline's threshold are counted ahead. Larger files get every CPU
  // from the pipeline; standard input, FIFOs and devices are read in
  // order, when GNU would read them (opening a FIFO waits for its writer,
  // reading a tty waits for its user); empty regular files are mostly
  // /proc and /sys files, whose contents may depend on when and from which
  // thread they are read.
  std::vector<const char *> eligible(names.size(), nullptr);
  std::vector<std::size_t> barriers;
  std::size_t count = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const input::InputStatus &status = statuses[i];
    const char *name = names[i];
    if (may_wait_for_another_process(name, status)) barriers.push_back(i);
    if (name == nullptr || *name == '\0' || std::strcmp(name, "-") == 0 || status.failed != 0)
      continue;
    if (!S_ISREG(status.st.st_mode) || status.st.st_size <= 0 ||
        static_cast<std::uint64_t>(status.st.st_size) >= config_.read.serial_threshold) {
      continue;
    }
    eligible[i] = name;
    ++count;
  }
  if (count < fanout_min_files) return nullptr;
  auto fanout = std::make_unique<FileFanout>(
      names.size(), threads - 1, fanout_window,
      [this, eligible = std::move(eligible), &statuses](std::size_t index, FileOutcome &outcome) {
        return eligible[index] != nullptr &&
               count_name_ahead(eligible[index], statuses[index], outcome);
      },
      std::move(barriers));
  // A fatal write error (GNU >= 9.10) exits from deep in out::write_line:
  // the helpers must be stopped before exit() tears down what they use.
  g_active_fanout = fanout.get();
  out::set_before_fatal_exit([] {
    if (g_active_fanout != nullptr) g_active_fanout->stop();
  });
  return fanout;
}

void WcRun::print_total(std::size_t names) {
  bool wanted = config_.total_mode == cli::TotalMode::always ||
                config_.total_mode == cli::TotalMode::only ||
                (config_.total_mode == cli::TotalMode::automatic && names > 1);
  if (!wanted) return;
  Counts total = totals_.counts;
  if (compat_.saturates_totals()) {
    // GNU 9.3+: a total that overflowed is shown saturated and diagnosed.
    // GNU checks every sum it kept, printed or not, and every one of its
    // loops counts bytes: -m in a single-byte locale (chars = bytes) reports
    // "total bytes" too. Its unprinted line, word and character sums can only
    // overflow after reading 16 EiB, so only the printed ones are checked.
    constexpr auto saturated = std::numeric_limits<std::uint64_t>::max();
    const Selection &s = config_.selection;
    struct Check {
      bool overflowed;
      std::uint64_t *value;
      const char *what;
    };
    for (const Check &check :
         {Check{totals_.lines_overflowed && s.lines, &total.lines, "total lines"},
          Check{totals_.words_overflowed && s.words, &total.words, "total words"},
          Check{totals_.chars_overflowed && s.chars, &total.chars, "total characters"},
          Check{totals_.bytes_overflowed, &total.bytes, "total bytes"}}) {
      if (!check.overflowed) continue;
      *check.value = saturated;
      out::report(EOVERFLOW, out::translate(check.what));
      exit_failure_ = true;
    }
  }
  const char *label =
      config_.total_mode == cli::TotalMode::only ? nullptr : out::translate("total");
  out::write_line(out::format_count_line(total, config_.selection, width_, label));
}

int WcRun::run() {
  auto list = input::InputList::open(config_);
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
  const unsigned threads = known.size() >= fanout_min_files ? usable_threads() : 1;
  auto statuses = input::stat_inputs(known, config_.selection.count(), threads);
  width_ = config_.total_mode == cli::TotalMode::only
               ? 1
               : input::number_width(statuses, compat_.saturates_totals());

  // Many small files: helper threads count the files ahead while this
  // thread prints, in order.
  std::unique_ptr<FileFanout> fanout;
  if (!list->streamed() && !implicit_stdin && threads > 1)
    fanout = start_fanout(known, statuses, threads);

  bool ok = true;
  const bool list_from_stdin = config_.files0_from && *config_.files0_from == "-";
  std::string name;
  for (std::size_t index = 0;; ++index) {
    auto next = list->next(name);
    if (next == input::InputList::Next::end) break;
    if (next == input::InputList::Next::read_error) {
      // GNU reports errno as it is: the failed read's, unless the last name
      // came with that read and failing to count it changed errno since.
      const int errnum = list->read_error_came_with_last_name() && last_failure_errno_ != 0
                             ? last_failure_errno_
                             : list->read_errno();
      out::report(errnum,
                  out::format_message(out::translate("%s: read error"),
                                      {out::quote_file_name_for_diagnostic(*config_.files0_from)}));
      ok = false;
      break;
    }
    input::InputStatus &status = statuses[list->streamed() ? 0 : index];
    bool skip = false;
    if (list_from_stdin && name == "-") {
      const char *message =
          compat_.says_standard_input_for_list()
              ? "when reading file names from standard input, no file name of %s allowed"
              : "when reading file names from stdin, no file name of %s allowed";
      out::report(0, out::format_message(out::translate(message), {out::quote_always(name)}));
      skip = true;
    }
    if (name.empty()) {
      if (!config_.files0_from) {
        out::report(0, out::translate("invalid zero-length file name"));
      } else {
        out::report(0, out::quote_file_name_for_diagnostic(*config_.files0_from) + ":" +
                           std::to_string(list->names_produced()) + ": " +
                           out::translate("invalid zero-length file name"));
      }
      skip = true;
    }
    const FileOutcome *ahead = fanout ? fanout->take(index) : nullptr;
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

  if (fanout) {
    fanout->stop();
    g_active_fanout = nullptr;
  }

  // No operands means standard input; an empty --files0-from list means
  // nothing at all (wc-spec.md §3.4).
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
