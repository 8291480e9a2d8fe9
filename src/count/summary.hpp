// SPDX-License-Identifier: GPL-3.0-or-later
// Chunk summaries: what counting one piece of a stream yields, so that the
// pieces can be counted independently (by any kernel, on any thread) and
// merged afterwards into exactly the counts of the whole stream. This header
// owns only the plain data; the operations on it are in summary_ops.hpp
// (shared with the per-ISA kernels) and chunk_summarizer.hpp (merge, finish).
//
// A stream is a sequence of *units*: a character, or a byte that does not
// decode (wc skips one byte per encoding error). A chunk's summary has two
// layers:
//  - UnitSummary: the counts of a sequence of units plus the boundary state
//    that the next units need (word edges, -L column maps). These form a
//    monoid on their own.
//  - ChunkSummary: bytes, plus for UTF-8 the bytes whose units cannot be
//    known from the chunk alone: a leading run of continuation bytes that may
//    complete a character begun in the previous chunk, and a trailing
//    incomplete sequence that the next chunk may complete.
// The merge and its proof are in chunk_summarizer.cpp.
#pragma once

#include <cstdint>

namespace fastwc::count {

/// The effect of a line segment without line ends on the -L column, as a
/// function of the column c it starts at (next_tab_stop is GNU's tab rule,
/// SummaryOps::next_tab_stop):
///   no tab:  f(c) = c + a
///   tab:     f(c) = next_tab_stop(c + a) + b
/// Widths add and the first tab rounds up; after the first tab the column is
/// a multiple of 8, and next_tab_stop(8m + x) = 8m + next_tab_stop(x), so
/// everything after it is a constant b. Hence every segment, and every
/// composition of segments, has this form (proved by the tests in
/// test_chunk_summary.cpp against direct simulation).
struct ColumnMap {
  std::uint64_t a;  ///< width before the first tab (the whole width if none)
  std::uint64_t b;  ///< column after the first tab's stop, minus that stop (0 without a tab)
  bool has_tab;

  friend constexpr bool operator==(const ColumnMap &, const ColumnMap &) = default;
};

/// The -L part of a summary. A "break" is LF, CR or FF: GNU records the
/// column and restarts at 0 (wc.c: case '\n', '\r', '\f').
struct LineSummary {
  /// From the start of the chunk to the first break (or the end if none).
  ColumnMap head;
  /// Widest line that both starts and ends at a break inside the chunk.
  std::uint64_t inner_max;
  /// Column at the end of the chunk, counted from the last break; only
  /// meaningful when has_break.
  std::uint64_t tail;
  bool has_break;

  friend constexpr bool operator==(const LineSummary &, const LineSummary &) = default;
};

/// The first or last unit of a chunk that is not transparent.
enum class WordEdge : std::uint8_t {
  none,  ///< every unit is transparent (GNU <= 9.4 only) or there is none
  separator,
  constituent,
};

/// Words are the maximal runs of constituents once transparent units are
/// removed; a run that touches a chunk edge may continue in the neighbour.
struct WordSummary {
  std::uint64_t words;  ///< runs inside the chunk, edge runs included
  WordEdge first;
  WordEdge last;

  friend constexpr bool operator==(const WordSummary &, const WordSummary &) = default;
};

/// Counts and boundary state of a sequence of units.
struct UnitSummary {
  std::uint64_t lines;  ///< 0x0A bytes
  std::uint64_t chars;  ///< decoded characters (UTF-8 only; bytes otherwise)
  WordSummary words;
  LineSummary width;

  friend constexpr bool operator==(const UnitSummary &, const UnitSummary &) = default;
};

/// The summary of one chunk of a stream; value-initialise ({}) for the
/// identity (the empty chunk).
struct ChunkSummary {
  /// Longest UTF-8 sequence in glibc (six bytes), less its lead byte: the
  /// most continuation bytes a previous chunk's character can need, and the
  /// most bytes an incomplete sequence can have.
  static constexpr unsigned edge_capacity = 5;

  std::uint64_t bytes;
  /// Units of the bytes between prefix and tail.
  UnitSummary units;
  /// The chunk's leading continuation bytes (at most edge_capacity). When
  /// prefix_size == bytes the chunk holds nothing else.
  std::uint8_t prefix[edge_capacity];
  std::uint8_t prefix_size;
  /// A trailing sequence that glibc's decoder calls incomplete.
  std::uint8_t tail[edge_capacity];
  std::uint8_t tail_size;

  friend constexpr bool operator==(const ChunkSummary &, const ChunkSummary &) = default;
};

}  // namespace fastwc::count
