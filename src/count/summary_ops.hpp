// SPDX-License-Identifier: GPL-3.0-or-later
// The monoid operations on the unit layer of a chunk summary (summary.hpp),
// and the accumulator that kernels fill unit by unit or 64 units at a time.
//
// Everything here is a static member of a class template whose parameter is
// the instruction set of the code that uses it (an xsimd arch, or
// BaselineTag). Per-ISA kernel files are compiled with wider instruction sets
// than the rest of the program; giving each of them its own instantiation
// means that no inline function is ever emitted twice with different code, so
// the linker can never pick an AVX-512 copy for baseline code (HACKING.md,
// "No ISA flags outside the per-ISA kernel files").
#pragma once

#include <cstdint>

#include "count/summary.hpp"

namespace fastwc::count {

/// The instantiation tag of code compiled with the project's baseline flags.
struct BaselineTag {};

/// A UnitSummary under construction: `summary` holds the finished fields,
/// `line` the -L column map of the line in progress (before the first break:
/// the chunk's head map; after it: a map from column 0).
struct UnitAccumulator {
  UnitSummary summary;
  ColumnMap line;
};

template <class Tag>
struct SummaryOps {
  /// GNU's tab stop rule, pos += 8 - pos % 8: the next multiple of 8
  /// strictly above pos (a tab at column 8 goes to 16).
  static constexpr std::uint64_t next_tab_stop(std::uint64_t column) noexcept {
    return (column & ~std::uint64_t{7}) + 8;
  }

  /// f(c): the column after a segment that starts at column c.
  static constexpr std::uint64_t apply(const ColumnMap &f, std::uint64_t c) noexcept {
    return f.has_tab ? next_tab_stop(c + f.a) + f.b : c + f.a;
  }

  /// Appends `width` columns to the segment.
  static constexpr void add_width(ColumnMap &f, std::uint64_t width) noexcept {
    (f.has_tab ? f.b : f.a) += width;
  }

  /// Appends a tab: the first one turns c + a into a tab stop; after it the
  /// column is a multiple of 8, so a later tab maps the constant part alone.
  static constexpr void add_tab(ColumnMap &f) noexcept {
    if (f.has_tab) {
      f.b = next_tab_stop(f.b);
    } else {
      f.has_tab = true;
      f.b = 0;
    }
  }

  /// The segment f followed by the segment g (that is, g after f).
  static constexpr ColumnMap then(const ColumnMap &f, const ColumnMap &g) noexcept {
    if (!g.has_tab)
      return f.has_tab ? ColumnMap{f.a, f.b + g.a, true} : ColumnMap{f.a + g.a, 0, false};
    if (!f.has_tab) return {f.a + g.a, g.b, true};
    // next_tab_stop(next_tab_stop(c + f.a) + f.b + g.a) + g.b, where the
    // inner stop is a multiple of 8 and can be taken out.
    return {f.a, next_tab_stop(f.b + g.a) + g.b, true};
  }

  static constexpr LineSummary merge(const LineSummary &x, const LineSummary &y) noexcept {
    if (!x.has_break) {
      LineSummary r = y;
      r.head = then(x.head, y.head);
      return r;
    }
    LineSummary r = x;
    const std::uint64_t joined = apply(y.head, x.tail);  // the line that spans both
    if (!y.has_break) {
      r.tail = joined;
      return r;
    }
    r.inner_max = max3(x.inner_max, joined, y.inner_max);
    r.tail = y.tail;
    return r;
  }

  static constexpr WordSummary merge(const WordSummary &x, const WordSummary &y) noexcept {
    const bool joined = x.last == WordEdge::constituent && y.first == WordEdge::constituent;
    return {x.words + y.words - (joined ? 1 : 0), x.first != WordEdge::none ? x.first : y.first,
            y.last != WordEdge::none ? y.last : x.last};
  }

  static constexpr UnitSummary merge(const UnitSummary &x, const UnitSummary &y) noexcept {
    return {x.lines + y.lines, x.chars + y.chars, merge(x.words, y.words), merge(x.width, y.width)};
  }

  /// GNU's -L result for a whole stream (starting at column 0): the largest
  /// column seen at a break or at the end of input.
  static constexpr std::uint64_t max_line_length(const LineSummary &s) noexcept {
    const std::uint64_t head = apply(s.head, 0);
    return s.has_break ? max3(head, s.inner_max, s.tail) : head;
  }

