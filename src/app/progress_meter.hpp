// SPDX-License-Identifier: GPL-3.0-or-later
// --progress: a one-line meter on a terminal's standard error for an input
// that takes more than a second to count. Not GNU output; off by default.
//
// The readers feed it through io() (a ByteCountingSys: one relaxed atomic
// add per read); a thread of its own wakes ten times a second and redraws
// the line once the input has taken a second. end() erases the line before
// anything is printed about the input, so the meter never mixes with a
// count line or a diagnostic. Without --progress nothing of this exists.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace fastwc::app {

/// The meter's text, without "\r": "12.0 MiB of 256.0 MiB (4%), 45.6 MiB/s,
/// 0:05 left, NAME" (only the bytes and the rate when `total` is 0, i.e.
/// unknown), prefixed with "PROGRAM: " and cut to `columns` - 1 bytes, so
/// that it never wraps. `name` is already quoted.
std::string format_progress(const char *program, const std::string &name, std::uint64_t bytes,
                            std::uint64_t total, std::uint64_t elapsed_ns, std::size_t columns);

class ProgressMeter {
 public:
  /// Draws on `fd`, which must be a terminal. Starts the meter's thread.
  explicit ProgressMeter(int fd);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter &) = delete;
  ProgressMeter &operator=(const ProgressMeter &) = delete;

  /// The counter that the current input's reads add to
  /// (ReadOptions::bytes_read).
  std::atomic<std::uint64_t> *bytes_read() noexcept { return &bytes_; }

  /// An input starts: `name` quoted, `total` its size in bytes, 0 when
  /// unknown.
  void begin(std::string name, std::uint64_t total);
  /// The input is read: erases the meter if it is shown. Call before
  /// printing anything about the input.
  void end();

 private:
  void run();
  void draw_locked(std::uint64_t now_ns);
  void erase_locked();
  void write_all(const std::string &text) const noexcept;
  std::size_t columns() const noexcept;

  const int fd_;
  std::atomic<std::uint64_t> bytes_{0};
  std::mutex mutex_;
  std::condition_variable wake_;  ///< only to stop the thread
  bool stop_ = false;             ///< guarded by mutex_
  bool active_ = false;           ///< guarded by mutex_: between begin() and end()
  std::string name_;              ///< guarded by mutex_
  std::uint64_t total_ = 0;       ///< guarded by mutex_
  std::uint64_t started_ns_ = 0;  ///< guarded by mutex_
  std::size_t shown_ = 0;         ///< columns of the line on screen (0: none); guarded by mutex_
  std::thread thread_;
};

}  // namespace fastwc::app
