// SPDX-License-Identifier: GPL-3.0-or-later
// Words and -L widths in stride from UnitClasses' census by cell
// (cell_census.hpp). Each character's word class and width go to its lead
// byte and its continuation bytes stay transparent and add no width, which
// changes the word state and the line's column exactly as the character
// does (summary_ops.hpp's words() and widths()), so nothing crosses from
// one block to the next and blocks go 64 bytes a step, whatever characters
// cross between them. `run` counts words, widths or both, and the
// characters -m counts, under both rules, from a block at a unit boundary
// that passed the validator, while the next one passes too
// (kernel_driver.hpp's UTF-8 loop hands it the block); leads_alone.hpp
// counts GNU 9.1's words without -m over any bytes with the same looks.
//
// Most lead bytes start characters that are all constituents and all of
// one width (Cyrillic, Arabic, the CJK ideographs, Hangul's EB and EC):
// the census settles them, and their characters need no lookup. The others
// are looked at a lead at a time: a two-byte lead's characters by their
// second byte (its one cell's masks); a three-byte lead's by whether the
// census settles the cell of their second byte (plane 1's emoji by their
// third), and the rest a cell at a time (the cell's masks, cached, looked
// up by the last byte); past max_rounds, one by one (classify_multibyte).
// Without byte shuffles (SSE2), a block's few such characters go one by one
// through the table of planes 0 and 1 instead (by_table_max), and so do
// those the looks leave (busy_cells).
// With VBMI, first: all two-byte characters by bit maps of their cells
// (classify_two_byte.hpp), three-byte ones by the slots the looks gave
// their cells (classify_three_byte.hpp). With byte shuffles alone (SSSE3,
// AVX2, AVX-512BW), first: the settled rows and slots the looks gave the
// leads and cells they met (classify_by_cell_slots.hpp). The looks
// themselves are cell_looks.hpp's.
// What "settled" means is the plan's: constituents alone for words, one
// width alone for -L, both for both (census_tables.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/cell_looks.hpp"
#include "count/kernels/classify_three_byte.hpp"
#include "count/kernels/classify_two_byte.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/utf8_validation.hpp"
#include "count/summary_ops.hpp"
// Only UnitClasses::cell_masks and classify_multibyte, out of line, are
// called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CellsInStride : CellLooks<A> {
  using Base = CellLooks<A>;
  using Base::bits;
  using Base::lead_sets;
  using Base::load;
  using Base::popcount;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::LeadSets;
  using typename Base::SettledCells;
  using typename Base::Tables;
  using Validation = Utf8Validation<A>;
  using Classes = CByteClasses<A>;
  using Acc = Accumulate<A>;
  using TwoByte = TwoByteClassifier<A>;
  using Base::cached;
  using Base::uses_cell_slots;
  using typename Base::CellCache;
  using typename Base::CellSlots;
  using typename Base::Found;
  using typename Base::ThreeByte;
  /// Lookups (a lead or a cell each) a block before the rest go one by one.
  static constexpr unsigned max_rounds = 12;
  /// Lead-level looks in the loop itself, before classify is called.
  static constexpr unsigned inline_rounds = 2;
  /// Cells a three-byte lead's look there takes too.
  static constexpr unsigned inline_cells = 3;
  /// Without byte shuffles, a lead with more characters than this in cells
  /// the census does not settle (kana: cells with unassigned code points)
  /// makes its block crowded: its characters go through the table, but
  /// Busy::at_cells leaves the second crowded block in a row to the scalar
  /// kernel's way, which counts runs of them faster (SSE2 -w 9.1, new
  /// text: Japanese 0.70-0.73x with every block through the table; mixed
  /// text, whose lines of kana or Devanagari are a block or two, 1.28-1.35x,
  /// and -L 1.21-1.24x, against leaving every crowded block). A few such
  /// characters (Latin's and Cyrillic's dashes and quotes) cost less in
  /// the stride; measured, SSE2 -w 9.1: Latin 0.51 GB/s with 3, 0.67 with
  /// 5, 0.72 with 7, where Japanese stays 0.63 (the scalar kernel's way:
  /// 0.65).
  static constexpr unsigned busy_cells = 7;
  /// Without byte shuffles, a block with at most this many characters left
  /// to classify takes them from the table of planes 0 and 1, a load each
  /// (CellLooks::by_table), before the looks and instead of leaving the
  /// block busy: the looks' compares cost a lead or a cell about what a
  /// dozen such loads do (SSE2 -w 9.1, against the looks alone: Chinese
  /// 1.38x, Latin and typographic English 1.35-1.6x, mixed text 1.6x; with
  /// every character so, Devanagari, Greek and Japanese lost 0.75-0.94x).
  static constexpr unsigned by_table_max = 16;

  /// Adds to `out` what the characters that start at the bits of `pending`
  /// (leads the census does not settle) are, as bits at their leads. Out
  /// of line: classify_leads' looks in the loop leave it only blocks that
  /// mix more leads or cells than those, and the loop keeps its registers.
  template <bool Words, bool Width, bool Slots>
  [[gnu::noinline]] static void classify(const UnitClasses &classes, const Tables &t,
                                         CellCache &cache, const std::uint8_t *q, const Block &cur,
                                         std::uint64_t pending, Found &out) noexcept {
    const CellCensus &census = *t.census;
    const Block second = load(q + 1);
    Block third{};
    Block fourth{};
    bool loaded3 = false;
    bool loaded4 = false;
    Found f{0, 0, 0, 0};
    unsigned rounds = 0;
    while (pending != 0 && rounds < max_rounds) {
      ++rounds;
      const std::uint8_t lead = q[__builtin_ctzll(pending)];
      std::uint64_t same = pending & bits(cur, [lead](B v) { return v == B(lead); });
      if (lead < 0xE0) {
        Base::template apply_cell<Words, Width>(census.two_byte[lead & 0x1F], second, same, f);
        if constexpr (Slots)
          if (CellSlots::wants_two(cache.shuffled, lead))
            CellSlots::install_two(cache.shuffled, lead, census.two_byte[lead & 0x1F]);
        pending &= ~same;
        continue;
      }
      const std::uint64_t done = Base::template settle<Width>(*t.cells, lead, same, second, q, f);
      pending &= ~done;
      same &= ~done;
      if (!loaded3) {
        third = load(q + 2);
        loaded3 = true;
      }
      // A cell a round, the first character's.
      while (same != 0 && rounds < max_rounds) {
        const unsigned i = static_cast<unsigned>(__builtin_ctzll(same));
        const std::uint8_t s = q[i + 1];
        std::uint64_t in_cell = same & bits(second, [s](B v) { return v == B(s); });
        std::uint32_t index = 0;
        const Block *last = &third;
        if (lead < 0xF0) {
          index = ((lead & 0x0Fu) << 6) | (s & 0x3Fu);
          if constexpr (Slots)
            if (CellSlots::wants_three(cache.shuffled, lead, s))
              CellSlots::install_three(classes, cache.shuffled, lead, s);
        } else {
          const std::uint8_t u = q[i + 2];
          in_cell &= bits(third, [u](B v) { return v == B(u); });
          index = ((lead & 0x07u) << 12) | ((s & 0x3Fu) << 6) | (u & 0x3Fu);
          if constexpr (Slots)
            if (lead == 0xF0 && s == 0x9F &&
                CellSlots::wants_three(cache.shuffled, CellSlots::emoji_lead, u))
              CellSlots::install_emoji(classes, cache.shuffled, u);
          if (!loaded4) {
            fourth = load(q + 3);
            loaded4 = true;
          }
          last = &fourth;
        }
        Base::template apply_cell<Words, Width>(cached(classes, cache, index), *last, in_cell, f);
        same &= ~in_cell;
        pending &= ~in_cell;
        ++rounds;
      }
    }
    if (pending != 0) {
      CharMasks m{0, 0, 0, 0};
      classify_multibyte(classes, q, pending, m);
      f.sep |= m.sep;
      f.trans |= pending & ~(m.sep | m.con);
      f.narrow |= m.w1;
      f.wide |= m.w2;
    }
    out.add(f);
  }

  /// When a block's characters need more than the looks that classify_leads
  /// makes in the loop, `run` may leave the block to kernel_driver.hpp's
  /// classifiers instead (busy), which answer mixes of cells with the hot
  /// cells, the cell cache and the table (leads_alone.hpp has no such way):
  /// never, past the inline looks (at_classify), or already at the first
  /// cell to look up (at_cells: with VBMI, whose hot cells classify a
  /// cell's characters with one permute). kernel_driver.hpp's stride_busy
  /// says which, per ISA and rule, as measured.
  enum class Busy : std::uint8_t { never, at_classify, at_cells };

  /// Adds to f what the characters that start at the bits of `pending` in
  /// the block cur at q are (complete valid sequences whose leads the
  /// census does not settle; q[64..66] readable), as bits at their leads;
  /// or returns false, f incomplete, where `busy` says to give up. Slots:
  /// whether the leads and cells looked at take CellSlots' rows and slots
  /// (StridePolicy::cell_slots). Without byte shuffles, the characters the
  /// looks leave go through t.bmp where it exists, unless the block before
  /// was crowded too (busy_cells; CellCache::after_crowded).
  template <bool Words, bool Width, Busy busy, bool Slots>
  [[gnu::always_inline]] static bool classify_leads(const UnitClasses &classes, const Tables &t,
                                                    CellCache &cache, const std::uint8_t *q,
                                                    const Block &cur, std::uint64_t pending,
                                                    Found &f) noexcept {
    // Most such blocks hold one or two of these leads and no character
    // that needs its cell (Greek's CE, Latin's C2, Korean's EA and ED):
    // their lead-level looks here, without the call's spills.
    const Block second = load(q + 1);
    std::uint64_t unlooked = pending;
    for (unsigned round = 0; round < inline_rounds && unlooked != 0; ++round) {
      const std::uint8_t lead = q[__builtin_ctzll(unlooked)];
      const std::uint64_t same = unlooked & bits(cur, [lead](B v) { return v == B(lead); });
      unlooked &= ~same;
      if (lead < 0xE0) {
        Base::template apply_cell<Words, Width>(t.census->two_byte[lead & 0x1F], second, same, f);
        if constexpr (Slots && Base::two_byte_blocks_in_slots)
          if (CellSlots::wants_two(cache.shuffled, lead))
            CellSlots::install_two(cache.shuffled, lead, t.census->two_byte[lead & 0x1F]);
        pending &= ~same;
      } else if (lead < 0xF0) {
        const std::uint64_t settled =
            Base::template settle<Width>(*t.cells, lead, same, second, q, f);
        const std::uint64_t rest = same & ~settled;
        if constexpr (Slots) {
          if (settled != 0 && CellSlots::wants_row(cache.shuffled, lead))
            CellSlots::install_row(cache.shuffled, lead, t.cells->three_byte[lead & 0x0Fu],
                                   t.cells->three_byte_wide[lead & 0x0Fu]);
        }
        pending &= ~same | rest;
        if constexpr (Isa::has_permute64 && busy != Busy::never) {
          // Slots for their cells, for the blocks after, where there is room.
          if (rest != 0 || cache.slots.rows_used < ThreeByte::rows)
            ThreeByte::template install<false>(classes, t.cells->three_byte,
                                               t.cells->three_byte_wide, cache.slots, q, same);
        }
        if constexpr (busy == Busy::at_cells) {
          if constexpr (Isa::has_shuffle) {
            if (rest != 0) return false;
          } else if (popcount(rest) > busy_cells) {
            // A crowded block: alone, among other scripts' blocks, through
            // the table (in mixed text, a line of kana or Devanagari);
            // the second in a row leaves the stride.
            if (t.bmp == nullptr || cache.after_crowded == q) return false;
            cache.after_crowded = q + 64;
            break;
          }
        }
        // The first cells in use too (English's quotes and dashes share
        // E2 80 with white space; kana share E3 81 and E3 82 with
        // unassigned code points).
        std::uint64_t rest_cells = rest;
        for (unsigned c = 0; c < inline_cells && rest_cells != 0; ++c) {
          const std::uint8_t s = q[__builtin_ctzll(rest_cells) + 1];
          const std::uint64_t in_cell = rest_cells & bits(second, [s](B v) { return v == B(s); });
          Base::template apply_cell<Words, Width>(
              cached(classes, cache, ((lead & 0x0Fu) << 6) | (s & 0x3Fu)), load(q + 2), in_cell, f);
          if constexpr (Slots)
            if (CellSlots::wants_three(cache.shuffled, lead, s))
              CellSlots::install_three(classes, cache.shuffled, lead, s);
          pending &= ~in_cell;
          rest_cells &= ~in_cell;
        }
      } else {
        const std::uint64_t done = Base::template settle<Width>(*t.cells, lead, same, second, q, f);
        pending &= ~done;
        if constexpr (Isa::has_permute64 && busy != Busy::never) {
          // Emoji (F0 9F) take slots too, by their third byte.
          const std::uint64_t emoji =
              lead == 0xF0 ? same & bits(second, [](B v) { return v == B(0x9F); }) : 0;
          if (emoji != 0 && (emoji != done || cache.slots.rows_used < ThreeByte::rows))
            ThreeByte::template install<true>(classes, &t.cells->plane1, &t.cells->plane1_wide,
                                              cache.slots, q, emoji);
        }
        // With more than one vector a block (AVX2, SSSE3): with AVX-512BW the
        // call here cost the loops their registers (Greek's words under 9.1
        // 0.83-0.9x), and its emoji's cells take slots in classify.
        if constexpr (Slots && Base::lanes > 1) {
          if (lead == 0xF0 && same != done) {
            const typename Base::EmojiLooks e = Base::template emoji_cells<Words, Width>(
                classes, cache, q, same & ~done, inline_cells);
            f.add(e.found);
            pending &= ~e.done;
          }
        }
      }
    }
    if (pending == 0) return true;
    if constexpr (!Isa::has_shuffle) {
      if (t.bmp != nullptr) {
        pending &= ~Base::template by_table<Words, Width>(t.bmp, q, pending, f);
        if (pending == 0) return true;
      }
    }
    if constexpr (busy != Busy::never) return false;
    // Into a copy: f itself never has its address taken, so the loop keeps
    // it in registers.
    Found rest{0, 0, 0, 0};
    classify<Words, Width, Slots>(classes, t, cache, q, cur, pending, rest);
    f.add(rest);
    return true;
  }

  /// Without byte shuffles, the table of planes 0 and 1 for Tables::bmp,
  /// built when it is first wanted: the census by cell came first, so the
  /// input is past the size that pays for it (UnitClasses::census_threshold,
  /// bmp_table_threshold).
  static const std::uint8_t *bmp_table(const UnitClasses &classes) noexcept {
    const std::uint8_t *bmp = classes.bmp_table();
    if (bmp == nullptr && classes.build_bmp_table()) bmp = classes.bmp_table();
    return bmp;
  }

  /// Where run stopped, and whether at a busy block (which it left).
  struct RunEnd {
    std::size_t pos;
    bool busy;
    /// run_loop without Emoji: stopped at a block with emoji to classify.
    bool emoji;
  };

  /// From a block at a unit boundary that passed the validator: while the
  /// block after it passes too (valid_utf8_at), every character that
  /// starts in it is valid, those its end cuts included, so it is counted
  /// whole at its lead. Stops before a block whose successor fails or that
  /// would pass the chunk's lookahead, at a block of plain ASCII, or at a
  /// busy block (Busy: `busy` says which); returns where, which may be
  /// inside a character counted already (its bytes there change nothing).
  /// Slots: whether CellSlots' rows and slots classify first, and the
  /// looks fill them (StridePolicy::cell_slots).
  template <bool Rule95, bool Words, bool Width, Busy busy, bool Slots>
  static RunEnd run(const UnitClasses &classes, const typename Validation::Validator &check,
                    const Tables &t, CellCache &cache, const std::uint8_t *p, std::size_t pos,
                    std::size_t n, UnitAccumulator &result) noexcept {
    RunEnd e = run_span<Rule95, Words, Width, busy, Slots, false>(classes, check, t, cache, p, pos,
                                                                  n, result);
    if constexpr (Isa::has_permute64) {
      if (e.emoji)
        e = run_span<Rule95, Words, Width, busy, Slots, true>(classes, check, t, cache, p, e.pos, n,
                                                              result);
    }
    return e;
  }

  /// run_loop for the slots' span.
  template <bool Rule95, bool Words, bool Width, Busy busy, bool Slots, bool Emoji>
  static RunEnd run_span(const UnitClasses &classes, const typename Validation::Validator &check,
                         const Tables &t, CellCache &cache, const std::uint8_t *p, std::size_t pos,
                         std::size_t n, UnitAccumulator &result) noexcept {
    if constexpr (Isa::has_permute64) {
      if (cache.slots.span == 1)
        return run_loop<Rule95, Words, Width, busy, Slots, 1, Emoji>(classes, check, t, cache, p,
                                                                     pos, n, result);
      if (cache.slots.span == 2)
        return run_loop<Rule95, Words, Width, busy, Slots, 2, Emoji>(classes, check, t, cache, p,
                                                                     pos, n, result);
    }
    return run_loop<Rule95, Words, Width, busy, Slots, 4, Emoji>(classes, check, t, cache, p, pos,
                                                                 n, result);
  }

  /// run, with the three-byte slots looked up in their first Span vectors
  /// (ThreeByteClassifier's classify); a run with fewer than four stops
  /// after the block whose new cells widened the slots' span. A loop for
  /// each span: two lookups in one loop cost it its registers (Greek's
  /// and Chinese's -mw under 9.5 0.73x, though Greek has no three-byte
  /// character). With VBMI, a loop without Emoji stops at a block with
  /// four-byte characters to look up, and run goes on from there in the
  /// loop with Emoji, which classifies emoji inline (ThreeByteClassifier::emoji).
  template <bool Rule95, bool Words, bool Width, Busy busy, bool Slots, unsigned Span, bool Emoji>
  [[gnu::noinline]] static RunEnd run_loop(const UnitClasses &classes,
                                           const typename Validation::Validator &check,
                                           const Tables &t, CellCache &cache, const std::uint8_t *p,
                                           std::size_t pos, std::size_t n,
                                           UnitAccumulator &result) noexcept {
    static_assert(!Slots || uses_cell_slots);
    const typename Validation::Validator validator = check;  // in registers
    const Tables lookup = t;
    const typename Classes::Constants k = Classes::constants();
    UnitAccumulator acc = result;
    const std::size_t start = pos;
    std::uint64_t lines = 0;
    std::uint64_t conts = 0;
    bool stopped_busy = false;
    bool stopped_emoji = false;
    bool narrow_seen = cache.narrow_seen;  // in a register
    Block cur = load(p + pos);
    while (pos + 128 + 5 <= n) {
      const Block next = load(p + pos + 64);
      if (!Validation::valid_utf8_at(validator, next, cur.v[Base::lanes - 1], p + pos + 64)) break;
      const std::uint64_t high = sign_bits(cur);
      const std::uint64_t cont = Base::continuation_bits(cur, high);
      const std::uint64_t leads = high & ~cont;
      Found f{0, 0, 0, 0};
      std::uint64_t unsettled = 0;
      std::uint64_t settled_wide = 0;
      bool widened = false;
      if (leads != 0) {
        const LeadSets sets = lead_sets(lookup, cur);
        unsettled = leads & sets.unsettled;
        std::uint64_t pending = unsettled;
        if constexpr (Width) settled_wide = leads & sets.marked;
        if constexpr (Isa::has_permute64) {
          if (pending != 0) {
            // Two-byte leads (bit 5 clear) and three-byte ones (bit 4) by
            // sign bits: compares would take the port the maps need.
            const std::uint64_t two =
                pending & ~Isa::sign_bits(Isa::template shift_left_words<2>(cur.v[0]));
            if (two != 0) {
              f.add(TwoByte::template classify<Words, Width>(lookup.cells->two_byte, cur,
                                                             load(p + pos + 1), two));
              pending &= ~two;
            }
            const std::uint64_t three =
                pending & ~Isa::sign_bits(Isa::template shift_left_words<3>(cur.v[0]));
            if (three != 0) {
              // -L in the emoji loop: the maps' lookups whether or not a
              // character needs them (EveryLookup: the joiners and
              // variation selectors of emoji sequences, in cells the
              // census does not settle, come and go from block to block;
              // -L on new emoji text 1.1x).
              constexpr bool every_lookup = Emoji && Width;
              std::uint64_t hot = 0;
              f.add(ThreeByte::template classify<Words, Width, Span, every_lookup>(
                  cache.slots, cur, load(p + pos + 1), load(p + pos + 2), three, hot, narrow_seen));
              pending &= ~hot;
            }
            const std::uint64_t four = pending & ~three;
            if constexpr (!Emoji) {
              if (four != 0) {
                stopped_emoji = true;
                break;
              }
            } else if (four != 0) {
              const typename ThreeByte::EmojiFound e = ThreeByte::template emoji<Words, Width>(
                  cache.slots, p + pos, cur, four, narrow_seen);
              f.add(e.found);
              pending &= ~e.hot;
            }
          }
        }
        if constexpr (Slots) {
          if (pending != 0)
            pending &= ~Base::template in_slots<Words, Width>(cache, p + pos, cur, pending, f);
        }
        if constexpr (!Isa::has_shuffle) {
          if (pending != 0 && lookup.bmp != nullptr && popcount(pending) <= by_table_max)
            pending &= ~Base::template by_table<Words, Width>(lookup.bmp, p + pos, pending, f);
        }
        if (pending != 0) {
          if (!classify_leads<Words, Width, busy, Slots>(classes, lookup, cache, p + pos, cur,
                                                         pending, f)) {
            stopped_busy = true;
            break;
          }
          if constexpr (Span < 4) widened = cache.slots.span != Span;
        }
      }
      if constexpr (Words) {
        const std::uint64_t space = Classes::space_bits(cur, k);
        // 9.5: every character but white space is part of a word; 9.1: only
        // printable ones (wc.c), so ASCII controls are transparent.
        const std::uint64_t ascii_con = Rule95 ? ~(space | high) : Classes::graph_bits(cur, k);
        Acc::words(acc, space | f.sep, ascii_con | (leads & ~(f.sep | f.trans)));
      }
      if constexpr (Width) {
        // Settled leads are one column wide unless marked two.
        const std::uint64_t narrow =
            Classes::print_bits(cur, k) | (leads & ~(unsettled | settled_wide)) | f.narrow;
        Acc::widths(acc, narrow, settled_wide | f.wide, Classes::tab_bits(cur, k),
                    Classes::break_bits(cur, k), 64);
      }
      lines += popcount(Classes::newline_bits(cur, k));
      conts += popcount(cont);
      pos += 64;
      if (sign_bits(next) == 0 || widened) break;
      cur = next;
    }
    cache.narrow_seen = narrow_seen;
    acc.summary.lines += lines;
    acc.summary.chars += (pos - start) - conts;
    result = acc;
    return {pos, stopped_busy, stopped_emoji};
  }
};

}  // namespace fastwc::count::kernels
