// SPDX-License-Identifier: GPL-3.0-or-later
// The looks at cells that cells_in_stride.hpp's loops and
// leads_alone.hpp's make (cell_census.hpp's cells: the 64 code points a
// lead and the byte before the last share): the cache of the cells a
// kernel call has looked up, what the looks find (Found, bits at the
// characters' leads), a cell's masks applied to the characters of a block
// (apply_cell), the census' settled cells (settle), with byte shuffles but
// no VBMI, CellSlots' rows and slots (in_slots, classify_by_cell_slots.hpp),
// and without byte shuffles, characters one by one through the table of
// planes 0 and 1 (by_table).
#pragma once

#include <cstdint>
#include <type_traits>

#include "count/cell_census.hpp"
#include "count/kernels/census_tables.hpp"
#include "count/kernels/classify_by_cell.hpp"
#include "count/kernels/classify_by_cell_slots.hpp"
#include "count/kernels/classify_three_byte.hpp"
// Only UnitClasses::cell_masks, out of line, is called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CellLooks : CensusTables<A> {
  using Base = CensusTables<A>;
  using Base::bits;
  using Base::load;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::SettledCells;
  using ThreeByte = ThreeByteClassifier<A>;
  using CellSlots = CellSlotClassifier<A>;
  /// Byte shuffles without VBMI's permutes: cells met take CellSlots' slots.
  static constexpr bool uses_cell_slots = Isa::has_shuffle && !Isa::has_permute64;
  /// With slots, blocks whose pending characters are two-byte alone go
  /// through them too, and the inline looks give their leads slots: with
  /// 32- and 16-byte vectors (AVX2 Greek -w 1.17x, 1.23x on new text,
  /// Latin 1.10-1.15x; SSSE3 1.05-1.11x); AVX-512BW's one vector a block
  /// takes its two inline looks for less (Greek 0.75-0.8x there).
  static constexpr bool two_byte_blocks_in_slots = uses_cell_slots && Base::lanes > 1;

  struct NoSlots {};
  /// A type of its own: two empty members of one type would take a byte.
  struct NoCrowded {};

  /// The cells a kernel call has used lately, direct-mapped; with VBMI,
  /// three-byte slots; with shuffles alone, CellSlots' slots.
  struct CellCache {
    static constexpr unsigned size = 64;
    std::uint32_t key[size];
    CellMasks cell[size];
    typename ThreeByte::Slots slots;
    [[no_unique_address]] std::conditional_t<uses_cell_slots, typename CellSlots::Slots, NoSlots>
        shuffled;
    /// Without byte shuffles: the block after the last one in which one lead
    /// had too many characters for the looks (CellsInStride::busy_cells), so
    /// that the next such block can tell it follows one.
    [[no_unique_address]] std::conditional_t<Isa::has_shuffle, NoCrowded, const std::uint8_t *>
        after_crowded;
    /// With VBMI: the three-byte slots' narrow lookup runs on every block
    /// (CellBitMaps::classify's narrow_seen).
    bool narrow_seen;
  };

  static void clear(CellCache &cache) noexcept {
    for (std::uint32_t &k : cache.key) k = ~std::uint32_t{0};
    if constexpr (!Isa::has_shuffle) cache.after_crowded = nullptr;
    cache.narrow_seen = false;
    if constexpr (Isa::has_permute64) ThreeByte::clear(cache.slots);
    if constexpr (uses_cell_slots) CellSlots::clear(cache.shuffled);
  }

  [[gnu::always_inline]] static const CellMasks &cached(const UnitClasses &classes,
                                                        CellCache &cache,
                                                        std::uint32_t index) noexcept {
    // Fibonacci hashing: the cells of one block of code points (emoji's
    // F0 9F 80..BF) and a lead's cells spread over the slots.
    const unsigned slot = (index * 0x9E3779B1u) >> 26;
    if (cache.key[slot] != index) {
      cache.cell[slot] = classes.cell_masks(index);
      cache.key[slot] = index;
    }
    return cache.cell[slot];
  }

  /// What the looks find, as bits at the characters' leads: separators,
  /// transparent characters, one and two columns wide.
  struct Found {
    std::uint64_t sep;
    std::uint64_t trans;
    std::uint64_t narrow;
    std::uint64_t wide;

    /// Adds what a classifier of characters found (CellMasks' bits).
    void add(const CellMasks &c) noexcept {
      sep |= c.separators;
      trans |= c.transparent;
      narrow |= c.narrow;
      wide |= c.wide;
    }

    /// Adds what other looks found.
    void add(const Found &o) noexcept {
      sep |= o.sep;
      trans |= o.trans;
      narrow |= o.narrow;
      wide |= o.wide;
    }
  };

  /// With shuffles alone: what CellSlots' settled rows and slots say of
  /// the characters at the bits of `pending` in the block cur at q, added
  /// to f; returns those they classified. The rows inline (a few
  /// operations a lane: Devanagari or Hangul need nothing else; out of
  /// line, the call's spills cost them 0.7-0.8x), the slots out of line,
  /// for blocks with three-byte characters the rows leave (and blocks of
  /// two-byte ones: two_byte_blocks_in_slots).
  template <bool Words, bool Width>
  [[gnu::always_inline]] static std::uint64_t in_slots(const CellCache &cache,
                                                       const std::uint8_t *q, const Block &cur,
                                                       std::uint64_t pending, Found &f) noexcept {
    std::uint64_t hot = 0;
    if constexpr (uses_cell_slots) {
      const typename CellSlots::Slots &slots = cache.shuffled;
      if (CellSlots::live(slots)) {
        const std::uint64_t three_up = CellSlots::three_up(cur);
        std::uint64_t three = pending & three_up;
        if (three == 0) {
          if constexpr (!two_byte_blocks_in_slots) return 0;
        } else if (slots.rows_used != 0) {
          const typename CellSlots::Settled settled =
              CellSlots::template in_rows<Width>(slots, cur, load(q + 1), three);
          // Constituents, one column wide or two.
          if constexpr (Width) {
            f.wide |= settled.wide;
            f.narrow |= settled.chars & ~settled.wide;
          }
          hot = settled.chars;
          three &= ~settled.chars;
        }
        // Four-byte characters too where a slot holds an emoji's cell.
        if (three != 0 && slots.emoji_slots == 0) three &= ~CellSlots::four_up(cur);
        const std::uint64_t two = pending & ~three_up;
        if (slots.used != 0 && (three != 0 || (two_byte_blocks_in_slots && two != 0))) {
          const typename CellSlots::Found found =
              CellSlots::template lookup<Words, Width>(slots, q, two, three);
          f.add(found.cells);
          hot |= found.hot;
        }
      }
    }
    return hot;
  }

  /// What emoji_cells found, and the characters it classified.
  struct EmojiLooks {
    Found found;
    std::uint64_t done;
  };

  /// With CellSlots: of the four-byte characters at the bits of `four`
  /// (whose cells the census does not settle) in the block at q, the emoji
  /// (F0 9F) of their first `max_cells` cells, a cell at a time by their
  /// third byte; their cells take slots (the flags' regional indicators
  /// share theirs with unassigned code points). Out of line, its answer by
  /// value: once their cells have slots, few blocks need it, and inline it
  /// cost the stride's loops their registers (AVX-512BW's words under 9.1
  /// 0.8-0.9x on scripts without emoji).
  template <bool Words, bool Width>
  [[gnu::noinline]] static EmojiLooks emoji_cells(const UnitClasses &classes, CellCache &cache,
                                                  const std::uint8_t *q, std::uint64_t four,
                                                  unsigned max_cells) noexcept {
    EmojiLooks out{{0, 0, 0, 0}, 0};
    std::uint64_t rest = four & bits(load(q + 1), [](B v) { return v == B(0x9F); });
    for (unsigned c = 0; c < max_cells && rest != 0; ++c) {
      const std::uint8_t u = q[__builtin_ctzll(rest) + 2];
      const std::uint64_t in_cell = rest & bits(load(q + 2), [u](B v) { return v == B(u); });
      apply_cell<Words, Width>(cached(classes, cache, 0x7C0u | (u & 0x3Fu)), load(q + 3), in_cell,
                               out.found);
      if (CellSlots::wants_three(cache.shuffled, CellSlots::emoji_lead, u))
        CellSlots::install_emoji(classes, cache.shuffled, u);
      out.done |= in_cell;
      rest &= ~in_cell;
    }
    return out;
  }

  /// The characters at the bits of `at`, all of the cell `m`, by the bytes
  /// `last` that end them (bit i: the character whose last byte is
  /// last[i]).
  template <bool Words, bool Width>
  [[gnu::always_inline]] static void apply_cell(const CellMasks &m, const Block &last,
                                                std::uint64_t at, Found &f) noexcept {
    if constexpr (!Isa::has_shuffle) {
      apply_cell_by_compares<Words, Width>(m, last, at, f);
    } else {
      constexpr std::uint64_t all = ~std::uint64_t{0};
      if constexpr (Words) {
        if (m.separators != 0) f.sep |= at & CellClassifier<A>::exception_bits(last, m.separators);
        if (m.transparent != 0)
          f.trans |= at & CellClassifier<A>::exception_bits(last, m.transparent);
      }
      if constexpr (Width) {
        if (m.narrow == all)
          f.narrow |= at;
        else if (m.narrow != 0)
          f.narrow |= at & CellClassifier<A>::exception_bits(last, m.narrow);
        if (m.wide == all)
          f.wide |= at;
        else if (m.wide != 0)
          f.wide |= at & CellClassifier<A>::exception_bits(last, m.wide);
      }
    }
  }

  /// Those of the characters at the bits of `same` (three or four bytes
  /// long, all led by `lead`) whose cell is settled for the plan: a
  /// three-byte lead's by their second byte, plane 1's (F0 9F: emoji) by
  /// their third. With -L, their widths go to f.
  template <bool Width>
  [[gnu::always_inline]] static std::uint64_t settle(const SettledCells &cells, std::uint8_t lead,
                                                     std::uint64_t same, const Block &second,
                                                     const std::uint8_t *q, Found &f) noexcept {
    if constexpr (!Isa::has_shuffle) {
      return settle_by_compares<Width>(cells, lead, same, second, q, f);
    } else {
      std::uint64_t done = 0;
      std::uint64_t wide = 0;
      if (lead < 0xF0) {
        const unsigned h = lead & 0x0Fu;
        done = same & CellClassifier<A>::exception_bits(second, cells.three_byte[h]);
        if constexpr (Width) {
          if (done != 0 && cells.three_byte_wide[h] != 0)
            wide = done & CellClassifier<A>::exception_bits(second, cells.three_byte_wide[h]);
        }
      } else {
        if (lead != 0xF0) return 0;
        const std::uint64_t plane1 = same & bits(second, [](B v) { return v == B(0x9F); });
        if (plane1 == 0) return 0;
        const Block third = load(q + 2);
        done = plane1 & CellClassifier<A>::exception_bits(third, cells.plane1);
        if constexpr (Width) {
          if (done != 0 && cells.plane1_wide != 0)
            wide = done & CellClassifier<A>::exception_bits(third, cells.plane1_wide);
        }
      }
      if constexpr (Width) {
        f.wide |= wide;
        f.narrow |= done & ~wide;
      }
      return done;
    }
  }

  /// Without byte shuffles: the characters at the bits of `pending` (complete
  /// valid sequences in the block at q, q[64..66] readable) below U+20000,
  /// each decoded and looked up in bmp, the table of planes 0 and 1
  /// (UnitClasses::bmp_table), added to f; returns those it classified.
  template <bool Words, bool Width>
  [[gnu::always_inline]] static std::uint64_t by_table(const std::uint8_t *bmp,
                                                       const std::uint8_t *q, std::uint64_t pending,
                                                       Found &f) noexcept {
    std::uint64_t done = 0;
    for (; pending != 0; pending &= pending - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(pending));
      const unsigned lead = q[i];
      char32_t c = 0;
      if (lead < 0xE0) {
        c = ((lead & 0x1Fu) << 6) | (q[i + 1] & 0x3Fu);
      } else if (lead < 0xF0) {
        c = ((lead & 0x0Fu) << 12) | ((q[i + 1] & 0x3Fu) << 6) | (q[i + 2] & 0x3Fu);
      } else {
        c = ((lead & 0x07u) << 18) | ((q[i + 1] & 0x3Fu) << 12) | ((q[i + 2] & 0x3Fu) << 6) |
            (q[i + 3] & 0x3Fu);
        if (c >= 0x20000) continue;
      }
      const unsigned props = bmp[c];
      const std::uint64_t bit = std::uint64_t{1} << i;
      if constexpr (Words) {
        f.sep |= (props & unit_props::separator) != 0 ? bit : 0;
        f.trans |= (props & unit_props::word_mask) == 0 ? bit : 0;
      }
      if constexpr (Width) {
        const unsigned w = (props & unit_props::width_mask) >> unit_props::width_shift;
        f.narrow |= w == 1 ? bit : 0;
        f.wide |= w == 2 ? bit : 0;
      }
      done |= bit;
    }
    return done;
  }

 private:
  // Without byte shuffles (SSE2): apply_cell and settle with
  // CellClassifier::exceptions_at for exception_bits. Bodies of their own,
  // not one body through exceptions_at for every ISA: that wrapper, though
  // it inlines to the same operations, changed the VBMI kernel's register
  // allocation in the stride's loop (-w 9.1 Korean and Devanagari 0.93x,
  // -L on random binary 0.91x).
  template <bool Words, bool Width>
  [[gnu::always_inline]] static void apply_cell_by_compares(const CellMasks &m, const Block &last,
                                                            std::uint64_t at, Found &f) noexcept {
    using Cells = CellClassifier<A>;
    constexpr std::uint64_t all = ~std::uint64_t{0};
    if constexpr (Words) {
      if (m.separators != 0) f.sep |= Cells::exceptions_at(last, m.separators, at);
      if (m.transparent != 0) f.trans |= Cells::exceptions_at(last, m.transparent, at);
    }
    if constexpr (Width) {
      f.narrow |= m.narrow == all ? at
                  : m.narrow != 0 ? Cells::exceptions_at(last, m.narrow, at)
                                  : 0;
      f.wide |= m.wide == all ? at : m.wide != 0 ? Cells::exceptions_at(last, m.wide, at) : 0;
    }
  }

  template <bool Width>
  [[gnu::always_inline]] static std::uint64_t settle_by_compares(
      const SettledCells &cells, std::uint8_t lead, std::uint64_t same, const Block &second,
      const std::uint8_t *q, Found &f) noexcept {
    using Cells = CellClassifier<A>;
    std::uint64_t done = 0;
    std::uint64_t wide = 0;
    if (lead < 0xF0) {
      const unsigned h = lead & 0x0Fu;
      done = Cells::exceptions_at(second, cells.three_byte[h], same);
      if (Width && done != 0 && cells.three_byte_wide[h] != 0)
        wide = Cells::exceptions_at(second, cells.three_byte_wide[h], done);
    } else {
      if (lead != 0xF0) return 0;
      const std::uint64_t plane1 = same & bits(second, [](B v) { return v == B(0x9F); });
      if (plane1 == 0) return 0;
      const Block third = load(q + 2);
      done = Cells::exceptions_at(third, cells.plane1, plane1);
      if (Width && done != 0 && cells.plane1_wide != 0)
        wide = Cells::exceptions_at(third, cells.plane1_wide, done);
    }
    if constexpr (Width) {
      f.wide |= wide;
      f.narrow |= done & ~wide;
    }
    return done;
  }
};

}  // namespace fastwc::count::kernels
