// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of text that keeps to a few cells, for ISAs with 64-byte
// permutes (VBMI): the cells the cell classifier (classify_by_cell.hpp)
// classified last, and the rows of uniform cells of examined leads
// (LeadPlanes::cells), matched all at once before it. The cell classifier
// goes one cell at a time, each step waiting for the last (measured: 6-7 ns
// a cell, Greek); text in one script uses the same few cells block after
// block.
#pragma once

#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/kernel.hpp"
// Only the plain unit_props and cell_mixed constants are used here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct HotCellClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::lanes;
  using Base::popcount;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;

  /// The hot cells of a kernel call, replaced round robin.
  struct HotSet {
    struct Entry {
      B lead;    ///< the lead byte, in every byte
      B second;  ///< three- and four-byte cells: the second byte
      B third;   ///< four-byte cells: the third byte
      /// CellInfo::table, or for a row (length 0) LeadPlanes::cells' row
      /// of the lead, looked up by the second byte
      const std::uint8_t *table;
      std::uint32_t key;    ///< a cell's index; a row's: ~lead
      std::uint32_t hits;   ///< characters matched, not yet drained
      std::uint8_t length;  ///< of the cell's characters, in bytes; 0: a row
    };
    /// Measured: 8 against 4, 6, 12 and 16 (Japanese needs five cells;
    /// emoji's fifteen thrash at any size, and 16 cost the others 3-5%).
    static constexpr unsigned size = 8;
    Entry entries[size];
    unsigned used;
    unsigned next;
  };

  static void clear(HotSet &hot) noexcept {
    hot.used = 0;
    hot.next = 0;
  }

  /// Adds the characters of three-byte cells matched since the last drain
  /// to `pending` (by lead, E0..EF), which counts them toward their lead's
  /// examination (UnitClasses::note_slow_lead).
  static void drain_hits(HotSet &hot, std::uint32_t (&pending)[16]) noexcept {
    for (unsigned k = 0; k < hot.used; ++k) drain(hot.entries[k], pending);
  }

  /// Makes the cell `key` (the characters at q, of `length` bytes, or 0 for
  /// the row of q's lead) hot in place of the oldest, unless it is.
  static void add(HotSet &hot, std::uint32_t key, const std::uint8_t *table, const std::uint8_t *q,
                  unsigned length, std::uint32_t (&pending)[16]) noexcept {
    static_assert(Isa::has_permute64, "hot cells are for byte permutes");
    for (unsigned k = 0; k < hot.used; ++k)
      if (hot.entries[k].key == key) return;
    typename HotSet::Entry &e = hot.entries[hot.next];
    if (hot.next < hot.used) drain(e, pending);
    e.lead = B(q[0]);
    e.second = B(q[1]);
    e.third = B(q[2]);
    e.table = table;
    e.key = key;
    e.hits = 0;
    e.length = static_cast<std::uint8_t>(length);
    if (hot.used < HotSet::size) ++hot.used;
    hot.next = (hot.next + 1) % HotSet::size;
  }

  /// Classifies the characters among `slow` (valid, not classified by
  /// lead) of the hot cells, all cells at once: per cell, compares of its
  /// bytes and one permute of its table by the characters' last bytes (a
  /// row's by their second bytes), no branch on the data. Returns the
  /// characters left. q[64..66] must be readable.
  template <bool Words, bool Width>
  static std::uint64_t classify(const Block &b, const std::uint8_t *q, std::uint64_t slow,
                                CharMasks &m, HotSet &hot) noexcept {
    static_assert(Isa::has_permute64 && lanes == 1, "one 64-byte vector a block");
    const B v = b.v[0];
    const B next1 = B::load_unaligned(q + 1);
    const B next2 = B::load_unaligned(q + 2);
    const B next3 = B::load_unaligned(q + 3);
    B props(0);
    std::uint64_t matched = 0;
    for (unsigned k = 0; k < hot.used; ++k) {
      typename HotSet::Entry &e = hot.entries[k];
      M in = v == e.lead;
      const B *last = &next1;
      if (e.length == 0) {
        // A row: by the second byte, but for its mixed cells.
        const B p = Isa::permute64(B::load_unaligned(e.table), next1);
        in = in && (p < B(cell_mixed));
        props = xsimd::select(in, p, props);
        matched |= slow & Isa::bits(in);
        continue;
      }
      if (e.length >= 3) {
        in = in && (next1 == e.second);
        last = &next2;
      }
      if (e.length == 4) {
        in = in && (next2 == e.third);
        last = &next3;
      }
      props = xsimd::select(in, Isa::permute64(B::load_unaligned(e.table), *last), props);
      const std::uint64_t mine = slow & Isa::bits(in);
      e.hits += static_cast<std::uint32_t>(popcount(mine));
      matched |= mine;
    }
    if (matched == 0) return slow;
    const auto has = [&](std::uint8_t bit) {
      return matched & Isa::bits((props & B(bit)) != B(0));
    };
    if constexpr (Words) {
      m.sep |= has(unit_props::separator);
      m.con |= has(unit_props::constituent);
    }
    if constexpr (Width) {
      const B w = props & B(unit_props::width_mask);
      m.w1 |= matched & Isa::bits(w == B(1u << unit_props::width_shift));
      m.w2 |= matched & Isa::bits(w == B(2u << unit_props::width_shift));
    }
    return slow & ~matched;
  }

 private:
  static void drain(typename HotSet::Entry &e, std::uint32_t (&pending)[16]) noexcept {
    // A three-byte cell's index is (lead & 0x0F) << 6 | (second & 0x3F).
    if (e.length == 3) pending[(e.key >> 6) & 0x0Fu] += e.hits;
    e.hits = 0;
  }
};

}  // namespace fastwc::count::kernels
