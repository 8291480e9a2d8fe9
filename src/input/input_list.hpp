// SPDX-License-Identifier: GPL-3.0-or-later
// The names wc is asked to count: the operands, or the NUL-separated list
// of --files0-from=F, which GNU loads whole when it is a small regular file
// and otherwise reads one name at a time (wc-spec.md §3.4).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.hpp"

namespace fastwc::input {

class InputList {
 public:
  /// Builds the list for a parsed command line. A list file that cannot be
  /// opened or loaded is fatal in GNU wc: the diagnostic is printed and
  /// nothing is returned (exit status 1).
  static std::optional<InputList> open(const cli::Config &config);

  InputList(InputList &&other) noexcept;
  InputList &operator=(InputList &&) = delete;
  ~InputList();

  /// True when names come one at a time from a stream: the widths are then
  /// 1 and nothing is stat'ed beforehand.
  bool streamed() const noexcept { return stream_ != nullptr; }
  /// The names known up front (operands or a loaded list); empty when streamed.
  const std::vector<std::string> &known_names() const noexcept { return names_; }

  enum class Next { name, end, read_error };
  /// Produces the next name. read_error leaves errno set (streamed lists).
  Next next(std::string &name);
  /// How many names next() has produced so far (GNU's argv_iter_n_args).
  std::size_t names_produced() const noexcept { return produced_; }

 private:
  InputList() = default;
  std::vector<std::string> names_;
  std::FILE *stream_ = nullptr;
  char *line_ = nullptr;  // getdelim's buffer
  std::size_t line_capacity_ = 0;
  std::size_t produced_ = 0;
};

}  // namespace fastwc::input
