// SPDX-License-Identifier: GPL-3.0-or-later
// The --progress meter (progress_meter.hpp).
#include "app/progress_meter.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

#include "out/messages.hpp"
#include "support/clock.hpp"

namespace fastwc::app {

namespace {

/// The meter appears only for an input that takes longer than this.
constexpr std::uint64_t delay_ns = 1'000'000'000;
/// And is redrawn at most this often (ten times a second).
constexpr auto refresh_period = std::chrono::milliseconds(100);

/// 512 B, 12.0 KiB, 1.5 GiB.
std::string human_bytes(double bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  char buffer[32];
  if (bytes < 1024) {
    std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
    return buffer;
  }
  int unit = 0;
  bytes /= 1024;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  std::snprintf(buffer, sizeof buffer, "%.1f %s", bytes, units[unit]);
  return buffer;
}

/// 0:05, 12:34, 1:02:03.
std::string clock_time(std::uint64_t seconds) {
  char buffer[32];
  if (seconds >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%llu:%02llu:%02llu",
                  static_cast<unsigned long long>(seconds / 3600),
                  static_cast<unsigned long long>(seconds / 60 % 60),
                  static_cast<unsigned long long>(seconds % 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%llu:%02llu",
                  static_cast<unsigned long long>(seconds / 60),
                  static_cast<unsigned long long>(seconds % 60));
  }
  return buffer;
}

}  // namespace

std::string format_progress(const char *program, const std::string &name, std::uint64_t bytes,
                            std::uint64_t total, std::uint64_t elapsed_ns, std::size_t columns) {
  const double seconds = static_cast<double>(elapsed_ns) / 1e9;
  const double rate = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) about
  // chains of std::string operator+ here.
  std::string line(program);
  line.append(": ").append(human_bytes(static_cast<double>(bytes)));
  if (total != 0) {
    // A file that grows while it is read may pass its size.
    const std::uint64_t shown_total = bytes > total ? bytes : total;
    line.append(" of ").append(human_bytes(static_cast<double>(shown_total)));
    line.append(" (").append(std::to_string(bytes * 100 / shown_total)).append("%)");
  }
  line.append(", ").append(human_bytes(rate)).append("/s");
  if (total > bytes && rate > 0) {
    const auto left = static_cast<std::uint64_t>(static_cast<double>(total - bytes) / rate + 0.5);
    line.append(", ").append(clock_time(left)).append(" left");
  }
  line.append(", ").append(name);
  const std::size_t fit = columns > 1 ? columns - 1 : 0;
  if (line.size() > fit) {
    std::size_t cut = fit;
    // Never leave half a UTF-8 character at the end.
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line.resize(cut);
  }
  return line;
}

ProgressMeter::ProgressMeter(int fd) : fd_(fd), thread_([this] { run(); }) {}

ProgressMeter::~ProgressMeter() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    erase_locked();
  }
  wake_.notify_one();
  thread_.join();
}

void ProgressMeter::begin(std::string name, std::uint64_t total) {
  const std::lock_guard lock(mutex_);
  bytes_.store(0, std::memory_order_relaxed);
  name_ = std::move(name);
  total_ = total;
  started_ns_ = support::now_ns();
  active_ = true;
}

void ProgressMeter::end() {
  const std::lock_guard lock(mutex_);
  active_ = false;
  erase_locked();
}

void ProgressMeter::run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    // Polling, not woken by begin(): an input then costs its reader two
    // uncontended locks and no system call, even in a list of 100,000.
    wake_.wait_for(lock, refresh_period, [this] { return stop_; });
    if (stop_ || !active_) continue;
    const std::uint64_t now = support::now_ns();
    if (now - started_ns_ >= delay_ns) draw_locked(now);
  }
}

void ProgressMeter::draw_locked(std::uint64_t now_ns) {
  const std::string line =
      format_progress(out::program_name(), name_, bytes_.load(std::memory_order_relaxed), total_,
                      now_ns - started_ns_, columns());
  std::string text("\r");
  text.append(line);
  // Blank what a longer line before left on screen.
  if (line.size() < shown_) text.append(shown_ - line.size(), ' ');
  if (line.size() > shown_) shown_ = line.size();
  write_all(text);
}

void ProgressMeter::erase_locked() {
  if (shown_ == 0) return;
  std::string text("\r");
  text.append(shown_, ' ').push_back('\r');
  write_all(text);
  shown_ = 0;
}

void ProgressMeter::write_all(const std::string &text) const noexcept {
  const char *data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a meter that cannot be drawn is no error
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

std::size_t ProgressMeter::columns() const noexcept {
  winsize size{};
  if (ioctl(fd_, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace fastwc::app
