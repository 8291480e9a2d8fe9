// SPDX-License-Identifier: GPL-3.0-or-later
// The names wc is asked to count: the operands, or the NUL-separated list
// of --files0-from=F, which GNU loads whole when it is a small regular file
// and otherwise reads one name at a time (GNU wc.c's main, argv_iter).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace fastwc::input {

class InputList {
 public:
  /// The operands, or the names in the file --files0-from names ("-":
  /// standard input) when `files0_from` is given. A list file that cannot
  /// be opened or loaded is fatal in GNU wc: the diagnostic is printed and
  /// nothing is returned (exit status 1).
  static std::optional<InputList> open(const std::optional<std::string> &files0_from,
                                       const std::vector<std::string> &operands);

  InputList(InputList &&other) noexcept;
  InputList &operator=(InputList &&) = delete;
  ~InputList();

  /// True when names come one at a time from a stream: the widths are then
  /// 1 and nothing is stat'ed beforehand.
  bool streamed() const noexcept { return stream_ != nullptr; }
  /// The names known up front (operands or a loaded list); empty when streamed.
  const std::vector<std::string> &known_names() const noexcept { return names_; }

  enum class Next { name, end, read_error };
  /// Produces the next name. After read_error (streamed lists only),
  /// read_errno() is the errno to report.
  Next next(std::string &name);
  /// The errno of the read that failed. When that read had already given the
  /// last name (one without its NUL), read_error_came_with_last_name() is
  /// true: GNU's getdelim then fails at once without a read, leaving errno
  /// as handling that name did, so a failure there is reported instead.
  int read_errno() const noexcept { return read_errno_; }
  bool read_error_came_with_last_name() const noexcept { return error_with_last_name_; }
  /// How many names next() has produced so far (GNU's argv_iter_n_args).
  std::size_t names_produced() const noexcept { return produced_; }

 private:
  InputList() = default;
  std::vector<std::string> names_;
  std::FILE *stream_ = nullptr;
  char *line_ = nullptr;  // getdelim's buffer
  std::size_t line_capacity_ = 0;
  std::size_t produced_ = 0;
  int read_errno_ = 0;
  bool error_with_last_name_ = false;
};

}  // namespace fastwc::input
