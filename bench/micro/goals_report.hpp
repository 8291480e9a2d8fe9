// SPDX-License-Identifier: GPL-3.0-or-later
// The goals a bench_kernels run fell short of (kernel_goals.hpp), gathered
// row by row and printed under its table with what limits each.
#pragma once

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "count/dispatch.hpp"
#include "kernel_goals.hpp"

namespace bench_goals {

class ShortOf {
 public:
  /// A row (`label`: mode and corpus) at `measured`, short of the goal
  /// named `goal`, which `limit` explains.
  void add(const std::string &goal, std::string_view limit, const std::string &label,
           double measured) {
    for (Entry &e : entries_)
      if (e.goal == goal) {
        e.rows.push_back({label, measured});
        return;
      }
    entries_.push_back({goal, limit, {{label, measured}}});
  }

  void print() const {
    if (entries_.empty()) return;
    std::printf("\nGoals not met here, and what limits them:\n\n");
    std::printf("| goal | rows short of it (measured) | what limits it |\n|---|---|---|\n");
    for (const Entry &e : entries_) {
      constexpr std::size_t shown = 8;
      std::string rows;
      for (std::size_t i = 0; i < e.rows.size() && i < shown; ++i) {
        char value[32];
        std::snprintf(value, sizeof value, " (%.2f)", e.rows[i].measured);
        rows += (i == 0 ? "" : "; ") + e.rows[i].label + value;
      }
      if (e.rows.size() > shown) rows += "; " + std::to_string(e.rows.size() - shown) + " more";
      std::printf("| %s | %s | %.*s |\n", e.goal.c_str(), rows.c_str(),
                  static_cast<int>(e.limit.size()), e.limit.data());
    }
  }

 private:
  struct Row {
    std::string label;
    double measured;
  };
  struct Entry {
    std::string goal;
    std::string_view limit;
    std::vector<Row> rows;
  };
  std::vector<Entry> entries_;
};

/// A goal's name for the report: its modes, corpora and speed.
inline std::string goal_name(const Goal &g) {
  const auto spaced = [](std::string_view list) {
    std::string out(list);
    for (std::size_t at = out.find('|'); at != std::string::npos; at = out.find('|', at + 3))
      out.replace(at, 1, " / ");
    return out;
  };
  char speed[32];
  std::snprintf(speed, sizeof speed, ">= %g GB/s", g.gbps);
  return spaced(g.modes.empty() ? "every mode" : g.modes) + " on " +
         spaced(g.corpora.empty() ? "every text corpus" : g.corpora) + ": " + speed;
}

/// The ratios between kernels of a row (GB/s by KernelId; 0: not measured)
/// that fall short of the ISA goals, for the table's column ("-" when none
/// does), each added to `short_of`.
inline std::string isa_goals(const double (&gbps)[std::size(fastwc::count::all_kernels)],
                             const std::string &label, ShortOf &short_of) {
  using fastwc::count::KernelId;
  const auto at = [&gbps](KernelId k) { return gbps[static_cast<std::size_t>(k)]; };
  const double avx512 = std::max(at(KernelId::avx512bw), at(KernelId::avx512vbmi));
  std::string out;
  char part[32];
  const auto check = [&](const IsaGoal &goal, double ratio, const char *what) {
    if (ratio <= 0 || ratio >= goal.ratio) return;
    std::snprintf(part, sizeof part, "%s%s %.2f", out.empty() ? "" : " ", what, ratio);
    out += part;
    short_of.add(std::string(goal.name), goal.limit, label, ratio);
  };
  if (avx512 > 0 && at(KernelId::avx2) > 0)
    check(avx2_vs_avx512, at(KernelId::avx2) / avx512, "avx2");
  if (at(KernelId::scalar) > 0 && at(KernelId::sse2) > 0)
    check(sse2_vs_scalar, at(KernelId::sse2) / at(KernelId::scalar), "sse2");
  return out.empty() ? "-" : out;
}

}  // namespace bench_goals
