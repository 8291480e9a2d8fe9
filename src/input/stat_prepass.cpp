// SPDX-License-Identifier: GPL-3.0-or-later
// The stat pre-pass and GNU wc's column-width rule.
#include "input/stat_prepass.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <thread>

namespace fastwc::input {

namespace {

/// Fewer names than this a thread are stat'ed by the calling thread alone:
/// starting a thread costs about as much as 20 stats.
constexpr std::size_t names_per_thread_min = 256;

void stat_range(const std::vector<const char *> &names, std::vector<InputStatus> &statuses,
                std::size_t begin, std::size_t end) noexcept {
  for (std::size_t i = begin; i < end; ++i) {
    const char *name = names[i];
    bool is_stdin = name == nullptr || std::strcmp(name, "-") == 0;
    statuses[i].failed =
        is_stdin ? fstat(STDIN_FILENO, &statuses[i].st) : stat(name, &statuses[i].st);
  }
}

}  // namespace

std::vector<InputStatus> stat_inputs(const std::vector<const char *> &names, int selected_counts,
                                     unsigned threads) {
  std::vector<InputStatus> statuses(names.empty() ? 1 : names.size());
  if (names.empty() || (names.size() == 1 && selected_counts == 1)) return statuses;
  const std::size_t parts =
      std::clamp<std::size_t>(names.size() / names_per_thread_min, 1, std::max(threads, 1U));
  // Contiguous parts, the first for this thread; a thread the system
  // refuses is replaced by doing its part here.
  std::vector<std::thread> helpers;
  const std::size_t part_size = (names.size() + parts - 1) / parts;
  for (std::size_t part = 1; part < parts; ++part) {
    const std::size_t begin = part * part_size;
    const std::size_t end = std::min(names.size(), begin + part_size);
    try {
      helpers.emplace_back(
          [&names, &statuses, begin, end] { stat_range(names, statuses, begin, end); });
    } catch (const std::exception &) {
      stat_range(names, statuses, begin, end);
    }
  }
  stat_range(names, statuses, 0, std::min(names.size(), part_size));
  for (std::thread &helper : helpers) helper.join();
  return statuses;
}

int number_width(const std::vector<InputStatus> &statuses, bool saturate_sum) {
  int width = 1;
  if (statuses.empty() || statuses[0].failed > 0) return width;
  // GNU's minimum width for inputs whose size says nothing (pipes, ttys,
  // directories, devices): room for seven digits.
  constexpr int non_regular_min_width = 7;
  int minimum_width = 1;
  std::uint64_t regular_total = 0;
  for (const auto &status : statuses) {
    if (status.failed != 0) continue;
    if (S_ISREG(status.st.st_mode)) {
      auto size = static_cast<std::uint64_t>(status.st.st_size);
      if (saturate_sum && regular_total > std::numeric_limits<std::uint64_t>::max() - size) {
        regular_total = std::numeric_limits<std::uint64_t>::max();
      } else {
        regular_total += size;  // 9.1 wraps modulo 2^64, as GNU does
      }
    } else {
      minimum_width = non_regular_min_width;
    }
  }
  for (; regular_total >= 10; regular_total /= 10) ++width;
  return width < minimum_width ? minimum_width : width;
}

}  // namespace fastwc::input
