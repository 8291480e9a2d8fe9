// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD kernels' driver, written once over the xsimd architecture A and
// included only by kernel_<isa>.cpp, each compiled with that ISA's flags
// after specializing IsaOps<A> (isa_primitives.hpp). It composes the stages
// of the other headers of this folder into the plans of kernel.hpp.
//
// UTF-8 plans keep one invariant: `pos` is a unit boundary (a decoder
// starting fresh there sees what a decoder reading from the chunk start
// sees). A block of 64 bytes at pos is
//  - plain ASCII: 64 one-byte units, classified with masks (ascii_run);
//  - valid UTF-8 by the standard (RFC 3629) rules (utf8_validation.hpp):
//    its units are exactly glibc's, since glibc accepts every standard
//    sequence; -m then counts on in stride (chars_in_stride.hpp);
//  - anything else (errors, glibc's 5- and 6-byte forms, values above
//    U+10FFFF): Utf8Units::exact_units finds the decoder's units (glibc's,
//    or RFC 3629's for GNU 9.11+) with masks, because they are local.
// A character cut by the block's end is left for the next block, which
// starts at its lead byte. Multibyte characters get their word class and
// width from their lead byte when all characters with that lead agree
// (classify_by_lead.hpp), else, for words alone, from their lead's
// separator pattern (classify_by_separators.hpp), else from their
// 64-code-point cell
// (classify_by_cell.hpp), else, once enough characters have gone those
// slower ways and the table of planes 0 and 1 exists, from that table with
// gathers (classify_by_table.hpp), else one by one (classify_multibyte,
// which reads the same table where a kernel has no gathers: SSSE3). SSE2 has no byte
// shuffle: it validates with compares, for -m and for words and widths in stride by cell;
// its other blocks with non-ASCII bytes take exact_units and classify_multibyte alone, or,
// for words and widths in blocks with few ASCII bytes, the scalar kernel's path.
// The last bytes of a chunk and a trailing incomplete sequence go through
// utf8_span, the scalar path. GNU 9.5+'s words without -m or -L need none
// of this once UnitClasses has the census of separators: every byte takes
// its character's class by pattern (separator_bytes.hpp), in stride
// (separator_words_plan, separators_in_stride.hpp), and with -m in stride
// over valid blocks (separator_chars_in_stride.hpp). Words and widths need
// none of it either in blocks that pass the validator once UnitClasses has
// the census by cell: each character's class and width go to its lead
// byte (cells_in_stride.hpp), in stride over valid blocks (utf8_plan, both
// rules), and for GNU 9.1's words without -m over any bytes too
// (leads_alone.hpp, lead_words_plan). count_body is [[gnu::flatten]] so
// that no xsimd helper is left out of line (tests/kernels/check_symbols.py
// checks the objects).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"
#include "count/kernels/cells_in_stride.hpp"
#include "count/kernels/chars_in_stride.hpp"
#include "count/kernels/classify_by_cell.hpp"
#include "count/kernels/classify_by_hot_cells.hpp"
#include "count/kernels/classify_by_lead.hpp"
#include "count/kernels/classify_by_separators.hpp"
#include "count/kernels/classify_by_table.hpp"
#include "count/kernels/isa_primitives.hpp"
#include "count/kernels/kernel.hpp"
#include "count/kernels/leads_alone.hpp"
#include "count/kernels/newlines.hpp"
#include "count/kernels/separator_bytes.hpp"
#include "count/kernels/separator_chars_in_stride.hpp"
#include "count/kernels/separators_in_stride.hpp"
#include "count/kernels/stride_policy.hpp"
#include "count/kernels/utf8_units.hpp"
#include "count/kernels/utf8_validation.hpp"
// Only UnitClasses' out-of-line members are called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct SimdKernel : Blocks<A> {
  static_assert(IsaPrimitives<IsaOps<A>>, "IsaOps<A> lacks a primitive it claims");
  using Base = Blocks<A>;
  using Base::bits;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using Acc = Accumulate<A>;
  using Classes = CByteClasses<A>;
  using Validation = Utf8Validation<A>;
  using UnitFinder = Utf8Units<A>;
  using Units = typename UnitFinder::Units;
  using Lead = LeadClassifier<A>;
  using LeadTables = typename Lead::LeadTables;
  using Cells = CellClassifier<A>;
  using CellCache = typename Cells::CellCache;
  using HotCells = HotCellClassifier<A>;
  using Table = TableClassifier<A>;
  using Separators = SeparatorClassifier<A>;
  using SeparatorPatterns = SeparatorBytes<A>;
  using Stride = CellsInStride<A>;

  template <bool Rule95, bool Words, bool Width>
  static BodyResult bytes_plan(const Request &r, const std::uint8_t *p, std::size_t n) noexcept {
    UnitAccumulator acc{};  // a local: out.acc would live in memory
    const bool a0_sep = r.a0_separates;
    const typename Classes::Constants k = Classes::constants();
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64)
      Classes::template c_block<Rule95, Words, Width>(acc, load(p + i), 64, a0_sep, k);
    if (i < n)
      Classes::template c_block<Rule95, Words, Width>(acc, load_partial(p + i, n - i), n - i,
                                                      a0_sep, k);
    return {acc, 0};
  }

  /// Counts one block's units (bits below u.end).
  template <bool Rule95, bool Words, bool Width>
  static void utf8_block(const Request &r, UnitAccumulator &acc, const Block &b, const Units &u,
                         const std::uint8_t *q, LeadTables &tables, CellCache &cache,
                         const typename Classes::Constants &k) noexcept {
    const std::uint64_t live = live_mask(u.end);
    acc.summary.lines += popcount(Classes::newline_bits(b, k) & live);
    acc.summary.chars += popcount((u.ascii | u.lead) & live);
    if constexpr (Words || Width) {
      CharMasks m{0, 0, 0, 0};
      if constexpr (Words) {
        m.sep = Classes::space_bits(b, k) & u.ascii;
        // 9.5: encoding errors and every non-space character are part of a
        // word; 9.1: only printable ones, errors are transparent.
        m.con = Rule95 ? (~m.sep & u.ascii) | u.invalid : Classes::graph_bits(b, k) & u.ascii;
      }
      if constexpr (Width) m.w1 = Classes::print_bits(b, k) & u.ascii;
      const std::uint64_t leads = u.lead & live;
      if (leads != 0) {
        std::uint64_t slow = leads;
        if constexpr (Isa::has_shuffle) {
          slow &= ~Lead::template classify<Words, Width>(tables, b, leads, m);
          // Words alone: a lead with a separator pattern needs no lookup.
          // But when the table's gathers must run for the block's other
          // characters anyway, they take these too at no extra cost
          // (measured: emoji-dense text 1.44 GB/s with the gathers alone,
          // 1.19 with the patterns first).
          if constexpr (Words && !Width) {
            if (slow != 0 && tables.separator_count != 0)
              slow = Separators::classify(tables, b, q, slow, m,
                                          Isa::has_gather && tables.bmp != nullptr);
          }
          // Text in one script keeps to a few cells a block, which the hot
          // cells and the cell cache answer at once; text that mixes more
          // cells than that goes to the table, whose gathers cost the same
          // for any mix (then the hot cells would only add their cost).
          unsigned cells = 64;  // no budget: a block has at most 64 characters
          bool probe = true;
          if (tables.bmp != nullptr) {
            probe = !cache.table_first || (++cache.since_probe & 63) == 0;
            cells = probe ? Cells::table_after_cells : 0;
          }
          if constexpr (Isa::has_permute64) {
            if (slow != 0 && probe && cache.hot.used != 0)
              slow = HotCells::template classify<Words, Width>(b, q, slow, m, cache.hot);
          }
          if (slow != 0 && cells != 0) {
            bool table_needed = false;
            slow = Cells::classify(r, b, q, slow, m, tables, cache, cells, table_needed);
            if (cells == Cells::table_after_cells) {
              cache.probes =
                  static_cast<std::uint8_t>((cache.probes << 1) | (table_needed ? 1 : 0));
              cache.table_first = popcount(cache.probes) >= 4;
            }
          }
        }
        if constexpr (Isa::has_gather) {
          if (slow != 0 && tables.bmp != nullptr)
            slow = Table::template classify<Words, Width>(tables.bmp, b, q, slow, m);
        }
        if (slow != 0 && classify_multibyte(*r.classes, q, slow, m)) {
          if constexpr (Isa::has_shuffle) tables = Lead::lead_tables(r.classes->lead_planes());
        }
      }
      if constexpr (Words) Acc::words(acc, m.sep & live, m.con & live);
      if constexpr (Width)
        Acc::widths(acc, m.w1, m.w2, Classes::tab_bits(b, k), Classes::break_bits(b, k),
                    static_cast<unsigned>(u.end));
    }
  }

  /// Counts the ASCII blocks from pos (which is one) until a block that is
  /// not ASCII or that would pass `limit`; returns where it stopped. Out of
  /// line so that its state stays in registers, away from the rest of the
  /// UTF-8 loop's calls.
  template <bool Rule95, bool Words, bool Width>
  [[gnu::noinline]] static std::size_t ascii_run(const std::uint8_t *p, std::size_t pos,
                                                 std::size_t limit,
                                                 const typename Classes::Constants &k,
                                                 UnitAccumulator &result) noexcept {
    UnitAccumulator acc = result;
    std::uint64_t chars = 0;
    do {
      // One-byte units with the C locale's classes.
      Classes::template c_block<Rule95, Words, Width>(acc, load(p + pos), 64, false, k);
      chars += 64;
      pos += 64;
    } while (pos + 64 <= limit && sign_bits(load(p + pos)) == 0);
    acc.summary.chars += chars;
    result = acc;
    return pos;
  }

  using Policy = StridePolicy<A>;

  template <bool Rule95, bool Words, bool Width>
  static BodyResult utf8_plan(const Request &request, const std::uint8_t *p,
                              std::size_t n) noexcept {
    // A local accumulator, not out.acc, which the compiler would keep in
    // memory (a store and a reload per update) across the calls below.
    UnitAccumulator acc{};
    const typename Classes::Constants k = Classes::constants();
    typename Validation::Validator check{};
    check = Validation::validator();
    LeadTables tables{};
    CellCache cache;
    if constexpr (Isa::has_shuffle && (Words || Width)) {
      tables = Lead::lead_tables(request.classes->lead_planes());
      Cells::clear(cache);
    }
    // Words and widths go in stride over valid text once the census by
    // cell exists (cells_in_stride.hpp); not in the fallbacks of the
    // plans that count words another way. The plans that count words
    // alone or -L alone, without characters, judge the leads of blocks
    // that fail the validator alone (leads_alone.hpp), with the same tables.
    const bool lead_plan = (request.plan == Plan::utf8_lead_words && !Policy::lead_run_first) ||
                           request.plan == Plan::utf8_lead_width;
    // GNU 9.5+'s words with -m: valid blocks in stride by the separators'
    // patterns once their census exists (separator_chars_in_stride.hpp).
    typename SeparatorPatterns::Patterns separators{};
    const SeparatorCensus *separator_census = nullptr;
    if constexpr (Policy::template separators_with_chars<Rule95, Words, Width>) {
      if (request.plan == Plan::utf8_words) separator_census = request.classes->separator_census(n);
      if (separator_census != nullptr) separators = SeparatorPatterns::patterns(*separator_census);
    }
    const bool by_separators = separator_census != nullptr;
    std::uint64_t looked_up = 0;  // four-byte characters the census lacks
    typename Stride::Tables stride{};
    typename Stride::SettledCells stride_settled;
    typename Stride::CellCache stride_cells;
    if constexpr (Policy::template in_stride<Rule95, Words, Width>) {
      const bool by_cell =
          !by_separators &&
          (lead_plan || (!Isa::has_shuffle && request.plan == Plan::utf8_lead_words) ||
           request.plan == Plan::utf8_words || request.plan == Plan::utf8_width ||
           request.plan == Plan::utf8_words_width);
      const CellCensus *census = by_cell ? request.classes->cell_census(n) : nullptr;
      if (census != nullptr) {
        stride = Stride::tables(*census, Words, Width, stride_settled);
        if constexpr (!Isa::has_shuffle) stride.bmp = Stride::bmp_table(*request.classes);
        Stride::clear(stride_cells);
      }
    }
    const bool rfc3629 = request.utf8_decoding == Utf8Decoding::rfc3629;
    const bool lead_blocks = lead_plan && stride.census != nullptr;
    // Whether blocks go through the validator: with byte shuffles always; without (SSE2),
    // for -m, whose valid blocks it counts in stride (measured: every script 0.9-1.0 ->
    // 4.0 GB/s), and for words and widths once the census lets their valid blocks go in
    // stride (else no classifier there would take them: below, the scalar kernel's way,
    // which also takes the blocks the stride left busy, up to `stride_from`).
    const bool validating =
        Isa::has_shuffle || (!Words && !Width) || stride.census != nullptr || by_separators;
    std::size_t pos = 0;
    std::size_t stride_from = 0;  // the stride's next try after a busy block
    unsigned short_runs = 0;      // StridePolicy::after_busy
    // Without byte shuffles the validator costs a quarter of exact_units'
    // time: after blocks that fail it, the next 1, 2, 4 .. 16 blocks go
    // to exact_units untried (measured, SSE2 -m: invalid-heavy and random
    // binary 0.81x with every block tried, 0.97-0.98x with the pause).
    std::size_t validate_from = 0;
    unsigned failures = 0;
    while (pos + simd_block_with_lookahead <= n) {
      const std::uint8_t *q = p + pos;
      const Block b = load(q);
      if (sign_bits(b) == 0) {
        pos = ascii_run<Rule95, Words, Width>(p, pos, n - 5, k, acc);
        continue;
      }
      // The next block's address depends on this block's bytes (a cut
      // character moves it back), which hides the addresses from the
      // hardware prefetcher's view of the loop: fetch ahead explicitly.
      __builtin_prefetch(q + 1024);
      Units u{};
      const bool tried =
          Isa::has_shuffle || (validating && pos >= validate_from && pos >= stride_from);
      if (tried && Validation::valid_utf8(check, b)) {
        if constexpr (!Isa::has_shuffle) failures = 0;
        std::size_t end = pos;
        if constexpr (!Words && !Width) end = CharsInStride<A>::run(check, p, pos, n, acc);
        if constexpr (Words || Width) {
          if (by_separators) {
            end = SeparatorCharsInStride<A>::run(request, check, separators,
                                                 separator_census->four_byte_clear, p, pos, n, acc,
                                                 looked_up);
          } else if (stride.census != nullptr && pos >= stride_from) {
            const typename Stride::RunEnd e =
                Stride::template run<Rule95, Words, Width, Policy::template busy<Rule95>,
                                     Policy::template cell_slots<Rule95, Width>>(
                    *request.classes, check, stride, stride_cells, p, pos, n, acc);
            end = e.pos;
            if (e.busy) stride_from = Policy::after_busy(pos, end, short_runs);
          }
        }
        if (end != pos) {
          // Continuation bytes that open the block there end a
          // character counted already (at most three: it was valid).
          pos = end;
          while ((p[pos] & 0xC0) == 0x80) ++pos;
          continue;
        }
        u = UnitFinder::valid_units(b, q);
      } else {
        if constexpr (Isa::has_shuffle && Words != Width && !Rule95) {
          // GNU 9.1's words without -m, or -L without -m or -w: blocks
          // that fail the validator are judged by their leads
          // (LeadsAlone::failed_run), and the continuation bytes after
          // them (their characters' ends, or stray ones: no width, and
          // transparent under 9.1, either way) are passed over to the
          // next unit boundary.
          if (lead_blocks) {
            // -L: this block and those after it that fail too, out of
            // line; words: this block alone, inline (measured: VBMI's
            // words gained nothing on binary by the run, and its layout
            // cost valid Cyrillic 0.87x).
            if constexpr (Width) {
              pos = LeadsAlone<A>::template failed_run<Words, Width>(
                  *request.classes, check, stride, stride_cells, p, pos, n, acc);
            } else {
              acc.summary.lines += LeadsAlone<A>::template lead_block<Words, Width>(
                  *request.classes, check, stride, stride_cells, q, k, acc);
              pos += 64;
            }
            while (pos < n && (p[pos] & 0xC0) == 0x80) ++pos;
            continue;
          }
        }
        if constexpr (!Isa::has_shuffle) {
          if (tried) validate_from = pos + (std::size_t{64} << std::min(failures++, 4u));
          // A block of multibyte characters with few ASCII bytes between
          // them is classified fastest by the scalar kernel's path, which
          // decodes and classifies each character in one pass
          // (bench_kernels -w/-L: Chinese, Japanese 0.25 -> 0.4-0.5 GB/s,
          // Korean, Greek, Cyrillic, emoji 0.25 -> 0.3-0.37); where ASCII
          // or invalid bytes are many (16 of 64 or more), their masks win
          // (typographic English, invalid-heavy, binary: unchanged).
          if constexpr (Words || Width) {
            if (popcount(~sign_bits(b)) < 16) {
              // Text in one script stays so for long: the blocks after
              // this one that have as few ASCII bytes join the same span,
              // one call for the run, unless the stride may take them.
              std::size_t end = pos + 64;
              while ((!validating || end < stride_from) && end + simd_block_with_lookahead <= n &&
                     popcount(~sign_bits(load(p + end))) < 16)
                end += 64;
              UnitAccumulator span = acc;  // a copy keeps acc out of memory
              pos = utf8_span(request, p, pos, end, n, span).pos;
              acc = span;
              continue;
            }
          }
        }
        u = UnitFinder::template exact_units<(Words || Width)>(b, q, rfc3629);
      }
      utf8_block<Rule95, Words, Width>(request, acc, b, u, q, tables, cache, k);
      pos += u.end;
    }
    if constexpr (Isa::has_shuffle && (Words || Width)) Cells::flush(request, cache);
    if (looked_up != 0 && !separator_census->four_byte_clear)
      request.classes->note_four_byte_lookups(looked_up);
    // The last bytes, and a trailing incomplete sequence: the scalar path.
    // (A copy: taking acc's address would keep it in memory all along.)
    UnitAccumulator last = acc;
    const SpanEnd e = utf8_span(request, p, pos, n, n, last);
    return {last, n - e.pos};
  }

  /// Plan::utf8_separator_words: GNU 9.5+'s words from byte patterns
  /// (separator_bytes.hpp) once UnitClasses has the census of separators,
  /// and until then as utf8_plan counts them. Bytes have their characters'
  /// classes whatever the unit boundaries, so blocks go in stride
  /// (separators_in_stride.hpp), with the bytes of a separator cut by a
  /// block's end carried to the next, and nothing is decoded but the
  /// characters the census does not cover (separators_beyond_census): bytes
  /// F4-FF, whose valid forms lie above U+10FFFF (glibc's decoder takes
  /// them, up to its 5- and 6-byte forms), and four-byte characters until
  /// the census has walked their planes, which it does once enough of them
  /// were decoded.
  static BodyResult separator_words_plan(const Request &request, const std::uint8_t *p,
                                         std::size_t n) noexcept {
    const SeparatorCensus *census = request.classes->separator_census(n);
    if (census == nullptr) {
      BodyResult out = utf8_plan<true, true, false>(request, p, n);
      out.acc.summary.chars = 0;
      return out;
    }
    const typename SeparatorPatterns::Patterns patterns = SeparatorPatterns::patterns(*census);
    UnitAccumulator acc{};
    std::uint64_t carry = 0;
    std::uint64_t looked_up = 0;
    std::size_t pos = SeparatorsInStride<A>::run(request, patterns, census->four_byte_clear, p, n,
                                                 acc, carry, looked_up);
    if (!census->four_byte_clear && looked_up != 0)
      request.classes->note_four_byte_lookups(looked_up);
    // The last bytes by the scalar path, from a unit boundary: past the
    // continuation bytes that open them, counted by their classes alone
    // (the end of a character begun before, a constituent unless `carry`
    // says it ends a separator, or bytes that do not decode, constituents).
    while (pos < n && (p[pos] & 0xC0) == 0x80) {
      std::size_t run = 0;
      while (run < 64 && pos + run < n && (p[pos + run] & 0xC0) == 0x80) ++run;
      const std::uint64_t live = live_mask(run);
      Acc::words(acc, carry & live, ~carry & live);
      carry = 0;
      pos += run;
    }
    UnitAccumulator last = acc;
    const SpanEnd e = utf8_span(request, p, pos, n, n, last);
    last.summary.chars = 0;
    return {last, n - e.pos};
  }

  /// Plan::utf8_lead_words: GNU 9.1's words by lead bytes (lead_run) once
  /// UnitClasses has the census by cell, and until then as utf8_plan
  /// counts them; the last bytes by the scalar path, past the continuation
  /// bytes that open them (transparent under 9.1).
  static BodyResult lead_words_plan(const Request &request, const std::uint8_t *p,
                                    std::size_t n) noexcept {
    const CellCensus *census = nullptr;
    if constexpr (Isa::has_shuffle && Policy::lead_run_first)
      census = request.classes->cell_census(n);
    if (census == nullptr) {
      BodyResult out = utf8_plan<false, true, false>(request, p, n);
      out.acc.summary.chars = 0;
      return out;
    }
    typename Stride::SettledCells settled;
    typename Stride::CellCache cells;
    Stride::clear(cells);
    UnitAccumulator acc{};
    std::size_t pos =
        LeadsAlone<A>::lead_run(*request.classes, Validation::validator(),
                                Stride::tables(*census, true, false, settled), cells, p, n, acc);
    while (pos < n && (p[pos] & 0xC0) == 0x80) ++pos;
    UnitAccumulator last = acc;
    const SpanEnd e = utf8_span(request, p, pos, n, n, last);
    last.summary.chars = 0;
    return {last, n - e.pos};
  }

  static BodyResult run(const Request &r, const std::uint8_t *p, std::size_t n) noexcept {
    switch (r.plan) {
      case Plan::newlines: {
        BodyResult out{};
        out.acc.summary.lines = Newlines<A>::count(p, n);
        return out;
      }
      case Plan::bytes_words:
        return r.rule95 ? bytes_plan<true, true, false>(r, p, n)
                        : bytes_plan<false, true, false>(r, p, n);
      case Plan::bytes_width:
        return bytes_plan<false, false, true>(r, p, n);
      case Plan::bytes_words_width:
        return r.rule95 ? bytes_plan<true, true, true>(r, p, n)
                        : bytes_plan<false, true, true>(r, p, n);
      case Plan::utf8_chars:
        return utf8_plan<false, false, false>(r, p, n);
      case Plan::utf8_words:
        return r.rule95 ? utf8_plan<true, true, false>(r, p, n)
                        : utf8_plan<false, true, false>(r, p, n);
      case Plan::utf8_width:
        return utf8_plan<false, false, true>(r, p, n);
      case Plan::utf8_words_width:
        return r.rule95 ? utf8_plan<true, true, true>(r, p, n)
                        : utf8_plan<false, true, true>(r, p, n);
      case Plan::utf8_separator_words:
        return separator_words_plan(r, p, n);
      case Plan::utf8_lead_words:
        return lead_words_plan(r, p, n);
      case Plan::utf8_lead_width: {
        BodyResult out = utf8_plan<false, false, true>(r, p, n);
        out.acc.summary.chars = 0;
        return out;
      }
    }
    return BodyResult{};
  }
};

template <class Arch>
[[gnu::flatten]] BodyResult count_body(const Request &request, const std::uint8_t *data,
                                       std::size_t size) noexcept {
  return SimdKernel<Arch>::run(request, data, size);
}

}  // namespace fastwc::count::kernels
