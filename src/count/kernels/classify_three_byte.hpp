// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of three-byte characters (U+0800..U+FFFF) for ISAs with
// 64-byte permutes (VBMI), all of a block's at once whatever cells they
// mix, for the cells a kernel call has met: the cells of a lead byte
// whose second bytes share bit 5 (80..9F or A0..BF) get a row, eight rows
// in all (a slot table of 256 bytes, four vectors, looked up by row and
// second byte with two two-vector permutes, as the bit maps are), and a
// cell's characters are classified by its slot in bit maps of 16
// cells (cell_bit_maps.hpp). A cell the census settles for the plan
// (census_tables.hpp's SettledCells) shares one of two slots (one column
// wide or constituent alone, two columns wide); the others take the 13
// slots left in turn as they are met (install). Text keeps to a few
// leads and cells: general punctuation and currency (E2 80..82), CJK
// punctuation and kana (E3 80..83), full-width forms (EF BC..BF). Emoji
// (F0 9F xx yy) take slots the same way, lead F0 a row of its own: their
// third byte tells their cells apart as a three-byte character's second
// does, so the stride looks them up one byte on. While the cells met fit
// eight slots and two rows (Latin or English text's punctuation, kana) or
// four (Chinese punctuation), the tables are looked up in their first
// vectors alone: a single-vector permute for the maps, and one or one
// two-vector permute for the slot table, instead of two two-vector ones.
#pragma once

