// SPDX-License-Identifier: GPL-3.0-or-later
// The byte classes of the C locale as block masks (what unit_classes.cpp's
// c_locale_byte says in scalar form), and the words, -L and newlines of a
// block of single-byte units: all of a single-byte locale's bytes, and the
// ASCII runs of UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"

namespace fastwc::count::kernels {

template <class A>
struct CByteClasses : Blocks<A> {
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
  using Acc = Accumulate<A>;

  /// The bytes the classes compare with, made once before a loop
  /// (Blocks::kept says why).
  struct Constants {
    B newline;
    B space;
    B tab;
    B cr;
    B form_feed;
    B tab_to_cr;
    B graph_low;
    B graph_span;
    B print_span;
    B no_break;  ///< A0, where it separates words (c_block's a0_sep)
  };

  static Constants constants() noexcept {
    return {.newline = Base::kept(0x0A),
            .space = Base::kept(0x20),
            .tab = Base::kept(0x09),
            .cr = Base::kept(0x0D),
            .form_feed = Base::kept(0x0C),
            .tab_to_cr = Base::kept(0x0D - 0x09),
            .graph_low = Base::kept(0x21),
            .graph_span = Base::kept(0x7E - 0x21),
            .print_span = Base::kept(0x7E - 0x20),
            .no_break = Base::kept(0xA0)};
  }

  static std::uint64_t newline_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return v == k.newline; });
  }
  /// isspace in the C locale: 09-0D and 20.
  static std::uint64_t space_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return (v == k.space) | Isa::le(v - k.tab, k.tab_to_cr); });
  }
  /// isprint && !isspace: 21-7E (GNU <= 9.4's word constituents).
  static std::uint64_t graph_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return Isa::le(v - k.graph_low, k.graph_span); });
  }
  /// isprint: 20-7E, one column for -L.
  static std::uint64_t print_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return Isa::le(v - k.space, k.print_span); });
  }
  static std::uint64_t tab_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return v == k.tab; });
  }
  /// LF, CR and FF end a line for -L (wc.c: case '\n', '\r', '\f').
  static std::uint64_t break_bits(const Block &b, const Constants &k) noexcept {
    return bits(b, [&k](B v) { return (v == k.newline) | (v == k.cr) | (v == k.form_feed); });
  }

  /// Words, -L and newlines of up to 64 single-byte units in the C locale;
  /// bits at and above `end` are not units. a0_sep: byte A0 separates
  /// words (Request::a0_separates).
  template <bool Rule95, bool Words, bool Width>
  static void c_block(UnitAccumulator &acc, const Block &b, std::size_t end, bool a0_sep,
                      const Constants &k) noexcept {
    const std::uint64_t live = live_mask(end);
    acc.summary.lines += popcount(newline_bits(b, k) & live);
    if constexpr (Words) {
      std::uint64_t sep = space_bits(b, k);
      if constexpr (Rule95) {
        if (a0_sep) sep |= bits(b, [&k](B v) { return v == k.no_break; });
      }
      sep &= live;
      // 9.5: everything that is not white space is part of a word; 9.1:
      // only printable non-space bytes, the others are transparent.
      const std::uint64_t con = (Rule95 ? ~sep : graph_bits(b, k)) & live;
      Acc::words(acc, sep, con);
    }
    if constexpr (Width)
      Acc::widths(acc, print_bits(b, k), 0, tab_bits(b, k), break_bits(b, k),
                  static_cast<unsigned>(end));
  }
};

}  // namespace fastwc::count::kernels
