// SPDX-License-Identifier: GPL-3.0-or-later
// Operands and --files0-from lists, with GNU wc's loading rules.
#include "input/input_list.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "out/messages.hpp"
#include "out/quote.hpp"

namespace fastwc::input {

namespace {

/// GNU wc loads a regular list whole when it is no larger than
/// min(10 MiB, half the available memory); anything else is streamed.
bool should_load_whole(std::FILE *stream) {
  struct stat st;
  if (fstat(fileno(stream), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  long pages = sysconf(_SC_AVPHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  double available = pages > 0 && page_size > 0 ? double(pages) * double(page_size) : 0.0;
  double limit = std::min(10.0 * 1024 * 1024, available / 2);
  return double(st.st_size) <= limit;
}

/// Reads one NUL-terminated name; a last name without its NUL still counts
/// (gnulib readtokens0 and getdelim agree on this).
bool read_name(std::FILE *stream, char *&line, std::size_t &capacity, std::string &name) {
  ssize_t length = getdelim(&line, &capacity, '\0', stream);
  if (length <= 0) return false;
  if (line[length - 1] == '\0') --length;
  name.assign(line, static_cast<std::size_t>(length));
  return true;
}

}  // namespace

std::optional<InputList> InputList::open(const std::optional<std::string> &files0_from,
                                         const std::vector<std::string> &operands) {
  InputList list;
  if (!files0_from) {
    list.names_ = operands;
    return list;
  }
  const std::string &list_name = *files0_from;
  std::FILE *stream = list_name == "-" ? stdin : std::fopen(list_name.c_str(), "r");
  if (!stream) {
    out::report(errno, out::format_message(out::translate("cannot open %s for reading"),
                                           {out::quote_always(list_name)}));
    return std::nullopt;
  }
  if (!should_load_whole(stream)) {
    list.stream_ = stream;
    return list;
  }
  std::string name;
  while (read_name(stream, list.line_, list.line_capacity_, name)) list.names_.push_back(name);
  bool failed = std::ferror(stream) != 0;
  // GNU closes the list stream after loading it, standard input included.
  if (std::fclose(stream) != 0) failed = true;
  if (failed) {
    out::report(0, out::format_message(out::translate("cannot read file names from %s"),
                                       {out::quote_always(list_name)}));
    return std::nullopt;
  }
  return list;
}

InputList::InputList(InputList &&other) noexcept
    : names_(std::move(other.names_)),
      stream_(std::exchange(other.stream_, nullptr)),
      line_(std::exchange(other.line_, nullptr)),
      line_capacity_(std::exchange(other.line_capacity_, 0)),
      produced_(other.produced_) {}

InputList::~InputList() {
  std::free(line_);
  if (stream_ && stream_ != stdin) std::fclose(stream_);
}

InputList::Next InputList::next(std::string &name) {
  if (!stream_) {
    if (produced_ == names_.size()) return Next::end;
    name = names_[produced_++];
    return Next::name;
  }
  // A stream already in error returns at once from getdelim, errno untouched.
  const bool failed_before = std::ferror(stream_) != 0;
  errno = 0;
  if (read_name(stream_, line_, line_capacity_, name)) {
    // A name cut short by a failed read still counts; the error comes next.
    if (std::ferror(stream_) != 0) read_errno_ = errno;
    ++produced_;
    return Next::name;
  }
  if (std::ferror(stream_) == 0) return Next::end;
  error_with_last_name_ = failed_before;
  if (!failed_before) read_errno_ = errno;
  return Next::read_error;
}

}  // namespace fastwc::input
