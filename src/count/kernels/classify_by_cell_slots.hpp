// SPDX-License-Identifier: GPL-3.0-or-later
// The classifier of two- and three-byte characters for ISAs with byte
// shuffles but no 64-byte permute (SSSE3, AVX2, AVX-512BW), all of a
// block's at once for the cells a kernel call has met: eight slots, a cell
// each, looked up with 16-entry shuffles, so that a block that mixes a few
// cells (kana and CJK punctuation, or Latin's no-break space and curly
// quotes) costs the same few operations a lane as one that holds one, with
// no branch and no loop on its leads or cells. A two-byte character's slot
// comes from its lead (two tables of 16 leads); a three-byte one's from
// its lead and second byte: (second + salt[lead & 0x0F]) & 7, checked
// against the lead and second byte the slot holds (a lead's salt is chosen
// when its first cell is met, so that its cells, kana's E3 80..83 say,
// take consecutive slots). Emoji (F0 9F xx yy) are looked up one byte on,
// 9F in the lead's place (emoji_lead) with a salt of their own, so that
// the cells the census leaves them (the flags' regional indicators share
// theirs with unassigned code points) take slots as a three-byte lead's
// do. Each property is a 64-entry table by the last
// byte's low six bits, in four shuffles, whose byte holds the property of
// each slot's cell at that code point, bit k for slot k: the character has
// it when that byte and its slot's bit share a bit. (With VBMI,
// classify_two_byte.hpp and classify_three_byte.hpp do this with permutes
// over more cells.) Two rows of settled cells go first: a three-byte
// lead's census bits (CensusTables' SettledCells), by lead and second
// byte, so that Devanagari or Hangul need no slot. The slots are looked
// at for blocks with three-byte characters the rows leave, two-byte ones
// along, and with 32- and 16-byte vectors for blocks of two-byte ones
// alone (cell_looks.hpp's two_byte_blocks_in_slots). Cells take slots as
// the stride's looks meet them (cells_in_stride.hpp), in turn, a lead's
// at the slot its salt gives, up
// to install_budget a kernel call: text that mixes more than eight cells
// keeps some out for good rather than trading them back and forth.
#pragma once

