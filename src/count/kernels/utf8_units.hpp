// SPDX-License-Identifier: GPL-3.0-or-later
// Where a block's UTF-8 units are, as masks: one-byte characters, lead
// bytes of valid multibyte characters and bytes that do not decode, for a
// block the validator passed (cheap) and for any block with the exact
// verdicts of glibc's decoder or of RFC 3629's (exact_units).
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"

namespace fastwc::count::kernels {

template <class A>
struct Utf8Units : Blocks<A> {
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

  /// The length of the longest prefix of a valid block that ends at a unit
  /// boundary: 64 unless one of the last three bytes starts a sequence that
  /// the block's end cuts.
  static std::size_t complete_length(const std::uint8_t *q) noexcept {
    if (q[63] >= 0xC0) return 63;
    if (q[62] >= 0xE0) return 62;
    if (q[61] >= 0xF0) return 61;
    return 64;
  }

  /// The units of a block that starts at a unit boundary, as masks. Bytes
  /// at and after `end` belong to a character that the block's end cuts;
  /// the next block starts there.
  struct Units {
    std::uint64_t ascii;    ///< one-byte characters
    std::uint64_t lead;     ///< lead bytes of valid multibyte characters
    std::uint64_t invalid;  ///< bytes that do not decode (wc skips one byte each)
    std::size_t end;
  };