  static constexpr std::uint64_t max3(std::uint64_t a, std::uint64_t b, std::uint64_t c) noexcept {
    const std::uint64_t ab = a > b ? a : b;
    return ab > c ? ab : c;
  }
};

/// Unit-at-a-time and 64-units-at-a-time updates of a UnitAccumulator.
template <class Tag>
struct Accumulate {
  using Ops = SummaryOps<Tag>;

  /// The bits set in x. Without popcnt (the x86-64 baseline: the scalar
  /// and SSE2 kernels) GCC calls libgcc for __builtin_popcountll; the
  /// same count inline, in a dozen operations, costs less than the call.
  /// (inline_ones: whether ones() is the inline count, which span_width
  /// shares between two masks.)
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  static constexpr bool inline_ones = false;
  static constexpr std::uint64_t ones(std::uint64_t x) noexcept {
    return static_cast<std::uint64_t>(__builtin_popcountll(x));
  }
#else
  static constexpr bool inline_ones = true;
  static constexpr std::uint64_t ones(std::uint64_t x) noexcept { return byte_sum(byte_ones(x)); }
#endif
  /// The bits set in each byte of x, in that byte.
  static constexpr std::uint64_t byte_ones(std::uint64_t x) noexcept {
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  }
  /// The sum of x's bytes, when it is below 256.
  static constexpr std::uint64_t byte_sum(std::uint64_t x) noexcept {
    return (x * 0x0101010101010101u) >> 56;
  }

  static constexpr void width(UnitAccumulator &acc, std::uint64_t columns) noexcept {
    Ops::add_width(acc.line, columns);
  }

  static constexpr void tab(UnitAccumulator &acc) noexcept { Ops::add_tab(acc.line); }

  /// LF, CR or FF: GNU records the column and restarts the line at 0.
  static constexpr void line_break(UnitAccumulator &acc) noexcept {
    end_line(acc.summary.width, acc.line);
  }
  /// line_break on the -L fields alone.
  static constexpr void end_line(LineSummary &l, ColumnMap &line) noexcept {
    if (!l.has_break) {
      l.head = line;
      l.has_break = true;
    } else {
      const std::uint64_t column = Ops::apply(line, 0);
      if (column > l.inner_max) l.inner_max = column;
    }
    line = ColumnMap{};
  }

  /// Word state of up to 64 consecutive units given as bit masks (bit i is
  /// unit i): `sep` separators, `con` constituents; every other bit is a
  /// transparent unit or no unit at all, which leaves the state alone.
  ///
  /// The state before unit i ("in a word") obeys in_{i+1} = con_i |
  /// (transparent_i & in_i): exactly the carry recurrence of adding
  /// (con | transparent) + con with carry-in in_0, so one 64-bit addition
  /// computes all 64 states; a unit starts a word when it is a constituent
  /// and the state before it is not "in a word". Always inline: GCC kept
  /// it out of line in the SSE2, SSSE3 and AVX-512BW C-locale loops, a call
  /// a block (bench/micro/RESULTS.md).
  [[gnu::always_inline]] static constexpr void words(UnitAccumulator &acc, std::uint64_t sep,
                                                     std::uint64_t con) noexcept {
    const std::uint64_t solid = sep | con;
    if (solid == 0) return;
    WordSummary &w = acc.summary.words;
    if (w.first == WordEdge::none)
      w.first = (con & (solid & (~solid + 1))) != 0 ? WordEdge::constituent : WordEdge::separator;
    if (solid == ~std::uint64_t{0}) {
      // No transparent unit (ASCII text, single-byte locales): a word
      // starts at each constituent that follows a separator, which costs
      // a third of the carry chain below.
      const std::uint64_t follows_con = (con << 1) | (w.last == WordEdge::constituent ? 1u : 0u);
      w.words += ones(con & ~follows_con);
      w.last = (con >> 63) != 0 ? WordEdge::constituent : WordEdge::separator;
      return;
    }
    const std::uint64_t transparent = ~solid;
    std::uint64_t partial = 0;
    std::uint64_t sum = 0;
    const bool carry1 = __builtin_add_overflow(con | transparent, con, &partial);
    const bool carry2 = __builtin_add_overflow(
        partial, std::uint64_t{w.last == WordEdge::constituent ? 1u : 0u}, &sum);
    const std::uint64_t state_before = sum ^ transparent;
    w.words += ones(con & ~state_before);
    w.last = carry1 || carry2 ? WordEdge::constituent : WordEdge::separator;
  }