#include <cstdint>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"
#include "count/kernels/cell_bit_maps.hpp"
// Only UnitClasses::cell_masks, out of line, is called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct ThreeByteClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  /// Sixteen cells at a time: a lookup in their maps costs half what
  /// thirty-two cost (cell_bit_maps.hpp), and text keeps to fewer.
  static constexpr unsigned slot_count = 16;
  using Bits = CellBitMaps<A, slot_count>;

  /// Rows of 32 cells, the half of a lead's 64 that a second byte's bit 5
  /// picks: text that mixes scripts (seven leads in bench/run's
  /// multilingual corpus) keeps to one half of most leads.
  static constexpr unsigned rows = 8;
  /// Where a lead without a row looks in the slot table, the last byte of
  /// the vectors looked up (Slots::span: one, two or four): they stay 0.
  static constexpr unsigned reserved[] = {63, 127, rows * 32 - 1};
  /// While the first eight slots hold every cell met, the maps are looked
  /// up in their first vector alone (cell_bit_maps.hpp's FirstEight).
  static constexpr unsigned narrow_slots = 8;
  static constexpr std::uint8_t no_row = 0xFF;
  /// Slot 0: no cell; 1, 2: the settled cells, one column wide and two.
  static constexpr unsigned slot_narrow = 1;
  static constexpr unsigned slot_wide = 2;
  static constexpr unsigned first_free = 3;
  static constexpr std::uint16_t no_owner = 0xFFFF;

  struct Slots {
    typename Bits::Maps cells;
    /// By (lead & 0x1F) | (second byte & 0x20): row << 5, or no_row.
    B lead_row;
    /// 1F, first_free << 3 and slot_wide << 3, as data (Blocks::kept).
    B low_five;
    B first_looked;
    B wide;
    /// Byte (row << 5) | (second byte & 0x1F): the cell's slot << 3, or 0.
    /// The `reserved` bytes stay 0.
    B slot[rows * 32 / 64];
    std::uint16_t owner[slot_count];  ///< a free slot's byte of `slot`, or no_owner
    unsigned rows_used;
    unsigned next;  ///< the free slot to take next
    /// The vectors of the slot table that hold the rows in use (two rows
    /// a vector), while the slots in use are the first eight: 1 or 2 (text
    /// with a few cells of a few leads: E2's punctuation and currency in
    /// Latin or English text); else 4, the maps' two vectors too. It only
    /// grows (classify's Span).
    unsigned span;
  };

  static void clear(Slots &s) noexcept {
    // The settled slots' cells stay empty in the maps: their slots say
    // all (classify), and the maps' any_wide is the looked-up cells'.
    Bits::clear(s.cells);
    for (std::uint16_t &o : s.owner) o = no_owner;
    s.lead_row = B(no_row);
    s.low_five = B(0x1F);
    s.first_looked = B(first_free << 3);
    s.wide = B(slot_wide << 3);
    for (B &part : s.slot) part = B(0);
    s.rows_used = 0;
    s.next = first_free;
    s.span = 1;
  }

  /// The characters at the bits of `three` (complete three-byte sequences)
  /// in the block cur, `second` and `third` the blocks one and two bytes
  /// on, whose cells have slots, as CellMasks' bits at their leads; `hot`
  /// gets their bits. By the tables' first Span vectors, so Span must be at
  /// least s.span (4 is exact always). EveryLookup: the maps' lookups
  /// even where no character needs them, with no branch on whether one
  /// does (text whose blocks now hold characters of cells the census does
  /// not settle and now not mispredicts that branch). narrow_seen: the
  /// caller's flag for CellBitMaps::classify (kept for a kernel call: text
  /// that turns from Chinese to Japanese within one keeps the lookup).
  template <bool Words, bool Width, unsigned Span, bool EveryLookup = false>
  [[gnu::always_inline]] static CellMasks classify(const Slots &s, const Block &cur,
                                                   const Block &second, const Block &third,
                                                   std::uint64_t three, std::uint64_t &hot,
                                                   bool &narrow_seen) noexcept {
    // The row by the lead's low five bits and the second byte's bit 5
    // (bits 6-7, from the second byte, the permute does not read); a lead
    // without a row looks at byte `reserved` (no_row | anything), which
    // holds no slot.
    const B row = Isa::permute64(s.lead_row, (cur.v[0] & s.low_five) | (second.v[0] & ~s.low_five));
    const B index = row | (second.v[0] & s.low_five);
    // A lead without a row looks at the last byte of the Span vectors
    // (no_row | anything: the permutes read six, seven or eight bits).
    static_assert(Span == 1 || Span == 2 || Span == 4, "one, two or four vectors");
    B slot;
    if constexpr (Span == 1) {
      slot = Isa::permute64(s.slot[0], index);
    } else if constexpr (Span == 2) {
      const B first_two[2] = {s.slot[0], s.slot[1]};
      slot = Isa::permute128(first_two, index);
    } else {
      slot = Isa::permute256(s.slot, index);
    }
    hot = three & Isa::bits(slot != B(0));
    // The settled cells' characters need no look in the maps: they are
    // constituents, and their slots say one column or two.
    const std::uint64_t looked = hot & Isa::bits(slot >= s.first_looked);
    CellMasks settled{0, 0, 0, 0};
    if constexpr (Width) {
      const std::uint64_t by_slot = hot & ~looked;
      if (by_slot != 0) {
        settled.wide = by_slot & Isa::bits(slot == s.wide);
        settled.narrow = by_slot & ~settled.wide;
      }
    }
    if (!EveryLookup && looked == 0) return settled;
    CellMasks out = Bits::template classify<Words, Width, (Span < 4)>(
        s.cells, Bits::place(s.cells, slot, third.v[0]), looked, narrow_seen);
    out.narrow |= settled.narrow;
    out.wide |= settled.wide;
    return out;
  }

  /// What emoji found: CellMasks' bits, and the characters it took.
  struct EmojiFound {
    CellMasks found;
    std::uint64_t hot;
  };

  /// With VBMI, of the four-byte characters at the bits of `four` in the
  /// block cur at q, the emoji (F0 9F) whose cells have slots, by the same
  /// slots one byte on (their third byte tells their cells apart). Only
  /// CellsInStride::run_loop's emoji loop takes it, inline: out of line,
  /// the call cost the spills of every vector the loop keeps in registers
  /// (all of them are the caller's to save), and inline in the one loop,
  /// other scripts lost 5-9% to its registers. narrow_seen as classify's.
  template <bool Words, bool Width>
  [[gnu::always_inline]] static EmojiFound emoji(const Slots &slots, const std::uint8_t *q,
                                                 const Block &cur, std::uint64_t four,
                                                 bool &narrow_seen) noexcept {
    const std::uint64_t plane1 =
        four & Isa::bits(cur.v[0] == B(0xF0)) & Isa::bits(Base::load(q + 1).v[0] == B(0x9F));
    EmojiFound out{{0, 0, 0, 0}, 0};
    if (plane1 != 0)
      // The lookups of every vector, exact whatever the slots' span:
      // emoji's cells seldom fit fewer, and the test cost emoji's words
      // 0.92x. EveryLookup: emoji text's blocks now hold emoji of cells
      // that need the maps (cells with unassigned code points) and now
      // only emoji of settled ones (GNU 9.1's words on new emoji text
      // 1.4x; at 256 KiB, whose blocks the branch predictor learns, alike).
      out.found = classify<Words, Width, 4, true>(slots, cur, Base::load(q + 2), Base::load(q + 3),
                                                  plane1, out.hot, narrow_seen);
    return out;
  }

  /// Gives slots to the cells of the characters at the bits of `chars`,
  /// and rows to their leads while rows are left: complete three-byte
  /// sequences at q, or with Plane1 plane 1's four-byte ones led by F0 9F
  /// (emoji), whose cells their third byte tells apart, as a three-byte
  /// character's second does (classify looks them up one byte on). The
  /// census settles for the plan, of lead 0xE0 + h, the cells of
  /// settled[h] (bit s: second byte 0x80 + s), two columns wide those of
  /// settled_wide[h]; with Plane1, settled[0] and settled_wide[0] are plane
  /// 1's (bit t: third byte 0x80 + t). Out of line: a kernel call meets
  /// few cells. A cell may take the slot of one met earlier in the call.
  template <bool Plane1>
  [[gnu::noinline]] static void install(const UnitClasses &classes, const std::uint64_t *settled,
                                        const std::uint64_t *settled_wide, Slots &s,
                                        const std::uint8_t *q, std::uint64_t chars) noexcept {
    std::uint8_t *const slot = reinterpret_cast<std::uint8_t *>(s.slot);
    std::uint8_t *const lead_row = reinterpret_cast<std::uint8_t *>(&s.lead_row);
    for (; chars != 0; chars &= chars - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(chars));
      const unsigned lead = q[i];
      const unsigned key = q[i + (Plane1 ? 2 : 1)] & 0x3Fu;  // second byte, or third
      const unsigned half = key & 0x20u;
      const unsigned h = Plane1 ? 0 : lead & 0x0Fu;
      // UnitClasses' cells are code points >> 6: (h << 6) | key for
      // E0 + h, 0x7C0 | key for F0 9F.
      const unsigned cell = Plane1 ? 0x7C0u | key : (h << 6) | key;
      const unsigned row_key = (lead & 0x1Fu) | half;
      unsigned row = lead_row[row_key];
      if (row == no_row) {
        if (s.rows_used == rows) continue;
        row = s.rows_used++ << 5;
        s.span = s.span > 2 || s.rows_used > 4 ? 4 : s.rows_used > 2 ? 2 : 1;
        lead_row[row_key] = static_cast<std::uint8_t>(row);
        for (unsigned k = 0; k < 32; ++k) {
          const std::uint64_t bit = std::uint64_t{1} << (half | k);
          if ((settled[h] & bit) != 0 && !is_reserved(row | k))
            slot[row | k] = static_cast<std::uint8_t>(
                ((settled_wide[h] & bit) != 0 ? slot_wide : slot_narrow) << 3);
        }
      }
      const unsigned at = row | (key & 0x1Fu);
      if (slot[at] != 0 || is_reserved(at)) continue;
      const unsigned k = s.next;
      s.next = k == slot_count - 1 ? first_free : k + 1;
      if (k >= narrow_slots) s.span = 4;
      if (s.owner[k] != no_owner) slot[s.owner[k]] = 0;
      s.owner[k] = static_cast<std::uint16_t>(at);
      slot[at] = static_cast<std::uint8_t>(k << 3);
      Bits::set_cell(s.cells, k, classes.cell_masks(cell));
    }
  }

 private:
  static bool is_reserved(unsigned at) noexcept {
    return at == reserved[0] || at == reserved[1] || at == reserved[2];
  }
};

}  // namespace fastwc::count::kernels