  static std::uint64_t cont_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return Isa::continuation(v); });
  }

  /// A block that the validator passed: every non-ASCII byte that is not a
  /// continuation byte leads a valid character.
  static Units valid_units(const Block &b, const std::uint8_t *q) noexcept {
    const std::uint64_t high = sign_bits(b);
    return {~high, high & ~cont_bits(b), 0, complete_length(q)};
  }

  /// Any block, with the exact verdicts of glibc's decoder, or of RFC 3629's
  /// when `rfc3629`; q[64..68] must be readable.
  ///
  /// Both decoders skip one byte per error (wc's p++) and every valid
  /// sequence is a lead byte followed by continuation bytes only, so no
  /// valid sequence can start inside another: the decoder reaches every
  /// position where a valid sequence starts, and accepts it. Units are
  /// therefore local: a valid lead (its length's continuation bytes follow,
  /// not overlong, not a surrogate, and for RFC 3629 at most F4 8F), the
  /// continuation bytes it covers, and every other byte an error. Five
  /// bytes of lookahead decide the leads near the block's end.
  template <bool Invalid>
  static Units exact_units(const Block &b, const std::uint8_t *q, bool rfc3629) noexcept {
    ValidLeads v{};
    if constexpr (Isa::has_permute64 && lanes == 1)
      v = leads_by_bounds<Invalid>(b, q, rfc3629);
    else if constexpr (Isa::has_shuffle)
      v = leads_by_nibbles<Invalid>(b, q, rfc3629);
    else
      v = leads_by_compares<Invalid>(b, q, rfc3629);
    const std::uint64_t high = sign_bits(b);
    // Characters that the block's end cuts: a lead in the last six bytes
    // whose last byte lies beyond.
    std::size_t end = 64;
    for (std::uint64_t tail = v.lead >> 58; tail != 0; tail &= tail - 1) {
      const unsigned i = 58 + static_cast<unsigned>(__builtin_ctzll(tail));
      const unsigned length = q[i] < 0xE0   ? 2
                              : q[i] < 0xF0 ? 3
                              : q[i] < 0xF8 ? 4
                              : q[i] < 0xFC ? 5
                                            : 6;
      if (i + length > 64) {
        end = i;
        break;
      }
    }
    std::uint64_t invalid = 0;
    if constexpr (Invalid) {
      const std::uint64_t covered = (v.lead << 1) | (v.longer[0] << 2) | (v.longer[1] << 3) |
                                    (v.longer[2] << 4) | (v.longer[3] << 5);
      invalid = high & ~v.lead & ~covered;
    }
    return {~high, v.lead, invalid, end};
  }

 private:
  /// The leads of valid sequences, and (with Invalid) those of 3, 4, 5 and
  /// 6 bytes among them.
  struct ValidLeads {
    std::uint64_t lead;
    std::uint64_t longer[4];
  };

  /// exact_units' leads by compares of each lead that a second byte may
  /// fail with its second byte.
  template <bool Invalid>
  static ValidLeads leads_by_compares(const Block &b, const std::uint8_t *q,
                                      bool rfc3629) noexcept {
    // RFC 3629 refuses the leads F5..FD and F4 90..BF; glibc only FE, FF.
    // (A test that fails a byte that is no lead changes nothing: only
    // need1 bytes can be leads. So 00 stands for "no F4 rule".)
    const B first_bad_lead(rfc3629 ? 0xF5 : 0xFE);
    const B capped_lead(rfc3629 ? 0xF4 : 0x00);
    const Block next[5] = {load(q + 1), load(q + 2), load(q + 3), load(q + 4), load(q + 5)};
    ValidLeads out{};
    for (std::size_t l = 0; l < lanes; ++l) {
      const B v = b.v[l];
      const auto cont = [](B x) { return Isa::continuation(x); };
      // Leads needing at least 1..5 continuation bytes (glibc: C2-DF two
      // bytes, E0-EF three, F0-F7 four, F8-FB five, FC-FD six).
      const M need1 = Isa::le(B(0xC0), v);
      const M need2 = Isa::le(B(0xE0), v);
      const M need3 = Isa::le(B(0xF0), v);
      const M need4 = Isa::le(B(0xF8), v);
      const M need5 = Isa::le(B(0xFC), v);
      const B n1 = next[0].v[l];
      M fail = (need1 & !cont(n1)) | (need2 & !cont(next[1].v[l])) | (need3 & !cont(next[2].v[l])) |
               (need4 & !cont(next[3].v[l])) | (need5 & !cont(next[4].v[l]));
      // Leads that never start a character: C0, C1 (always overlong), FE,
      // FF; overlong forms and surrogates, decided by the second byte.
      fail = fail | ((v & B(0xFE)) == B(0xC0)) | Isa::le(first_bad_lead, v) |
             ((v == capped_lead) & Isa::le(B(0x90), n1)) | ((v == B(0xE0)) & Isa::le(n1, B(0x9F))) |
             ((v == B(0xED)) & Isa::le(B(0xA0), n1)) | ((v == B(0xF0)) & Isa::le(n1, B(0x8F))) |
             ((v == B(0xF8)) & Isa::le(n1, B(0x87))) | ((v == B(0xFC)) & Isa::le(n1, B(0x83)));
      add_lane<Invalid>(out, l, need1 & !fail, need2, need3, need4, need5);
    }
    return out;
  }

  /// Adds lane l's leads that start a character (ok), and with Invalid
  /// those of them that need 2..5 continuation bytes or more, to out.
  template <bool Invalid>
  [[gnu::always_inline]] static void add_lane(ValidLeads &out, std::size_t l, M ok, M need2,
                                              M need3, M need4, M need5) noexcept {
    const unsigned shift = static_cast<unsigned>(l * width);
    out.lead |= Isa::bits(ok) << shift;
    if constexpr (Invalid) {
      out.longer[0] |= Isa::bits(ok & need2) << shift;
      out.longer[1] |= Isa::bits(ok & need3) << shift;
      out.longer[2] |= Isa::bits(ok & need4) << shift;
      out.longer[3] |= Isa::bits(ok & need5) << shift;
    }
  }

  /// Bounds of the second byte after each lead C0..FF (by its low six
  /// bits), in glibc's decoder and in RFC 3629's: lo > hi for the leads
  /// that never start a character (C0, C1, FE, FF; F5..FD too in RFC 3629).
  /// What leads_by_compares' compares check, as two tables.
  struct SecondByteBounds {
    alignas(64) std::uint8_t lo[64];
    alignas(64) std::uint8_t hi[64];
  };

  static constexpr SecondByteBounds second_byte_bounds(bool rfc3629) noexcept {
    SecondByteBounds t{};
    for (unsigned lead = 0xC0; lead <= 0xFF; ++lead) {
      std::uint8_t lo = 0x80, hi = 0xBF;
      if (lead == 0xE0) lo = 0xA0;  // shorter: overlong
      if (lead == 0xED) hi = 0x9F;  // D800..DFFF: surrogates
      if (lead == 0xF0) lo = 0x90;
      if (lead == 0xF4 && rfc3629) hi = 0x8F;  // above U+10FFFF
      if (lead == 0xF8) lo = 0x88;             // glibc's five-byte form
      if (lead == 0xFC) lo = 0x84;             // and six-byte one
      if (lead < 0xC2 || lead >= (rfc3629 ? 0xF5 : 0xFE)) lo = 0xFF, hi = 0x00;
      t.lo[lead - 0xC0] = lo;
      t.hi[lead - 0xC0] = hi;
    }
    return t;
  }

  static constexpr SecondByteBounds glibc_bounds = second_byte_bounds(false);
  static constexpr SecondByteBounds rfc3629_bounds = second_byte_bounds(true);

  /// The bounds of the leads E0..FF as 16-entry tables (each repeated in
  /// every 16-byte lane) for byte shuffles, as offsets: lo - 80 and BF - hi.
  /// A lead indexes the E row by lead - E0 and the F row by lead - F0; an
  /// index with its sign bit set looks up 0 (pshufb), so the E row serves
  /// E0..EF alone and the F row F0..FF alone, except that an F lead's E
  /// index (10..1F) reads the E row too: the F row holds what remains once
  /// that entry is added (mod 256). C2..DF get 0 from both: 80..BF.
  struct NibbleBounds {
    alignas(64) std::uint8_t e_lo[64];
    alignas(64) std::uint8_t f_lo[64];
    alignas(64) std::uint8_t e_cut[64];
    alignas(64) std::uint8_t f_cut[64];
  };

  static constexpr NibbleBounds nibble_bounds(const SecondByteBounds &t) noexcept {
    NibbleBounds n{};
    for (unsigned i = 0; i < 64; ++i) {
      const unsigned e = 0x20 + i % 16, f = 0x30 + i % 16;
      n.e_lo[i] = static_cast<std::uint8_t>(t.lo[e] - 0x80);
      n.e_cut[i] = static_cast<std::uint8_t>(0xBF - t.hi[e]);
      n.f_lo[i] = static_cast<std::uint8_t>(t.lo[f] - 0x80 - n.e_lo[i]);
      n.f_cut[i] = static_cast<std::uint8_t>(0xBF - t.hi[f] - n.e_cut[i]);
    }
    return n;
  }

  static constexpr NibbleBounds glibc_nibbles = nibble_bounds(glibc_bounds);
  static constexpr NibbleBounds rfc3629_nibbles = nibble_bounds(rfc3629_bounds);

  /// exact_units' leads with 16-byte shuffles (SSSE3, AVX2, AVX-512
  /// without VBMI): leads_by_bounds' bounds from four lookups by the lead's
  /// low nibble (NibbleBounds), where leads_by_compares takes some thirty
  /// compares and logic operations a vector for the special leads.
  template <bool Invalid>
  static ValidLeads leads_by_nibbles(const Block &b, const std::uint8_t *q, bool rfc3629) noexcept {
    const NibbleBounds &t = rfc3629 ? rfc3629_nibbles : glibc_nibbles;
    const auto cont = [](B x) { return Isa::continuation(x); };
    const B e_lo = B::load_aligned(t.e_lo), f_lo = B::load_aligned(t.f_lo);
    const B e_cut = B::load_aligned(t.e_cut), f_cut = B::load_aligned(t.f_cut);
    const Block next[5] = {load(q + 1), load(q + 2), load(q + 3), load(q + 4), load(q + 5)};
    ValidLeads out{};
    for (std::size_t l = 0; l < lanes; ++l) {
      const B v = b.v[l];
      const B n1 = next[0].v[l];
      const B e = v - B(0xE0), f = v - B(0xF0);
      const B lo = B(0x80) + Isa::lookup(e_lo, e) + Isa::lookup(f_lo, f);
      const B hi = B(0xBF) - Isa::lookup(e_cut, e) - Isa::lookup(f_cut, f);
      const M need1 = Isa::le(B(0xC0), v);
      const M need2 = Isa::le(B(0xE0), v);
      const M need3 = Isa::le(B(0xF0), v);
      const M need4 = Isa::le(B(0xF8), v);
      const M need5 = Isa::le(B(0xFC), v);
      // C0 and C1 (always overlong) are the leads the tables do not reach.
      const M fail = (!(Isa::le(lo, n1) & Isa::le(n1, hi))) | Isa::le(v, B(0xC1)) |
                     (need2 & !cont(next[1].v[l])) | (need3 & !cont(next[2].v[l])) |
                     (need4 & !cont(next[3].v[l])) | (need5 & !cont(next[4].v[l]));
      add_lane<Invalid>(out, l, need1 & !fail, need2, need3, need4, need5);
    }
    return out;
  }

  /// exact_units' leads with 64-byte permutes (VBMI): the second byte's
  /// bounds by the lead, two permutes and two compares, where the compares
  /// of each special lead and its second byte take fourteen (they bound
  /// GNU 9.1's -mw on random bytes). A second byte within bounds is a
  /// continuation byte.
  template <bool Invalid>
  static ValidLeads leads_by_bounds(const Block &b, const std::uint8_t *q, bool rfc3629) noexcept {
    const SecondByteBounds &t = rfc3629 ? rfc3629_bounds : glibc_bounds;
    const auto cont = [](B x) { return Isa::continuation(x); };
    const B v = b.v[0];
    const B n1 = B::load_unaligned(q + 1);
    const M need1 = Isa::le(B(0xC0), v);
    const M need2 = Isa::le(B(0xE0), v);
    const M need3 = Isa::le(B(0xF0), v);
    const M need4 = Isa::le(B(0xF8), v);
    const M need5 = Isa::le(B(0xFC), v);
    const M within = Isa::le(Isa::permute64(B::load_aligned(t.lo), v), n1) &
                     Isa::le(n1, Isa::permute64(B::load_aligned(t.hi), v));
    const M fail = (!within) | (need2 & !cont(B::load_unaligned(q + 2))) |
                   (need3 & !cont(B::load_unaligned(q + 3))) |
                   (need4 & !cont(B::load_unaligned(q + 4))) |
                   (need5 & !cont(B::load_unaligned(q + 5)));
    const M ok = need1 & !fail;
    ValidLeads out{Isa::bits(ok), {0, 0, 0, 0}};
    if constexpr (Invalid) {
      out.longer[0] = Isa::bits(ok & need2);
      out.longer[1] = Isa::bits(ok & need3);
      out.longer[2] = Isa::bits(ok & need4);
      out.longer[3] = Isa::bits(ok & need5);
    }
    return out;
  }
};

}  // namespace fastwc::count::kernels
