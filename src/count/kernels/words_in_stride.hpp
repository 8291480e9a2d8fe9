// SPDX-License-Identifier: GPL-3.0-or-later
// Words in stride from UnitClasses' census of word classes by cell
// (word_cells.hpp). Each character's class goes to its lead byte and its
// continuation bytes stay transparent, which changes the word state exactly
// as the character does (summary_ops.hpp's words()), so no class crosses
// from one block to the next and blocks go 64 bytes a step, whatever
// characters cross between them. Two loops:
//  - run: words and -m's characters under both rules, from a block at a
//    unit boundary that passed the validator, while the next one passes
//    too (kernel_driver.hpp's UTF-8 loop hands it the block);
//  - lead_run: GNU 9.1's words without -m over any bytes, judging each lead
//    alone (Plan::utf8_lead_words; its comment says why that is exact).
//
// Most lead bytes start constituents alone (Cyrillic, Arabic, the CJK
// ideographs, Hangul's EB and EC), and their characters need no lookup.
// The others are looked at a lead at a time: a two-byte lead's characters
// by their second byte (its one cell's two masks); a three-byte lead's by
// whether the cell of their second byte holds constituents alone (plane 1's
// emoji by their third), and the rest a cell at a time (the cell's masks,
// cached, looked up by the last byte); past max_rounds, one by one
// (classify_multibyte).
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/classify_by_cell.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/utf8_validation.hpp"
#include "count/summary_ops.hpp"
// Only UnitClasses::word_cell and classify_multibyte, out of line, are
// called here.
#include "count/unit_classes.hpp"
#include "count/word_cells.hpp"

namespace fastwc::count::kernels {

template <class A>
struct WordsInStride : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::load;
  using Base::popcount;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Validation = Utf8Validation<A>;
  using Classes = CByteClasses<A>;
  using Acc = Accumulate<A>;

  /// Lookups a block before the rest of its characters go one by one
  /// (a lead, or a cell, a round).
  static constexpr unsigned max_rounds = 12;
  /// Lead-level looks in the loop itself, before classify is called.
  static constexpr unsigned inline_rounds = 2;
  /// Cells a three-byte lead's look there takes too.
  static constexpr unsigned inline_cells = 3;

  struct Tables {
    /// Two sets of lead bytes by nibble, the AND of a byte's two lookups:
    /// bits 0-3 (bit h - 0xC for lead (h << 4) | l) the leads that need a
    /// look, bits 4-7 those whose second byte may make them no standard
    /// sequence (start_lead).
    B lead_low;
    B lead_high;
    const WordCellCensus *census;
  };

  /// C0, C1 (overlong), E0 (overlong below A0), ED (surrogates from A0),
  /// F0 (overlong below 90), F4 (above U+10FFFF from 90), F5..FF.
  static constexpr bool start_lead(unsigned lead) noexcept {
    return lead <= 0xC1 || lead == 0xE0 || lead == 0xED || lead == 0xF0 || lead >= 0xF4;
  }

  static Tables tables(const WordCellCensus &census) noexcept {
    std::uint8_t low[16] = {};
    for (unsigned lead = 0xC0; lead <= 0xFF; ++lead) {
      const unsigned row = (lead >> 4) - 0xC;
      unsigned set = 0;
      if (((census.constituent_leads >> (lead - 0xC0)) & 1) == 0) set |= 1u << row;
      if (start_lead(lead)) set |= 0x10u << row;
      low[lead & 0x0F] = static_cast<std::uint8_t>(low[lead & 0x0F] | set);
    }
    return {Base::table(low[0], low[1], low[2], low[3], low[4], low[5], low[6], low[7], low[8],
                        low[9], low[10], low[11], low[12], low[13], low[14], low[15]),
            Base::table(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x22, 0x44, 0x88), &census};
  }

  /// The cells a kernel call has used lately, direct-mapped.
  struct CellCache {
    static constexpr unsigned size = 64;
    std::uint32_t key[size];
    WordCell cell[size];
  };

  static void clear(CellCache &cache) noexcept {
    for (std::uint32_t &k : cache.key) k = ~std::uint32_t{0};
  }

