// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/file_fanout.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "fastwc/read_options.hpp"

namespace fastwc::app {

namespace {

constexpr unsigned fanout_max_threads = 8;

/// Whether reading the input may wait for another process (standard input,
/// a FIFO, a terminal, any device), which may meanwhile change the files
/// after it: GNU opens those only after that input is done. Regular files,
/// directories and names that cannot be stat'ed are read without waiting
/// on anyone.
bool may_wait_for_another_process(const char *name, const input::InputStatus &status) {
  if (name == nullptr || *name == '\0' || status.failed != 0) return false;
  return !S_ISREG(status.st.st_mode) && !S_ISDIR(status.st.st_mode);
}

}  // namespace

unsigned fanout_threads(unsigned jobs) noexcept {
  return std::min(jobs != 0 ? jobs : default_jobs(), fanout_max_threads);
}

FanoutPlan plan_fanout(const std::vector<const char *> &names,
                       const std::vector<input::InputStatus> &statuses,
                       std::uint64_t file_threshold) {
  FanoutPlan plan;
  plan.eligible.assign(names.size(), nullptr);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const input::InputStatus &status = statuses[i];
    const char *name = names[i];
    if (may_wait_for_another_process(name, status)) plan.barriers.push_back(i);
    if (name == nullptr || *name == '\0' || std::strcmp(name, "-") == 0 || status.failed != 0)
      continue;
    if (!S_ISREG(status.st.st_mode) || status.st.st_size <= 0 ||
        static_cast<std::uint64_t>(status.st.st_size) >= file_threshold) {
      continue;
    }
    plan.eligible[i] = name;
    ++plan.eligible_count;
  }
  return plan;
}

}  // namespace fastwc::app