  /// -L over up to 64 consecutive units: bit i of `one`/`two` says unit i is
  /// one/two columns wide, of `tabs` that it is a tab, of `breaks` that it is
  /// LF, CR or FF; only bits below `end` are units. Work is per tab and per
  /// break, not per unit; most blocks of text hold no tab and at most one
  /// break (lines of 40-100 bytes), which at_most_one_break takes without
  /// a loop.
  [[gnu::always_inline]] static constexpr void widths(UnitAccumulator &acc, std::uint64_t one,
                                                      std::uint64_t two, std::uint64_t tabs,
                                                      std::uint64_t breaks, unsigned end) noexcept {
    const std::uint64_t live = end >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << end) - 1;
    breaks &= live;
    tabs &= live;
    if (tabs == 0 && !acc.line.has_tab && (breaks & (breaks - 1)) == 0) {
      at_most_one_break(acc, one, two, breaks, live);
    } else {
      // Copies of the -L fields alone: acc's address passed out of line
      // kept more of the caller's loop in memory (C locale -L 0.9x).
      LineSummary summary = acc.summary.width;
      ColumnMap line = acc.line;
      widths_by_events(summary, line, one, two, tabs, breaks, live);
      acc.summary.width = summary;
      acc.line = line;
    }
  }

  /// widths() a tab or break at a time.
  [[gnu::noinline]] static constexpr void widths_by_events(LineSummary &summary, ColumnMap &line,
                                                           std::uint64_t one, std::uint64_t two,
                                                           std::uint64_t tabs, std::uint64_t breaks,
                                                           std::uint64_t live) noexcept {
    std::uint64_t events = tabs | breaks;
    std::uint64_t from = ~std::uint64_t{0};  // units not yet added
    while (events != 0) {
      const std::uint64_t bit = events & (~events + 1);
      Ops::add_width(line, span_width(one, two, from & (bit - 1)));
      if ((tabs & bit) != 0)
        Ops::add_tab(line);
      else
        end_line(summary, line);
      from &= ~((bit << 1) - 1);
      events ^= bit;
    }
    Ops::add_width(line, span_width(one, two, from & live));
  }

  /// widths() where the line so far and the units have no tab and at most
  /// one break (`breaks`, within `live`): text's lines span blocks, so
  /// whether a block ends one is data the branch predictor cannot learn,
  /// and this path takes no branch on it (bit masks instead).
  [[gnu::always_inline]] static constexpr void at_most_one_break(UnitAccumulator &acc,
                                                                 std::uint64_t one,
                                                                 std::uint64_t two,
                                                                 std::uint64_t breaks,
                                                                 std::uint64_t live) noexcept {
    // Every unit is before the break when there is none (breaks - 1: all ones).
    const std::uint64_t before = (breaks - 1) & live;
    const std::uint64_t after = live & ~before & ~breaks;
    const std::uint64_t column = acc.line.a + span_width(one, two, before);
    const std::uint64_t rest = span_width(one, two, after);
    // All ones when the units end a line: masks, since GCC makes branches
    // of conditional expressions on it.
    const std::uint64_t ends_line = std::uint64_t{0} - std::uint64_t{breaks != 0};
    LineSummary &l = acc.summary.width;
    if (!l.has_break && breaks != 0) [[unlikely]] {
      // The chunk's first break (line_break's head).
      l.head = ColumnMap{column, 0, false};
      l.has_break = true;
    } else {
      const std::uint64_t at_break = column & ends_line;
      l.inner_max = at_break > l.inner_max ? at_break : l.inner_max;
    }
    acc.line.a = (rest & ends_line) | (column & ~ends_line);  // b stays 0 without a tab
  }

  [[gnu::always_inline]] static constexpr std::uint64_t span_width(std::uint64_t one,
                                                                   std::uint64_t two,
                                                                   std::uint64_t span) noexcept {
    // Without popcnt, both counts in one sum: a unit is one or two columns
    // wide, never both, so a byte's weighted count is at most 16.
    if constexpr (inline_ones) return byte_sum(byte_ones(one & span) + 2 * byte_ones(two & span));
    return ones(one & span) + 2 * ones(two & span);
  }

  /// The finished summary of the units accumulated so far.
  static constexpr UnitSummary finish(const UnitAccumulator &acc) noexcept {
    UnitSummary s = acc.summary;
    if (s.width.has_break)
      s.width.tail = Ops::apply(acc.line, 0);
    else
      s.width.head = acc.line;
    return s;
  }
};

}  // namespace fastwc::count
