// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of characters whose lead byte does not settle them: by
// their 64-code-point cell (UnitClasses::cell: the properties its code
// points share, plus an exception bit map; with VBMI, the cell's 64
// properties, looked up by the last byte with one permute), all of a
// cell's characters in a block at once, with a small cache of the cells in
// use, and with VBMI the hot cells before it (classify_by_hot_cells.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/classify_by_hot_cells.hpp"
#include "count/kernels/classify_by_lead.hpp"
#include "count/kernels/kernel.hpp"
// Only UnitClasses' out-of-line members are called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CellClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;
  using LeadTables = typename LeadClassifier<A>::LeadTables;
  using Hot = HotCellClassifier<A>;

  /// Bit i: bit (last[i] & 63) of `exceptions` is set, for the bytes
  /// `last` that end the characters of one cell. Always inline, lanes
  /// included (not through Blocks::bits, which GCC left out of line here):
  /// the stride's loops call it at up to four places a look (measured: out
  /// of line, a quarter of the AVX2 kernel's time on Chinese; Blocks::bits
  /// always inlined everywhere instead slowed the VBMI kernel's separator
  /// patterns by a fifth).
  [[gnu::always_inline]] static std::uint64_t exception_bits(const Block &last,
                                                             std::uint64_t exceptions) noexcept {
    // Each 16-byte lane holds the 8 bytes of `exceptions` twice; indices
    // are below 8.
    using Q = xsimd::batch<std::uint64_t, A>;
    const B bytes = xsimd::bitwise_cast<B>(Q(exceptions));
    const B bit = xsimd::bitwise_cast<B>(Q(0x8040201008040201u));
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B x = last.v[i] & B(0x3F);
      const B set =
          Isa::lookup(bytes, Isa::template shift_right<3>(x)) & Isa::lookup(bit, x & B(7));
      m |= Isa::bits(set != B(0)) << (i * width);
    }
    return m;
  }

  /// `at & exception_bits(last, exceptions)` without byte shuffles
  /// (SSE2): a compare for each exception where a cell has few (kana's
  /// unassigned code points) or few that are not (-L's widths), else a
  /// character at a time from the bytes stored, a shift and a test each:
  /// exception_bits' lookups have no compare-only form that costs less
  /// than the few characters a cell has in a block.
  [[gnu::always_inline]] static std::uint64_t exceptions_at(const Block &last,
                                                            std::uint64_t exceptions,
                                                            std::uint64_t at) noexcept {
    static_assert(!Isa::has_shuffle, "with byte shuffles: exception_bits");
    if (at_most_three(exceptions)) return at & last_bytes_in(last, exceptions);
    if (at_most_three(~exceptions)) return at & ~last_bytes_in(last, ~exceptions);
    alignas(64) std::uint8_t bytes[64];
    for (std::size_t i = 0; i < lanes; ++i) last.v[i].store_aligned(bytes + i * width);
    std::uint64_t m = 0;
    for (; at != 0; at &= at - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(at));
      m |= ((exceptions >> (bytes[i] & 63)) & 1) << i;
    }
    return m;
  }

  static bool at_most_three(std::uint64_t x) noexcept {
    x &= x - 1;
    x &= x - 1;
    return (x & (x - 1)) == 0;
  }

  /// Bit i: last[i] is 0x80 + k for a bit k of `set`.
  static std::uint64_t last_bytes_in(const Block &last, std::uint64_t set) noexcept {
    std::uint64_t m = 0;
    for (; set != 0; set &= set - 1) {
      const B byte(static_cast<std::uint8_t>(0x80 + __builtin_ctzll(set)));
      m |= bits(last, [byte](B v) { return v == byte; });
    }
    return m;
  }

  /// The cells (UnitClasses::cell) a kernel call has used lately,
  /// direct-mapped, so that a cell in use costs no call. Only a miss counts its
  /// characters toward the lead's examination, which only delays that.
  struct CellCache {
    static constexpr unsigned size = 16;
    std::uint32_t index[size];
    std::uint32_t seen[size];  ///< the last cell found alone in a block here
    std::uint64_t exceptions[size];
    std::uint8_t props[size];
    const std::uint8_t *table[size];  ///< CellInfo::table
    /// Characters of three-byte leads E0..EF classified through cache hits,
    /// not yet counted toward their lead's examination.
    std::uint32_t pending[16];
    /// Once the table exists: blocks go to it first while at least half of
    /// the last 8 probed blocks mixed more cells than table_after_cells;
    /// then every 64th block probes the cells again. (Counting characters
    /// left alone in their cell as a reason too, measured: a chunk's first
    /// blocks, whose cells are new, then sent every other 256 KiB chunk of
    /// Chinese table-first for good, 1.2 GB/s against 2.7.)
    bool table_first;
    std::uint8_t probes;  ///< bit i: the i-th last probe needed the table
    std::uint32_t since_probe;
    /// With has_permute64: the cells the loop classified last
    /// (classify_by_hot_cells.hpp).
    typename Hot::HotSet hot;
  };

  static void clear(CellCache &cache) noexcept {
    for (unsigned k = 0; k < CellCache::size; ++k)
      cache.index[k] = cache.seen[k] = ~std::uint32_t{0};
    for (unsigned k = 0; k < 16; ++k) cache.pending[k] = 0;
    cache.table_first = false;
    cache.probes = 0;
    cache.since_probe = 0;
    Hot::clear(cache.hot);
  }

  /// Reports the pending counts (UnitClasses::note_slow_lead); true when
  /// the lead planes changed.
  static bool flush(const Request &r, CellCache &cache) noexcept {
    Hot::drain_hits(cache.hot, cache.pending);
    bool changed = false;
    for (unsigned k = 0; k < 16; ++k) {
      if (cache.pending[k] == 0) continue;
      changed = r.classes->note_slow_lead(static_cast<std::uint8_t>(0xE0 + k), cache.pending[k]) ||
                changed;
      cache.pending[k] = 0;
    }
    return changed;
  }

  /// Gives the characters `chars` the properties `props`.
  static void classify_as(std::uint8_t props, std::uint64_t chars, CharMasks &m) noexcept {
    if ((props & unit_props::separator) != 0) m.sep |= chars;
    if ((props & unit_props::constituent) != 0) m.con |= chars;
    const unsigned w = (props & unit_props::width_mask) >> unit_props::width_shift;
    if (w == 1) m.w1 |= chars;
    if (w == 2) m.w2 |= chars;
  }

  /// Classifies the multibyte characters `slow` (valid, not classified by
  /// lead) by their cell (UnitClasses::cell): one cell at a time, all of its
  /// characters in the block at once, but for the cell's exceptions.
  /// Returns the characters left: characters above plane 1, exceptions
  /// (none with has_permute64), characters alone in a cell not cached, and
  /// every character of the cells beyond the first `cells` (which sets
  /// `table_needed`).
  static std::uint64_t classify(const Request &r, const Block &b, const std::uint8_t *q,
                                std::uint64_t slow, CharMasks &m, LeadTables &tables,
                                CellCache &cache, unsigned cells, bool &table_needed) noexcept {
    // q[64..68] are readable (utf8_plan's loop condition), so are these.
    const Block next1 = load(q + 1);
    const Block next2 = load(q + 2);
    const Block next3 = load(q + 3);
    std::uint64_t rest = 0;
    for (; slow != 0; --cells) {
      if (cells == 0) {
        table_needed = true;  // the rest is the table's
        return rest | slow;
      }
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(slow));
      const std::uint8_t lead = q[i];
      const std::uint8_t second = q[i + 1];
      if (lead > 0xF0 || (lead == 0xF0 && (second & 0xF0) != 0x90)) {
        // Beyond plane 1 (no cells): one by one.
        const std::uint64_t big = slow & bits(b, [lead](B v) { return v == B(lead); });
        rest |= big;
        slow &= ~big;
        continue;
      }
      std::uint64_t same = slow & bits(b, [lead](B v) { return v == B(lead); });
      std::uint32_t cell = lead & 0x1Fu;
      const Block *last = &next1;
      if (lead >= 0xE0) {
        same &= bits(next1, [second](B v) { return v == B(second); });
        if constexpr (Isa::has_permute64) {
          // A uniform cell of a lead whose row is known: the lead's whole
          // row becomes hot (Hangul: one row for every syllable of EA or
          // ED). Without the hot cells, classifying such cells here one at
          // a time was slower than the table (Korean 0.75x).
          if (lead < 0xF0 && ((tables.cells_known >> (lead - 0xC0u)) & 1) != 0) {
            const std::uint8_t *row = tables.cells[lead & 0x0Fu];
            if (const std::uint8_t props = row[second & 0x3Fu]; props != cell_mixed) {
              Hot::add(cache.hot, ~std::uint32_t{lead}, row, q + i, 0, cache.pending);
              classify_as(props, same, m);
              slow &= ~same;
              continue;
            }
          }
        }
        if (lead == 0xF0) {
          // U+10000..U+1FFFF: F0 9x yy zz, cells 1024..2047.
          const std::uint8_t third = q[i + 2];
          same &= bits(next2, [third](B v) { return v == B(third); });
          cell = ((second & 0x3Fu) << 6) | (third & 0x3Fu);
          last = &next3;
        } else {
          cell = ((lead & 0x0Fu) << 6) | (second & 0x3Fu);
          last = &next2;
        }
      }
      const unsigned slot = cell % CellCache::size;
      if (cache.index[slot] == cell && lead >= 0xE0) {
        // A hit still counts toward a three-byte lead's examination, or
        // text that keeps to a few cells would never get its lead's planes.
        std::uint32_t &pending = cache.pending[lead & 0x0Fu];
        pending += static_cast<std::uint32_t>(popcount(same));
        if (pending >= 4096 && flush(r, cache))
          tables = LeadClassifier<A>::lead_tables(r.classes->lead_planes());
      }
      if (cache.index[slot] != cell) {
        if ((same & (same - 1)) == 0 && (!Isa::has_permute64 || cache.seen[slot] != cell)) {
          // Alone in its cell, and neither cached nor seen alone in it
          // lately: one by one is cheaper than fetching the cell (random
          // bytes, or CJK before its lead's planes are known, where nearly
          // every character has its own). Seen again, the cell is fetched:
          // punctuation comes one character a block.
          cache.seen[slot] = cell;
          rest |= same;
          slow &= ~same;
          continue;
        }
        const CellInfo info = r.classes->cell(cell, static_cast<std::uint32_t>(popcount(same)));
        if (info.planes_changed) tables = LeadClassifier<A>::lead_tables(r.classes->lead_planes());
        cache.index[slot] = cell;
        cache.exceptions[slot] = info.exceptions;
        cache.props[slot] = info.props;
        cache.table[slot] = info.table;
      }
      if constexpr (Isa::has_permute64) {
        // Every code point of the cell by its last byte, in one permute:
        // no exceptions left for the one-by-one path.
        static_assert(lanes == 1, "one 64-byte vector a block");
        if (const std::uint8_t *table = cache.table[slot]) {
          Hot::add(cache.hot, cell, table, q + i,
                   lead < 0xE0   ? 2u
                   : lead < 0xF0 ? 3u
                                 : 4u,
                   cache.pending);
          const B p = Isa::permute64(B::load_unaligned(table), last->v[0]);
          const auto has = [&](std::uint8_t bit) { return same & Isa::bits((p & B(bit)) != B(0)); };
          m.sep |= has(unit_props::separator);
          m.con |= has(unit_props::constituent);
          const B w = p & B(unit_props::width_mask);
          m.w1 |= same & Isa::bits(w == B(1u << unit_props::width_shift));
          m.w2 |= same & Isa::bits(w == B(2u << unit_props::width_shift));
          slow &= ~same;
          continue;
        }
      }
      const std::uint64_t exceptions = cache.exceptions[slot];
      const std::uint8_t props = cache.props[slot];
      const std::uint64_t odd = exceptions != 0 ? same & exception_bits(*last, exceptions) : 0;
      classify_as(props, same & ~odd, m);
      rest |= odd;
      slow &= ~same;
    }
    return rest;
  }

  /// Cells a block's characters are looked up by (UnitClasses::cell)
  /// before the rest go to the table. Measured: one-script lines
  /// (bench_kernels' multilingual corpus) ran at 2.8 GB/s table-first and
  /// 4.2 GB/s with 4 cells first; scripts mixed within lines (bench/run's)
  /// ran 1.3-2x slower with any cells first, hence the probing. With the
  /// hot cells, a block that still has more than two cells for the loop
  /// is better off at the table (emoji-dense text, GNU 9.5's rule: 1.02 ->
  /// 1.43 GB/s; no other corpus changed).
  static constexpr unsigned table_after_cells = Isa::has_permute64 ? 2 : 4;
};

}  // namespace fastwc::count::kernels