  static WordCell cached(const UnitClasses &classes, CellCache &cache,
                         std::uint32_t index) noexcept {
    // Fibonacci hashing: the cells of one block of code points (emoji's
    // F0 9F 80..BF) and a lead's cells spread over the slots.
    const unsigned slot = (index * 0x9E3779B1u) >> 26;
    if (cache.key[slot] != index) {
      cache.cell[slot] = classes.word_cell(index);
      cache.key[slot] = index;
    }
    return cache.cell[slot];
  }

  /// Bit i: the character of cell `w` whose last byte is last[i] separates
  /// (sep) or is transparent (trans), for the leads in `at`.
  static void apply_cell(const WordCell &w, const Block &last, std::uint64_t at, std::uint64_t &sep,
                         std::uint64_t &trans) noexcept {
    if (w.separators != 0) sep |= at & CellClassifier<A>::exception_bits(last, w.separators);
    if (w.transparent != 0) trans |= at & CellClassifier<A>::exception_bits(last, w.transparent);
  }

  /// Those of the characters at the bits of `same` (three or four bytes
  /// long, all led by `lead`) whose cell the census knows to hold
  /// constituents alone: a three-byte lead's by their second byte, plane
  /// 1's (F0 9F: emoji) by their third.
  static std::uint64_t settled(const WordCellCensus &census, std::uint8_t lead, std::uint64_t same,
                               const Block &second, const std::uint8_t *q) noexcept {
    if (lead < 0xF0)
      return same &
             CellClassifier<A>::exception_bits(second, census.constituent_cells[lead & 0x0F]);
    if (lead != 0xF0) return 0;
    const std::uint64_t plane1 = same & bits(second, [](B v) { return v == B(0x9F); });
    if (plane1 == 0) return 0;
    return plane1 & CellClassifier<A>::exception_bits(load(q + 2), census.plane1_constituent_cells);
  }

