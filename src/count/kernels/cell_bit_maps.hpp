// SPDX-License-Identifier: GPL-3.0-or-later
// Sixteen or thirty-two cells (cell_census.hpp: 64 code points that share
// every byte of their UTF-8 form but the last) held as bit maps, for ISAs
// with 64-byte permutes (VBMI): each property is 128 or 256 bytes, two or
// four vectors, where cell r's code point k is bit k & 7 of byte
// 8r + (k >> 3). A character's byte there is looked up by its row (8r,
// from its leading bytes: classify_two_byte.hpp, classify_three_byte.hpp)
// and its last byte with one or two two-vector permutes (each two
// operations on the bound port below: sixteen cells cost half as much),
// and tested against the bit of its last byte:
// all of a block's characters at once, whatever cells they mix, with no
// branch and no loop on the cells. On x86 the permutes, byte compares and
// tests all need one execution port, one of the two that bound these
// kernels: a character's byte in the maps comes from word shifts instead
// (the other port), and words test one map of the characters that are not
// constituents before any other (real text has few).
#pragma once

#include <cstdint>

#include "count/cell_census.hpp"
#include "count/kernels/blocks.hpp"

namespace fastwc::count::kernels {

template <class A, unsigned Cells>
struct CellBitMaps : Blocks<A> {
  static_assert(Cells == 16 || Cells == 32, "one or two two-vector permutes");
  using Base = Blocks<A>;
  using Base::lanes;
  using typename Base::B;
  using typename Base::Isa;

  /// One property of the cells: byte 8r + j is byte (8r + j) % 64 of
  /// part[(8r + j) / 64].
  struct BitMap {
    B part[Cells / 8];
  };

  /// The properties CellMasks has, and `special`: separators or
  /// transparent, the characters that are not constituents.
  struct Maps {
    BitMap special;
    BitMap separators;
    BitMap narrow;
    BitMap wide;
    B bit;  ///< by a last byte's low six bits k: 1 << (k & 7)
    /// 07 and F8, as data (Blocks::kept says why): a last byte's bits 3..5
    /// shifted to 0..2, and a row (8r) shifted from its lead's low bits.
    B in_row;
    B row;
    /// Whether any cell has a character two columns wide (none of the
    /// two-byte range has, in glibc's locales).
    bool any_wide;
  };

  /// Maps of no cell yet.
  static void clear(Maps &maps) noexcept {
    for (BitMap *map : {&maps.special, &maps.separators, &maps.narrow, &maps.wide})
      for (B &part : map->part) part = B(0);
    alignas(64) std::uint8_t bit[64];
    for (unsigned k = 0; k < 64; ++k) bit[k] = static_cast<std::uint8_t>(1u << (k & 7u));
    maps.bit = B::load_aligned(bit);
    maps.in_row = B(0x07);
    maps.row = B(0xF8);
    maps.any_wide = false;
  }

  /// Sets cell r of the maps to `m` (the bytes of a 64-bit mask in memory
  /// order are bytes 8r..8r + 7: x86 is little-endian).
  static void set_cell(Maps &maps, unsigned r, const CellMasks &m) noexcept {
    const auto put = [r](BitMap &map, std::uint64_t bits) {
      __builtin_memcpy(reinterpret_cast<std::uint8_t *>(map.part) + 8 * r, &bits, 8);
    };
    put(maps.special, m.separators | m.transparent);
    put(maps.separators, m.separators);
    put(maps.narrow, m.narrow);
    put(maps.wide, m.wide);
    maps.any_wide = maps.any_wide || m.wide != 0;
  }

  /// Where characters are in the maps.
  struct Place {
    B byte;  ///< the byte of the maps
    B bit;   ///< its bit
  };

  /// `rows`: each character's 8r at its lead (low three bits clear);
  /// `last`: the block its last bytes are in, aligned to its leads.
  [[gnu::always_inline]] static Place place(const Maps &maps, const B &rows,
                                            const B &last) noexcept {
    static_assert(Isa::has_permute64 && lanes == 1, "for one 64-byte permute a block");
    // Bits 3..5 of the last byte, from a word shift: its neighbour's bits
    // that the shift brings in are masked off.
    return {rows | (Isa::template shift_right_words<3>(last) & maps.in_row),
            Isa::permute64(maps.bit, last)};
  }

  /// The bits of `at` whose characters `map` holds. With FirstEight, every
  /// character is of the first eight cells, the maps' first vector: one
  /// single-vector permute, a third of what two vectors cost the port.
  template <bool FirstEight>
  [[gnu::always_inline]] static std::uint64_t in(const BitMap &map, const Place &where,
                                                 std::uint64_t at) noexcept {
    B byte;
    if constexpr (FirstEight)
      byte = Isa::permute64(map.part[0], where.byte);
    else if constexpr (Cells == 16)
      byte = Isa::permute128(map.part, where.byte);
    else
      byte = Isa::permute256(map.part, where.byte);
    return at & Isa::bits((byte & where.bit) != B(0));
  }

  /// The characters at the bits of `at`, as CellMasks' bits: the
  /// properties a plan counts (words: separators and transparent ones; -L:
  /// one and two columns wide); FirstEight as `in`.
  template <bool Words, bool Width, bool FirstEight = false>
  [[gnu::always_inline]] static CellMasks classify(const Maps &maps, const Place &where,
                                                   std::uint64_t at) noexcept {
    bool narrow_seen = false;
    return classify<Words, Width, FirstEight>(maps, where, at, narrow_seen);
  }

  /// classify, where `narrow_seen` says that a block has held a character
  /// of these cells that is not wide: from then on the narrow lookup runs
  /// on every block, with no test (Chinese text's narrow curly quotes come
  /// and go from block to block, and new text mispredicted the test), while
  /// text none of whose looked-up characters is narrow (Japanese) keeps the
  /// test that skips the lookup.
  template <bool Words, bool Width, bool FirstEight = false>
  [[gnu::always_inline]] static CellMasks classify(const Maps &maps, const Place &where,
                                                   std::uint64_t at, bool &narrow_seen) noexcept {
    CellMasks out{0, 0, 0, 0};
    if constexpr (Words) {
      const std::uint64_t special = in<FirstEight>(maps.special, where, at);
      if (special != 0) {
        out.separators = in<FirstEight>(maps.separators, where, special);
        out.transparent = special & ~out.separators;
      }
    }
    if constexpr (Width) {
      // Each lookup costs the bound port a few operations: none for what
      // no cell has, none for what is left once the wide ones are known.
      if (maps.any_wide) out.wide = in<FirstEight>(maps.wide, where, at);
      const std::uint64_t rest = at & ~out.wide;
      if (narrow_seen || rest != 0) {
        narrow_seen = true;
        out.narrow = in<FirstEight>(maps.narrow, where, rest);
      }
    }
    return out;
  }
};

}  // namespace fastwc::count::kernels
