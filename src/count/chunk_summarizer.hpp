// SPDX-License-Identifier: GPL-3.0-or-later
// Counting by chunk summaries: summarize any chunk of a stream on its own
// (with the dispatched SIMD kernel), merge summaries in stream order, and
// turn the summary of a whole stream into GNU wc's counts. This is the fast
// engine behind fastwc::Counter for the C/single-byte and UTF-8 paths; other
// multibyte locales stay on ReferenceCounter.
#pragma once

#include <cstddef>
#include <span>

#include "count/dispatch.hpp"
#include "count/summary.hpp"
#include "fastwc/counts.hpp"
#include "fastwc/options.hpp"

namespace fastwc::locale {
class CharClasses;
}

namespace fastwc::count {

class UnitClasses;

/// Summarizes, merges and finishes chunks for one set of options and one
/// locale's classes.
///
/// Laws (tested at every split point in test_chunk_summary.cpp): for byte
/// strings A and B, merge(summarize(A), summarize(B)) == summarize(AB);
/// merge is associative and ChunkSummary{} is its identity; so any split of
/// a stream, summarized in any order and merged in stream order, finishes
/// to the counts of the whole stream.
///
/// All const members are thread-safe; summarize() is noexcept and never
/// allocates (beyond filling the process-wide class caches on first use).
class ChunkSummarizer {
 public:
  /// True for the options this engine handles: every Encoding except
  /// other_multibyte where characters are decoded (mbrtowc's state; -l and
  /// -c are served), and not GNU 9.5+'s split rescan
  /// (CountOptions::gnu_split_rescan_read_size).
  static bool supports(const CountOptions &options) noexcept;

  /// False when only bytes and newlines are counted (-c, -l, and -m where
  /// characters are bytes): ChunkSummarizer(options) then serves, with no
  /// character classes.
  static bool needs_classes(const CountOptions &options) noexcept;

  /// Uses active_kernel() when a kernel is needed (deciding it then).
  /// Requires supports(options).
  ChunkSummarizer(const CountOptions &options, const locale::CharClasses &classes);
  /// Counts bytes and newlines alone: requires !needs_classes(options).
  /// Building the locale's classes for nothing was a third of `fastwc -c`'s
  /// instructions (callgrind).
  explicit ChunkSummarizer(const CountOptions &options);
  /// Uses the given kernel (tests, benchmarks). Requires
  /// kernel_supported(kernel).
  ChunkSummarizer(const CountOptions &options, const locale::CharClasses &classes, KernelId kernel);

  /// The summary of one chunk, as if nothing came before or after it.
  ChunkSummary summarize(std::span<const std::byte> chunk) const noexcept;

  /// The summary of `first` followed by `second`.
  ChunkSummary merge(const ChunkSummary &first, const ChunkSummary &second) const noexcept;

  /// The counts of a stream whose summary is `whole`. Selected counts are
  /// GNU's; unselected ones are 0, except bytes, which is always exact.
  /// after_error: the stream ended with a read error, so a trailing
  /// incomplete sequence is dropped under every word rule (GNU leaves its
  /// loop at once) instead of counting as encoding errors (9.5 at EOF).
  Counts finish(const ChunkSummary &whole, bool after_error = false) const noexcept;

  /// The kernel used (KernelId::scalar also when no kernel is needed).
  KernelId kernel() const noexcept { return kernel_; }
  /// What the kernel computes for these options; nullopt-like `needs_kernel`
  /// false when only bytes are asked for.
  kernels::Plan plan() const noexcept { return request_.plan; }
  bool needs_kernel() const noexcept { return body_ != nullptr; }

 private:
  UnitSummary invalid_units(std::size_t count) const noexcept;

  CountOptions options_;
  const UnitClasses *units_;
  kernels::Request request_{};
  bool decodes_ = false;  ///< UTF-8 plans: chunks carry prefix and tail
  KernelId kernel_ = KernelId::scalar;
  BodyFunction body_ = nullptr;
  /// For bodies shorter than a SIMD block: the scalar kernel, or body_.
  BodyFunction short_body_ = nullptr;
};

/// A stream counter on top of ChunkSummarizer: each piece is summarized and
/// merged into the running summary. Not thread-safe.
class StreamCounter {
 public:
  StreamCounter(const CountOptions &options, const locale::CharClasses &classes)
      : counter_(options, classes) {}
  StreamCounter(const CountOptions &options, const locale::CharClasses &classes, KernelId kernel)
      : counter_(options, classes, kernel) {}

  void update(std::span<const std::byte> piece) noexcept {
    whole_ = counter_.merge(whole_, counter_.summarize(piece));
  }
  /// Counts of the stream so far; resets for the next stream.
  Counts finish(bool after_error = false) noexcept {
    const Counts counts = counter_.finish(whole_, after_error);
    whole_ = ChunkSummary{};
    return counts;
  }
  const ChunkSummarizer &counter() const noexcept { return counter_; }

 private:
  ChunkSummarizer counter_;
  ChunkSummary whole_{};
};

}  // namespace fastwc::count