  /// Adds to sep_out and trans_out the separators and transparent
  /// characters among the characters that start at the bits of `pending`
  /// (leads the census does not settle), as bits at their leads. Out of
  /// line: classify_leads' looks in the loop leave it only blocks that mix
  /// more leads or cells than those, and the loop keeps its registers.
  [[gnu::noinline]] static void classify(const UnitClasses &classes, const Tables &t,
                                         CellCache &cache, const std::uint8_t *q, const Block &cur,
                                         std::uint64_t pending, std::uint64_t &sep_out,
                                         std::uint64_t &trans_out) noexcept {
    const WordCellCensus &census = *t.census;
    const Block second = load(q + 1);
    Block third{};
    Block fourth{};
    bool loaded3 = false;
    bool loaded4 = false;
    std::uint64_t sep = 0;
    std::uint64_t trans = 0;
    unsigned rounds = 0;
    while (pending != 0 && rounds < max_rounds) {
      ++rounds;
      const std::uint8_t lead = q[__builtin_ctzll(pending)];
      std::uint64_t same = pending & bits(cur, [lead](B v) { return v == B(lead); });
      if (lead < 0xE0) {
        apply_cell(census.two_byte[lead & 0x1F], second, same, sep, trans);
        pending &= ~same;
        continue;
      }
      const std::uint64_t done = settled(census, lead, same, second, q);
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
        } else {
          const std::uint8_t u = q[i + 2];
          in_cell &= bits(third, [u](B v) { return v == B(u); });
          index = ((lead & 0x07u) << 12) | ((s & 0x3Fu) << 6) | (u & 0x3Fu);
          if (!loaded4) {
            fourth = load(q + 3);
            loaded4 = true;
          }
          last = &fourth;
        }
        apply_cell(cached(classes, cache, index), *last, in_cell, sep, trans);
        same &= ~in_cell;
        pending &= ~in_cell;
        ++rounds;
      }
    }
    if (pending != 0) {
      CharMasks m{0, 0, 0, 0};
      classify_multibyte(classes, q, pending, m);
      sep |= m.sep;
      trans |= pending & ~(m.sep | m.con);
    }
    sep_out |= sep;
    trans_out |= trans;
  }

  /// The bytes of the block in Tables' two sets: the leads the census
  /// does not settle, and start_lead's.
  struct LeadSets {
    std::uint64_t unsettled;
    std::uint64_t starts;
  };

  static LeadSets lead_sets(const Tables &t, const Block &b) noexcept {
    LeadSets out{0, 0};
    for (std::size_t i = 0; i < Base::lanes; ++i) {
      const B v = b.v[i];
      const B set = Isa::lookup(t.lead_low, v & B(0x0F)) &
                    Isa::lookup(t.lead_high, Isa::template shift_right<4>(v));
      const unsigned shift = static_cast<unsigned>(i * Base::width);
      out.unsettled |= Isa::bits((set & B(0x0F)) != B(0)) << shift;
      out.starts |= Isa::bits((set & B(0xF0)) != B(0)) << shift;
    }
    return out;
  }

  /// Adds to sep and trans the separators and transparent characters that
  /// start at the bits of `pending` in the block cur at q (complete valid
  /// sequences whose leads the census does not settle; q[64..66]
  /// readable), as bits at their leads.
  [[gnu::always_inline]] static void classify_leads(const UnitClasses &classes, const Tables &t,
                                                    CellCache &cache, const std::uint8_t *q,
                                                    const Block &cur, std::uint64_t pending,
                                                    std::uint64_t &sep,
                                                    std::uint64_t &trans) noexcept {
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
        apply_cell(t.census->two_byte[lead & 0x1F], second, same, sep, trans);
        pending &= ~same;
      } else if (lead < 0xF0) {
        const std::uint64_t rest = same & ~CellClassifier<A>::exception_bits(
                                              second, t.census->constituent_cells[lead & 0x0F]);
        pending &= ~same | rest;
        // The first cells in use too (English's quotes and dashes share
        // E2 80 with white space; kana share E3 81 and E3 82 with
        // unassigned code points).
        std::uint64_t rest_cells = rest;
        for (unsigned c = 0; c < inline_cells && rest_cells != 0; ++c) {
          const std::uint8_t s = q[__builtin_ctzll(rest_cells) + 1];
          const std::uint64_t in_cell = rest_cells & bits(second, [s](B v) { return v == B(s); });
          apply_cell(cached(classes, cache, ((lead & 0x0Fu) << 6) | (s & 0x3Fu)), load(q + 2),
                     in_cell, sep, trans);
          pending &= ~in_cell;
          rest_cells &= ~in_cell;
        }
      } else {
        pending &= ~settled(*t.census, lead, same, second, q);
      }
    }
    if (pending != 0) classify(classes, t, cache, q, cur, pending, sep, trans);
  }

  /// From a block at a unit boundary that passed the validator: while the
  /// block after it passes too (valid_utf8_after), every character that
  /// starts in it is valid, those its end cuts included, so it is counted
  /// whole at its lead. Stops before a block whose successor fails or that
  /// would pass the chunk's lookahead, or at a block of plain ASCII
  /// (ascii_run's); returns where, which may be inside a character counted
  /// already (its continuation bytes change nothing).
  template <bool Rule95>
  [[gnu::noinline]] static std::size_t run(const UnitClasses &classes,
                                           const typename Validation::Validator &check,
                                           const Tables &t, CellCache &cache, const std::uint8_t *p,
                                           std::size_t pos, std::size_t n,
                                           UnitAccumulator &result) noexcept {
    const typename Validation::Validator validator = check;  // in registers
    const Tables lookup = t;
    UnitAccumulator acc = result;
    const std::size_t start = pos;
    std::uint64_t lines = 0;
    std::uint64_t conts = 0;
    Block cur = load(p + pos);
    while (pos + 128 + 5 <= n) {
      const Block next = load(p + pos + 64);
      if (!Validation::valid_utf8_after(validator, next, cur.v[Base::lanes - 1])) break;
      const std::uint64_t high = sign_bits(cur);
      const std::uint64_t cont = bits(cur, [](B v) { return Isa::continuation(v); });
      const std::uint64_t leads = high & ~cont;
      const std::uint64_t space = Classes::space_bits(cur);
      // 9.5: every character but white space is part of a word; 9.1: only
      // printable ones (wc.c), so ASCII controls are transparent.
      const std::uint64_t ascii_con = Rule95 ? ~(space | high) : Classes::graph_bits(cur);
      std::uint64_t sep = 0;
      std::uint64_t trans = 0;
      if (leads != 0) {
        const std::uint64_t pending = leads & lead_sets(lookup, cur).unsettled;
        if (pending != 0) classify_leads(classes, lookup, cache, p + pos, cur, pending, sep, trans);
      }
      Acc::words(acc, space | sep, ascii_con | (leads & ~(sep | trans)));
      lines += popcount(Classes::newline_bits(cur));
      conts += popcount(cont);
      pos += 64;
      if (sign_bits(next) == 0) break;
      cur = next;
    }
    acc.summary.lines += lines;
    acc.summary.chars += (pos - start) - conts;
    result = acc;
    return pos;
  }

  /// Plan::utf8_lead_words (GNU 9.1's words without -m or -L) over any
  /// bytes, in stride from the body's start until fewer than
  /// simd_block_with_lookahead bytes remain; returns where it stopped. Under
  /// 9.1 every byte that is not part of a standard sequence is transparent
  /// whichever way glibc's decoder takes it (an error skipped a byte at a
  /// time, or one of its longer forms or values above U+10FFFF, which are
  /// not printable), as are the continuation bytes of a character whose
  /// lead carries its class, so nothing needs validating but each lead:
  /// followed by as many continuation bytes as it announces, and not one of
  /// start_errors' pairs. No decoder takes a lead byte into another unit,
  /// so each lead is judged alone. The stop may be inside a character or
  /// among stray continuation bytes, all of them transparent.
  [[gnu::noinline]] static std::size_t lead_run(const UnitClasses &classes,
                                                const typename Validation::Validator &check,
                                                const Tables &t, CellCache &cache,
                                                const std::uint8_t *p, std::size_t n,
                                                UnitAccumulator &result) noexcept {
    const typename Validation::Validator validator = check;  // in registers
    const Tables lookup = t;
    UnitAccumulator acc = result;
    std::uint64_t lines = 0;
    std::size_t pos = 0;
    for (; pos + simd_block_with_lookahead <= n; pos += 64) {
      const std::uint8_t *q = p + pos;
      const Block cur = load(q);
      const std::uint64_t space = Classes::space_bits(cur);
      std::uint64_t con = Classes::graph_bits(cur);  // ASCII controls are transparent
      std::uint64_t sep = 0;
      std::uint64_t trans = 0;
      lines += popcount(Classes::newline_bits(cur));
      const std::uint64_t high = sign_bits(cur);
      if (high != 0) {
        const std::uint64_t cont = bits(cur, [](B v) { return Isa::continuation(v); });
        std::uint64_t good = high & ~cont;
        if (good != 0) {
          // Bit i of cN: byte i + N is a continuation byte (q[64..66] too).
          const std::uint64_t after = ((q[64] & 0xC0) == 0x80 ? 1u : 0u) |
                                      ((q[65] & 0xC0) == 0x80 ? 2u : 0u) |
                                      ((q[66] & 0xC0) == 0x80 ? 4u : 0u);
          const std::uint64_t c1 = (cont >> 1) | (after << 63);
          const std::uint64_t c2 = (cont >> 2) | (after << 62);
          const std::uint64_t c3 = (cont >> 3) | (after << 61);
          const std::uint64_t three = bits(cur, [](B v) { return Isa::le(B(0xE0), v); });
          const std::uint64_t four = bits(cur, [](B v) { return Isa::le(B(0xF0), v); });
          good &= c1 & (~three | c2) & (~four | c3);
          const LeadSets sets = lead_sets(lookup, cur);
          if ((good & sets.starts) != 0)
            good &= ~Validation::start_errors(validator, cur, load(q + 1));
          const std::uint64_t pending = good & sets.unsettled;
          if (pending != 0) classify_leads(classes, lookup, cache, q, cur, pending, sep, trans);
          con |= good & ~(sep | trans);
        }
      }
      Acc::words(acc, space | sep, con);
    }
    acc.summary.lines += lines;
    result = acc;
    return pos;
  }
};

}  // namespace fastwc::count::kernels