#include <cstdint>
#include <cstring>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"
// Only UnitClasses::cell_masks, out of line, is called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CellSlotClassifier : Blocks<A> {
  using Base = Blocks<A>;
  using Base::lanes;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;
  using Signed = xsimd::batch<std::int8_t, A>;
  /// The bits a lane's mask fills.
  static constexpr std::uint64_t lane_mask =
      width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;

  static constexpr unsigned slot_count = 8;
  /// Three-byte leads that take a row of settled cells, at most.
  static constexpr unsigned row_count = 2;
  /// Cells that take a slot in a kernel call, at most.
  static constexpr unsigned install_budget = 48;
  /// The lead an emoji's cell (F0 9F xx) is keyed by: emoji are looked up
  /// one byte on, their 9F in the lead's place and their third byte in the
  /// second's (as classify_three_byte.hpp's are), and no three-byte lead is
  /// 9F. Their salt is a table of its own (emoji_salt).
  static constexpr std::uint8_t emoji_lead = 0x9F;

  /// The tables, each 16 bytes repeated four times, so that a vector of
  /// any width loads it whole in each of its 16-byte lanes.
  enum Table : unsigned {
    /// By a two-byte lead: C0..CF at lead - 0x50 (0x70..0x7F), D0..DF at
    /// that ^ 0x80: its slot's bit, or 0.
    two_low,
    two_high,
    salt,        ///< by a three-byte lead's low four bits
    emoji_salt,  ///< the emoji's salt, in every byte
    key_lead,    ///< by slot: the three-byte cell's lead, or 0
    key_second,  ///< by slot: its second byte
    slot_bit,    ///< by slot k: 1 << k
    /// By a three-byte lead - 0x70 (0x70..0x7F), the lead's settled row
    /// (0 or 8) ^ 0x80, else 0: what a shuffle reads at F0..FF's 0x80..,
    /// so that only three-byte leads meet rows.
    settled_row,
    /// Row r's settled cells (CensusTables' SettledCells::three_byte of its
    /// lead): bit s & 7 of entry r + (s >> 3) for second byte 0x80 + s.
    settled_cells,
    settled_wide,  ///< ... those two columns wide
    /// Four tables a property (special: separators or transparent, that
    /// is not constituents; separators; narrow; wide), by a last byte's
    /// low six bits c: entry c & 15 of the property's table c >> 4, bit k
    /// for slot k's cell.
    properties,
    table_count = properties + 16,
  };

  struct Slots {
    alignas(64) std::uint8_t table[table_count][64];
    std::uint8_t special_slots;  ///< bit k: slot k's cell has separators or transparent ones
    std::uint8_t wide_slots;     ///< ... has characters two columns wide
    std::uint8_t emoji_slots;    ///< ... is an emoji's (install_emoji)
    bool wide_rows;              ///< a settled row has cells two columns wide
    unsigned rows_used;          ///< settled rows, up to row_count
    unsigned used;               ///< slots that hold a cell
    unsigned next;               ///< the slot to take next
    unsigned installs_left;
    std::uint32_t salted;  ///< bit h: lead 0xE0 + h has a salt; bit 16: the emoji
    /// What each slot holds: a two-byte lead, (lead << 8) | second byte, or 0.
    std::uint16_t owner[slot_count];
  };

  static void clear(Slots &s) noexcept {
    std::memset(s.table, 0, sizeof s.table);
    for (unsigned k = 0; k < slot_count; ++k)
      set(s, slot_bit, k, static_cast<std::uint8_t>(1u << k));
    for (std::uint16_t &o : s.owner) o = 0;
    s.special_slots = 0;
    s.wide_slots = 0;
    s.emoji_slots = 0;
    s.wide_rows = false;
    s.rows_used = 0;
    s.used = 0;
    s.next = 0;
    s.installs_left = install_budget;
    s.salted = 0;
  }

  /// Whether the slots are worth a look: they hold a cell, and the kernel
  /// call has not spent install_budget (text that needs that many cells
  /// mixes too many for eight slots, and its blocks would mostly miss:
  /// random binary lost 40% to such looks).
  static bool live(const Slots &s) noexcept {
    return (s.used != 0 || s.rows_used != 0) && s.installs_left != 0;
  }

  /// What the settled rows say of the three- or four-byte characters at
  /// the bits of `three`: those settled, and those of them two columns wide.
  struct Settled {
    std::uint64_t chars;
    std::uint64_t wide;
  };

  template <bool Width>
  [[gnu::always_inline]] static Settled in_rows(const Slots &s, const Block &cur,
                                                const Block &second, std::uint64_t three) noexcept {
    Settled out{0, 0};
    for (std::size_t i = 0; i < lanes; ++i) {
      const B sec = second.v[i];
      // The lead's row, then the second byte's bit there (F0..FF index at
      // 0x80.., which a shuffle reads as 0: no row).
      const B row_byte = (Isa::lookup(at_table(s, settled_row), cur.v[i] - B(0x70)) ^ B(0x80)) |
                         Isa::template shift_right<3>(sec & B(0x3F));
      const B bit = Isa::lookup(at_table(s, slot_bit), sec & B(0x07));
      const auto in = [&](unsigned t) {
        return static_cast<std::uint64_t>(
                   ~Isa::bits((Isa::lookup(at_table(s, t), row_byte) & bit) == B(0)) & lane_mask)
               << (i * width);
      };
      out.chars |= in(settled_cells);
      if constexpr (Width) {
        if (s.wide_rows) out.wide |= in(settled_wide);
      }
    }
    out.chars &= three;
    out.wide &= out.chars;
    return out;
  }

  /// The characters at the bits of `two` (complete two-byte sequences)
  /// and `three` (three-byte ones, and with Emoji emoji: four-byte ones
  /// led by F0 9F, looked up one byte on) in the block cur, `second`,
  /// `third` and `fourth` the blocks one, two and three bytes on, whose
  /// cells have slots, as CellMasks' bits at their leads; `hot` gets their
  /// bits. Two and Three: whether `two` and `three` may hold any.
  template <bool Words, bool Width, bool Two, bool Three, bool Emoji>
  [[gnu::always_inline]] static CellMasks classify(const Slots &s, const Block &cur,
                                                   const Block &second, const Block &third,
                                                   const Block &fourth, std::uint64_t two,
                                                   std::uint64_t three,
                                                   std::uint64_t &hot) noexcept {
    static_assert(Two || Three);
    static_assert(Three || !Emoji);
    std::uint64_t in_slot = 0;
    B slots[lanes];
    B at[lanes][4];
    for (std::size_t i = 0; i < lanes; ++i) {
      const B v = cur.v[i];
      const B sec = second.v[i];
      B last;
      B two_slot;
      if constexpr (Two) {
        // C0..CF index two_low at 0x70..0x7F (D0..DF reach 0x80.., which a
        // shuffle reads as 0), D0..DF two_high.
        const B by_lead = v - B(0x50);
        two_slot = Isa::lookup(at_table(s, two_low), by_lead) |
                   Isa::lookup(at_table(s, two_high), by_lead ^ B(0x80));
      }
      B three_slot;
      B three_last = third.v[i];
      if constexpr (Three) {
        // An emoji's key, one byte on: its 9F as the lead (F0 never is a
        // key: the other four-byte leads find no slot), its third byte as
        // the second.
        B key = v;
        B key_sec = sec;
        // The slot the lead's salt gives, checked against the cell it holds.
        B salted = Isa::lookup(at_table(s, salt), v & B(0x0F));
        if constexpr (Emoji) {
          const M emoji = v == B(0xF0);
          key = xsimd::select(emoji, sec, v);
          key_sec = xsimd::select(emoji, third.v[i], sec);
          three_last = xsimd::select(emoji, fourth.v[i], three_last);
          salted = xsimd::select(emoji, at_table(s, emoji_salt), salted);
        }
        const B index = (key_sec + salted) & B(0x07);
        const auto held = (Isa::lookup(at_table(s, key_lead), index) == key) &
                          (Isa::lookup(at_table(s, key_second), index) == key_sec);
        three_slot = Isa::lookup(at_table(s, slot_bit), index) & Isa::to_bytes(held);
      }
      if constexpr (Two && !Three) {
        slots[i] = two_slot;
        last = sec & B(0x3F);
      } else if constexpr (Two) {
        // E0..FF (or ASCII) by one signed compare.
        const M is_three(
            static_cast<typename M::register_type>(xsimd::bitwise_cast<Signed>(v) > Signed(-33)));
        slots[i] = xsimd::select(is_three, three_slot, two_slot);
        last = xsimd::select(is_three, three_last, sec) & B(0x3F);
      } else {
        slots[i] = three_slot;
        last = three_last & B(0x3F);
      }
      // Table j of a property holds last bytes whose bits 4-5 are j: their
      // index ^ (j << 4) is below 16, plus 0x70 below 0x80; the other
      // tables' are 0x80 or more, which a shuffle reads as 0.
      const B bias(0x70);
      at[i][0] = last + bias;
      at[i][1] = (last ^ B(0x10)) + bias;
      at[i][2] = (last ^ B(0x20)) + bias;
      at[i][3] = (last ^ B(0x30)) + bias;
      in_slot |= static_cast<std::uint64_t>(~Isa::bits(slots[i] == B(0)) & lane_mask)
                 << (i * width);
    }
    hot = (two | three) & in_slot;
    // The characters whose slots' cells have `property` (0 special, 1
    // separators, 2 narrow, 3 wide), of those at the bits of `of`.
    const auto has = [&](unsigned property, std::uint64_t of) {
      const unsigned t = properties + 4 * property;
      std::uint64_t out = 0;
      for (std::size_t i = 0; i < lanes; ++i) {
        const B byte =
            Isa::lookup(at_table(s, t), at[i][0]) | Isa::lookup(at_table(s, t + 1), at[i][1]) |
            Isa::lookup(at_table(s, t + 2), at[i][2]) | Isa::lookup(at_table(s, t + 3), at[i][3]);
        out |= static_cast<std::uint64_t>(~Isa::bits((byte & slots[i]) == B(0)) & lane_mask)
               << (i * width);
      }
      return of & out;
    };
    CellMasks out{0, 0, 0, 0};
    if constexpr (Words) {
      // Real text has few characters that are not constituents: one look
      // for them, then one for the separators among them.
      if (s.special_slots != 0) {
        const std::uint64_t special = has(0, hot);
        if (special != 0) {
          out.separators = has(1, special);
          out.transparent = special & ~out.separators;
        }
      }
    }
    if constexpr (Width) {
      if (s.wide_slots != 0) out.wide = has(3, hot);
      out.narrow = has(2, hot & ~out.wide);
    }
    return out;
  }

  /// What lookup found: CellMasks' bits, and the characters it took.
  struct Found {
    CellMasks cells;
    std::uint64_t hot;
  };

  /// classify for the two-byte characters at the bits of `two` and the
  /// three-byte ones at the bits of `three` (not both 0; with a slot for
  /// an emoji's cell, four-byte ones too) in the block at q (q[64..66]
  /// readable). Out of line, its answer by value: the stride's loops keep
  /// their registers (inline, AVX2's -mw lost a third).
  template <bool Words, bool Width>
  [[gnu::noinline]] static Found lookup(const Slots &s, const std::uint8_t *q, std::uint64_t two,
                                        std::uint64_t three) noexcept {
    const Block cur = Base::load(q);
    if (s.emoji_slots != 0 && (three & four_up(cur)) != 0)
      return lookup_emoji<Words, Width>(s, q, two, three);
    const Block second = Base::load(q + 1);
    const Block third = Base::load(q + 2);
    Found out{{0, 0, 0, 0}, 0};
    if (three == 0)
      out.cells =
          classify<Words, Width, true, false, false>(s, cur, second, third, third, two, 0, out.hot);
    else if (two == 0)
      out.cells = classify<Words, Width, false, true, false>(s, cur, second, third, third, 0, three,
                                                             out.hot);
    else
      out.cells = classify<Words, Width, true, true, false>(s, cur, second, third, third, two,
                                                            three, out.hot);
    return out;
  }

  /// lookup for a block with four-byte characters, the emoji among them
  /// one byte on. Apart: in lookup, its code cost the blocks without them
  /// (Chinese and English under 9.1's words, AVX2) 4%.
  template <bool Words, bool Width>
  [[gnu::noinline]] static Found lookup_emoji(const Slots &s, const std::uint8_t *q,
                                              std::uint64_t two, std::uint64_t three) noexcept {
    const Block cur = Base::load(q);
    const Block second = Base::load(q + 1);
    const Block third = Base::load(q + 2);
    const Block fourth = Base::load(q + 3);
    const std::uint64_t four = three & four_up(cur);
    const std::uint64_t emoji = four & Base::bits(cur, [](B v) { return v == B(0xF0); }) &
                                Base::bits(second, [](B v) { return v == B(0x9F); });
    three = (three & ~four) | emoji;
    Found out{{0, 0, 0, 0}, 0};
    if (two == 0)
      out.cells = classify<Words, Width, false, true, true>(s, cur, second, third, fourth, 0, three,
                                                            out.hot);
    else
      out.cells = classify<Words, Width, true, true, true>(s, cur, second, third, fourth, two,
                                                           three, out.hot);
    return out;
  }

  /// The bytes of the block b that are E0..FF (three_up) or F0..FF
  /// (four_up), by a signed compare (ASCII bytes too: the caller's leads
  /// mask them).
  static std::uint64_t three_up(const Block &b) noexcept { return above(b, -33); }
  static std::uint64_t four_up(const Block &b) noexcept { return above(b, -17); }

  /// Whether install_two, install_three and install_row would change
  /// anything (each one's precondition), inline: the looks of blocks whose
  /// cells have their slots already make no call.
  static bool wants_two(const Slots &s, std::uint8_t lead) noexcept {
    return s.installs_left != 0 && s.table[two_table(lead)][lead & 0x0Fu] == 0;
  }
  static bool wants_three(const Slots &s, std::uint8_t lead, std::uint8_t second) noexcept {
    return s.installs_left != 0 &&
           ((s.salted & salt_bit(lead)) == 0 ||
            s.owner[(second + salt_of(s, lead)) % slot_count] != ((lead << 8) | second));
  }
  static bool wants_row(const Slots &s, std::uint8_t lead) noexcept {
    return s.rows_used < row_count && s.installs_left != 0 &&
           s.table[settled_row][lead - 0xE0u] == 0;
  }

  /// Gives two-byte lead `lead`'s cell, whose characters are `cell`, the
  /// next slot (where wants_two).
  [[gnu::noinline]] static void install_two(Slots &s, std::uint8_t lead,
                                            const CellMasks &cell) noexcept {
    --s.installs_left;
    const unsigned k = s.next;
    s.next = (k + 1) % slot_count;
    take(s, k, lead, cell);
    set(s, two_table(lead), lead & 0x0Fu, static_cast<std::uint8_t>(1u << k));
  }

  /// Gives the cell of three-byte lead `lead` and second byte `second` the
  /// slot its lead's salt gives it (a new lead's salt: the next slot), where
  /// wants_three.
  [[gnu::noinline]] static void install_three(const UnitClasses &classes, Slots &s,
                                              std::uint8_t lead, std::uint8_t second) noexcept {
    install_cell(s, lead, second, classes.cell_masks(((lead & 0x0Fu) << 6) | (second & 0x3Fu)));
  }

  /// Gives the cell of the emoji F0 9F `third` xx a slot, keyed as a
  /// three-byte character one byte on would be (emoji_lead, `third`), where
  /// wants_three(s, emoji_lead, third).
  [[gnu::noinline]] static void install_emoji(const UnitClasses &classes, Slots &s,
                                              std::uint8_t third) noexcept {
    // UnitClasses' cells are code points >> 6: U+1F000 >> 6 is 0x7C0.
    install_cell(s, emoji_lead, third, classes.cell_masks(0x7C0u | (third & 0x3Fu)));
  }

  /// Gives three-byte lead `lead`, whose cells of second byte 0x80 + s
  /// bit s of `cells` settles (two columns wide: of `wide`), the next
  /// settled row (where wants_row).
  [[gnu::noinline]] static void install_row(Slots &s, std::uint8_t lead, std::uint64_t cells,
                                            std::uint64_t wide) noexcept {
    const unsigned row = 8 * s.rows_used++;
    set(s, settled_row, lead - 0xE0u, static_cast<std::uint8_t>(row ^ 0x80));
    for (unsigned j = 0; j < 8; ++j) {
      set(s, settled_cells, row + j, static_cast<std::uint8_t>(cells >> (8 * j)));
      set(s, settled_wide, row + j, static_cast<std::uint8_t>(wide >> (8 * j)));
    }
    s.wide_rows = s.wide_rows || wide != 0;
  }

 private:
  /// install_three's and install_emoji's slot for the key (lead, second),
  /// whose characters are `cell`.
  static void install_cell(Slots &s, std::uint8_t lead, std::uint8_t second,
                           const CellMasks &cell) noexcept {
    if ((s.salted & salt_bit(lead)) == 0) {
      s.salted |= salt_bit(lead);
      const auto value = static_cast<std::uint8_t>((s.next - second) % slot_count);
      if (lead == emoji_lead)
        std::memset(s.table[emoji_salt], value, sizeof s.table[emoji_salt]);
      else
        set(s, salt, lead & 0x0Fu, value);
    }
    const unsigned k = (second + salt_of(s, lead)) % slot_count;
    --s.installs_left;
    if (k == s.next) s.next = (k + 1) % slot_count;
    take(s, k, static_cast<std::uint16_t>((lead << 8) | second), cell);
    set(s, key_lead, k, lead);
    set(s, key_second, k, second);
  }

  /// Key lead `lead`'s bit of Slots::salted, and its salt.
  static std::uint32_t salt_bit(std::uint8_t lead) noexcept {
    return lead == emoji_lead ? 1u << 16 : 1u << (lead & 0x0Fu);
  }
  static unsigned salt_of(const Slots &s, std::uint8_t lead) noexcept {
    return lead == emoji_lead ? s.table[emoji_salt][0] : s.table[salt][lead & 0x0Fu];
  }

  /// The table of two-byte lead `lead`'s slot: C0..CF or D0..DF.
  static unsigned two_table(unsigned lead) noexcept {
    return (lead & 0x1Fu) < 16 ? two_low : two_high;
  }

  static std::uint64_t above(const Block &b, std::int8_t limit) noexcept {
    return Base::bits(b, [limit](B v) {
      return M(
          static_cast<typename M::register_type>(xsimd::bitwise_cast<Signed>(v) > Signed(limit)));
    });
  }

  static B at_table(const Slots &s, unsigned t) noexcept { return B::load_aligned(s.table[t]); }

  /// Entry e of table t, in each of its four copies.
  static void set(Slots &s, unsigned t, unsigned e, std::uint8_t value) noexcept {
    for (unsigned r = 0; r < 4; ++r) s.table[t][16 * r + e] = value;
  }

  /// Bytes 0..7 of the result: bits 0..7 of x (each byte 0 or 1).
  static constexpr std::uint64_t spread(std::uint64_t x) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101u;
    return ((((x & 0xFFu) * ones) & 0x8040201008040201u) + 0x7F7F7F7F7F7F7F7Fu) >> 7 & ones;
  }

  /// Empties slot k of what it held and gives it to `owner`, whose cell's
  /// characters are `cell`.
  static void take(Slots &s, unsigned k, std::uint16_t owner, const CellMasks &cell) noexcept {
    const std::uint16_t old = s.owner[k];
    if (old == 0) {
      ++s.used;
    } else if (old < 0x100) {
      set(s, two_table(old), old & 0x0Fu, 0);
    } else {
      set(s, key_lead, k, 0);
      set(s, key_second, k, 0);
    }
    s.owner[k] = owner;
    const std::uint64_t maps[4] = {cell.separators | cell.transparent, cell.separators, cell.narrow,
                                   cell.wide};
    const std::uint64_t bit = std::uint64_t{1} << k;
    const std::uint64_t keep = ~(0x0101010101010101u * bit);
    for (unsigned p = 0; p < 4; ++p)
      for (unsigned j = 0; j < 4; ++j) {
        std::uint8_t *const t = s.table[properties + 4 * p + j];
        std::uint64_t half[2];
        std::memcpy(half, t, 16);
        half[0] = (half[0] & keep) | spread(maps[p] >> (16 * j)) * bit;
        half[1] = (half[1] & keep) | spread(maps[p] >> (16 * j + 8)) * bit;
        for (unsigned r = 0; r < 4; ++r) std::memcpy(t + 16 * r, half, 16);
      }
    const auto mark = [k](std::uint8_t &slots, bool has) {
      slots = static_cast<std::uint8_t>(has ? slots | (1u << k) : slots & ~(1u << k));
    };
    mark(s.special_slots, maps[0] != 0);
    mark(s.wide_slots, maps[3] != 0);
    mark(s.emoji_slots, owner >> 8 == emoji_lead);
  }
};

}  // namespace fastwc::count::kernels
