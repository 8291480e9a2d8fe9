// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD kernels, written once over the xsimd architecture A and included
// only by kernel_<isa>.cpp, each compiled with that ISA's flags. Each of
// those files first defines IsaOps<A>, the few primitives xsimd 8.1 lacks
// (movemask, byte shuffles, whole-register byte shifts), with intrinsics.
//
// Data is handled in blocks of 64 bytes, so that every class of byte becomes
// one 64-bit mask whatever the vector width, and the word and -L logic
// (summary_ops.hpp) is shared by all ISAs. ODR hygiene: everything here is a
// member of a class template over A, so each ISA gets its own symbols, and
// count_body is [[gnu::flatten]] so that no xsimd helper is left out of line
// (tests/kernels/check_symbols.py checks the objects).
//
// UTF-8 plans keep one invariant: `pos` is a unit boundary (a decoder
// starting fresh there sees what a decoder reading from the chunk start
// sees). A block of 64 bytes at pos is
//  - plain ASCII: 64 one-byte units, classified with masks (ascii_run);
//  - valid UTF-8 by the standard (RFC 3629) rules, as checked with the
//    nibble-lookup validator (Keiser and Lemire's algorithm): its units are
//    exactly glibc's, since glibc accepts every standard sequence;
//  - anything else (errors, glibc's 5- and 6-byte forms, values above
//    U+10FFFF): exact_units finds the decoder's units (glibc's, or RFC
//    3629's for GNU 9.11+) with masks, because they are local (see there).
// A character cut by the block's end is left for the next block, which
// starts at its lead byte. Multibyte characters get their word class and
// width from their lead byte when all characters with that lead agree
// (UnitClasses::lead_planes, as nibble tables), else from their 64-code-
// point cell (UnitClasses::cell: shared properties plus an exception bit
// map), else one by one (classify_multibyte). Once enough characters have
// gone those slower ways, a table of every code point below U+20000 exists
// (UnitClasses::build_bmp_table) and ISAs with gathers look characters up
// there (classify_by_table; AVX-512 first packs a block's characters into
// one or two gathers). The last bytes of a chunk and a trailing incomplete
// sequence go through utf8_span, the scalar path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <xsimd/xsimd.hpp>

#include "count/kernels/kernel.hpp"
// Only UnitClasses::lead_planes(), which is out of line, is called here.
#include "count/unit_classes.hpp"

namespace fastwc::count::kernels {

/// Per-ISA primitives, specialized in each kernel_<isa>.cpp:
///   using batch = xsimd::batch<std::uint8_t, A>;
///   static constexpr bool has_shuffle;      // byte table lookups available
///   static std::uint64_t bits(batch_bool);  // one bit per byte, lowest first
///   static std::uint64_t sign_bits(batch);  // bit i = byte i >= 0x80
///   static batch to_bytes(batch_bool);      // 0xFF / 0x00 per byte
///   static std::uint64_t sum_bytes(batch);  // sum of the bytes
///   static batch_bool le(batch, batch);     // unsigned a <= b
///   template <int K> static batch shift_right(batch);  // each byte >> K
///   static batch subs(batch, batch);        // unsigned saturating a - b
///   when has_shuffle:
///   static batch lookup(batch table, batch index);   // per 16-byte lane
///   template <int K> static batch shift_in(batch cur, batch prev);
///        // the bytes of (prev, cur) shifted up by K: byte i is cur[i - K],
///        // or prev[width + i - K] for i < K
///   static constexpr bool has_gather;       // 32-bit gathers available
///   when has_gather:
///   using wide = xsimd::batch<std::uint32_t, A>;
///   template <int K> static wide widen(batch);  // bytes K*w/4.. of a batch
///        // of w bytes, zero-extended to 32 bits each
///   template <int N> static wide shift_left(wide);
///   static wide gather(const std::uint8_t *base, wide offset, std::uint32_t active);
///        // 32 bits loaded at base + offset for the lanes whose bit is set
///        // in `active`, 0 in the others
///   static std::uint32_t wide_bits(wide::batch_bool_type);  // one bit a lane
template <class A>
struct IsaOps;

template <class A>
struct SimdKernel {
  using Isa = IsaOps<A>;
  using B = xsimd::batch<std::uint8_t, A>;
  using M = typename B::batch_bool_type;
  using Acc = Accumulate<A>;
  static constexpr std::size_t width = B::size;
  static constexpr std::size_t lanes = 64 / width;
  static_assert(lanes * width == 64);

  struct Block {
    B v[lanes];
  };

  static Block load(const std::uint8_t *p) noexcept {
    Block b;
    for (std::size_t i = 0; i < lanes; ++i) b.v[i] = B::load_unaligned(p + i * width);
    return b;
  }

  /// Loads the last size (< 64) bytes at p into a block padded with zeros;
  /// the caller masks the padding off.
  static Block load_partial(const std::uint8_t *p, std::size_t size) noexcept {
    alignas(64) std::uint8_t copy[64] = {};
    for (std::size_t i = 0; i < size; ++i) copy[i] = p[i];
    return load(copy);
  }

  template <class Pred>
  static std::uint64_t bits(const Block &b, Pred pred) noexcept {
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) m |= Isa::bits(pred(b.v[i])) << (i * width);
    return m;
  }

  static std::uint64_t sign_bits(const Block &b) noexcept {
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) m |= Isa::sign_bits(b.v[i]) << (i * width);
    return m;
  }

  static std::uint64_t popcount(std::uint64_t x) noexcept {
    return static_cast<std::uint64_t>(__builtin_popcountll(x));
  }

  static constexpr std::uint64_t live_mask(std::size_t end) noexcept {
    return end >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << end) - 1;
  }

  // ---- byte classes of the C locale (unit_classes.cpp: c_locale_byte) ----

  static std::uint64_t newline_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return v == B(0x0A); });
  }
  /// isspace in the C locale: 09-0D and 20.
  static std::uint64_t space_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return (v == B(0x20)) | Isa::le(v - B(0x09), B(0x0D - 0x09)); });
  }
  /// isprint && !isspace: 21-7E (GNU <= 9.4's word constituents).
  static std::uint64_t graph_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return Isa::le(v - B(0x21), B(0x7E - 0x21)); });
  }
  /// isprint: 20-7E, one column for -L.
  static std::uint64_t print_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return Isa::le(v - B(0x20), B(0x7E - 0x20)); });
  }
  static std::uint64_t tab_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return v == B(0x09); });
  }
  /// LF, CR and FF end a line for -L (wc.c: case '\n', '\r', '\f').
  static std::uint64_t break_bits(const Block &b) noexcept {
    return bits(b, [](B v) { return (v == B(0x0A)) | (v == B(0x0D)) | (v == B(0x0C)); });
  }

  /// Words, -L and newlines of up to 64 single-byte units in the C locale;
  /// bits at and above `end` are not units. a0_sep: byte A0 separates
  /// words (Request::a0_separates).
  template <bool Rule95, bool Words, bool Width>
  static void c_block(UnitAccumulator &acc, const Block &b, std::size_t end, bool a0_sep) noexcept {
    const std::uint64_t live = live_mask(end);
    acc.summary.lines += popcount(newline_bits(b) & live);
    if constexpr (Words) {
      std::uint64_t sep = space_bits(b);
      if constexpr (Rule95) {
        if (a0_sep) sep |= bits(b, [](B v) { return v == B(0xA0); });
      }
      sep &= live;
      // 9.5: everything that is not white space is part of a word; 9.1:
      // only printable non-space bytes, the others are transparent.
      const std::uint64_t con = (Rule95 ? ~sep : graph_bits(b)) & live;
      Acc::words(acc, sep, con);
    }
    if constexpr (Width)
      Acc::widths(acc, print_bits(b), 0, tab_bits(b), break_bits(b), static_cast<unsigned>(end));
  }

  // ---- newlines ----

  static std::uint64_t count_newlines(const std::uint8_t *p, std::size_t n) noexcept {
    std::uint64_t total = 0;
    std::size_t i = 0;
    const B nl(0x0A);
    if constexpr (Isa::has_mask_registers) {
      // A compare yields a 64-bit mask: popcount it.
      for (; i + 256 <= n; i += 256) {
        const std::uint64_t m0 = Isa::bits(B::load_unaligned(p + i) == nl);
        const std::uint64_t m1 = Isa::bits(B::load_unaligned(p + i + 64) == nl);
        const std::uint64_t m2 = Isa::bits(B::load_unaligned(p + i + 128) == nl);
        const std::uint64_t m3 = Isa::bits(B::load_unaligned(p + i + 192) == nl);
        total += (popcount(m0) + popcount(m1)) + (popcount(m2) + popcount(m3));
      }
    } else {
      // Byte counters (0xFF per match, subtracted), summed before any of
      // them can pass 255.
      while (i + 64 <= n) {
        std::size_t rounds = (n - i) / 64;
        if (rounds > 255) rounds = 255;
        B acc[lanes];
        for (std::size_t l = 0; l < lanes; ++l) acc[l] = B(0);
        for (std::size_t r = 0; r < rounds; ++r, i += 64)
          for (std::size_t l = 0; l < lanes; ++l)
            acc[l] = acc[l] - Isa::to_bytes(B::load_unaligned(p + i + l * width) == nl);
        for (std::size_t l = 0; l < lanes; ++l) total += Isa::sum_bytes(acc[l]);
      }
    }
    for (; i + 64 <= n; i += 64) total += popcount(newline_bits(load(p + i)));
    if (i < n) total += popcount(newline_bits(load_partial(p + i, n - i)) & live_mask(n - i));
    return total;
  }

  // ---- single-byte locales ----

  template <bool Rule95, bool Words, bool Width>
  static BodyResult bytes_plan(const Request &r, const std::uint8_t *p, std::size_t n) noexcept {
    UnitAccumulator acc{};  // a local: out.acc would live in memory
    const bool a0_sep = r.a0_separates;
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64) c_block<Rule95, Words, Width>(acc, load(p + i), 64, a0_sep);
    if (i < n) c_block<Rule95, Words, Width>(acc, load_partial(p + i, n - i), n - i, a0_sep);
    return {acc, 0};
  }

  // ---- UTF-8 ----

  // Validator tables: each bit is an error that needs a condition on the
  // previous byte's high nibble, its low nibble and this byte's high
  // nibble; an error is present when all three lookups have its bit.
  static constexpr std::uint8_t too_short = 1 << 0;  // lead not followed by a continuation
  static constexpr std::uint8_t too_long = 1 << 1;   // continuation after ASCII
  static constexpr std::uint8_t overlong3 = 1 << 2;  // E0 80..9F
  static constexpr std::uint8_t too_large = 1 << 3;  // F4 90..BF, F5..FF + continuation
  static constexpr std::uint8_t surrogate = 1 << 4;  // ED A0..BF
  static constexpr std::uint8_t overlong2 = 1 << 5;  // C0, C1 + continuation
  static constexpr std::uint8_t large1000 = 1 << 6;  // F5..FF 80..8F; shared with ...
  static constexpr std::uint8_t overlong4 = 1 << 6;  // ... F0 80..8F (told apart by the low nibble)
  static constexpr std::uint8_t two_conts = 1 << 7;  // continuation after continuation
  static constexpr std::uint8_t any_low = too_short | too_long | two_conts;

  static B table(std::uint8_t t0, std::uint8_t t1, std::uint8_t t2, std::uint8_t t3,
                 std::uint8_t t4, std::uint8_t t5, std::uint8_t t6, std::uint8_t t7,
                 std::uint8_t t8, std::uint8_t t9, std::uint8_t ta, std::uint8_t tb,
                 std::uint8_t tc, std::uint8_t td, std::uint8_t te, std::uint8_t tf) noexcept {
    alignas(64) std::uint8_t t[64];
    const std::uint8_t row[16] = {t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, ta, tb, tc, td, te, tf};
    for (std::size_t i = 0; i < 64; ++i) t[i] = row[i % 16];
    return B::load_aligned(t);
  }

  struct Validator {
    B prev_high;  // by the previous byte's high nibble
    B prev_low;   // by its low nibble
    B cur_high;   // by this byte's high nibble
  };

  static Validator validator() noexcept {
    constexpr std::uint8_t ascii = too_long;
    constexpr std::uint8_t cont = two_conts;
    const B prev_high = table(ascii, ascii, ascii, ascii, ascii, ascii, ascii, ascii,  //
                              cont, cont, cont, cont,                                  //
                              too_short | overlong2,                                   // C
                              too_short,                                               // D
                              too_short | overlong3 | surrogate,                       // E
                              too_short | too_large | large1000 | overlong4);          // F
    const B prev_low = table(any_low | overlong3 | overlong2 | overlong4,              // 0
                             any_low | overlong2,                                      // 1
                             any_low, any_low,                                         // 2, 3
                             any_low | too_large,                                      // 4
                             any_low | too_large | large1000, any_low | too_large | large1000,
                             any_low | too_large | large1000, any_low | too_large | large1000,
                             any_low | too_large | large1000, any_low | too_large | large1000,
                             any_low | too_large | large1000, any_low | too_large | large1000,
                             any_low | too_large | large1000 | surrogate,  // D
                             any_low | too_large | large1000, any_low | too_large | large1000);
    constexpr std::uint8_t lead = too_short;
    const B cur_high =
        table(lead, lead, lead, lead, lead, lead, lead, lead,
              too_long | overlong2 | two_conts | overlong3 | large1000 | overlong4,  // 8
              too_long | overlong2 | two_conts | overlong3 | too_large,              // 9
              too_long | overlong2 | two_conts | surrogate | too_large,              // A
              too_long | overlong2 | two_conts | surrogate | too_large,              // B
              lead, lead, lead, lead);
    return {prev_high, prev_low, cur_high};
  }

  /// True when the 64 bytes at a unit boundary are standard UTF-8, except
  /// that a sequence may be cut by the block's end.
  static bool valid_utf8(const Validator &t, const Block &b) noexcept {
    B error(0);
    B prev(0);  // a unit boundary: as if ASCII came before
    for (std::size_t i = 0; i < lanes; ++i) {
      const B cur = b.v[i];
      const B prev1 = Isa::template shift_in<1>(cur, prev);
      const B prev2 = Isa::template shift_in<2>(cur, prev);
      const B prev3 = Isa::template shift_in<3>(cur, prev);
      const B special = Isa::lookup(t.prev_high, Isa::template shift_right<4>(prev1)) &
                        Isa::lookup(t.prev_low, prev1 & B(0x0F)) &
                        Isa::lookup(t.cur_high, Isa::template shift_right<4>(cur));
      // Third and fourth bytes of 3- and 4-byte sequences must be
      // continuations, which is when two_conts (0x80) is expected.
      const B must23 = Isa::subs(prev2, B(0xE0 - 0x80)) | Isa::subs(prev3, B(0xF0 - 0x80));
      error = error | (special ^ (must23 & B(0x80)));
      prev = cur;
    }
    return Isa::bits(error != B(0)) == 0;
  }

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
    return bits(b, [](B v) { return (v & B(0xC0)) == B(0x80); });
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
    // RFC 3629 refuses the leads F5..FD and F4 90..BF; glibc only FE, FF.
    // (A test that fails a byte that is no lead changes nothing: only
    // need1 bytes can be leads. So 00 stands for "no F4 rule".)
    const B first_bad_lead(rfc3629 ? 0xF5 : 0xFE);
    const B capped_lead(rfc3629 ? 0xF4 : 0x00);
    const Block next[5] = {load(q + 1), load(q + 2), load(q + 3), load(q + 4), load(q + 5)};
    std::uint64_t lead = 0;
    std::uint64_t longer[4] = {0, 0, 0, 0};  // leads of 3, 4, 5 and 6 bytes
    for (std::size_t l = 0; l < lanes; ++l) {
      const B v = b.v[l];
      const auto cont = [](B x) { return (x & B(0xC0)) == B(0x80); };
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
      const M ok = need1 & !fail;
      const unsigned shift = static_cast<unsigned>(l * width);
      lead |= Isa::bits(ok) << shift;
      if constexpr (Invalid) {
        longer[0] |= Isa::bits(ok & need2) << shift;
        longer[1] |= Isa::bits(ok & need3) << shift;
        longer[2] |= Isa::bits(ok & need4) << shift;
        longer[3] |= Isa::bits(ok & need5) << shift;
      }
    }
    const std::uint64_t high = sign_bits(b);
    // Characters that the block's end cuts: a lead in the last six bytes
    // whose last byte lies beyond.
    std::size_t end = 64;
    for (std::uint64_t tail = lead >> 58; tail != 0; tail &= tail - 1) {
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
      const std::uint64_t covered =
          (lead << 1) | (longer[0] << 2) | (longer[1] << 3) | (longer[2] << 4) | (longer[3] << 5);
      invalid = high & ~lead & ~covered;
    }
    return {~high, lead, invalid, end};
  }

  /// Lead-byte planes (UnitClasses::lead_planes) as byte lookup tables:
  /// a lead's low nibble selects a byte whose bits 0-3 (or 4-7) say, for
  /// high nibbles C-F, whether the plane holds it.
  struct LeadTables {
    B class_con;              ///< bits 0-3: same_class, bits 4-7: constituent
    B width_one;              ///< bits 0-3: same_width, bits 4-7: width1
    B width_two;              ///< bits 0-3: width2
    B high_select;            ///< high nibble C-F: 0x11 << (nibble - 0xC)
    const std::uint8_t *bmp;  ///< LeadPlanes::bmp
  };

  static LeadTables lead_tables(const LeadPlanes &planes) noexcept {
    alignas(64) std::uint8_t t[3][64] = {};
    for (unsigned k = 0; k < 64; ++k) {
      const unsigned lo = k & 15;
      const unsigned hi = k >> 4;  // 0 for C, ... 3 for F
      const auto put = [&](unsigned table, std::uint64_t plane, unsigned shift) {
        if (((plane >> k) & 1) != 0)
          for (unsigned lane = 0; lane < 64; lane += 16)
            t[table][lane + lo] =
                static_cast<std::uint8_t>(t[table][lane + lo] | (1u << (hi + shift)));
      };
      put(0, planes.same_class, 0);
      put(0, planes.constituent, 4);
      put(1, planes.same_width, 0);
      put(1, planes.width1, 4);
      put(2, planes.width2, 0);
    }
    const B select = table(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x22, 0x44, 0x88);
    return {B::load_aligned(t[0]), B::load_aligned(t[1]), B::load_aligned(t[2]), select,
            planes.bmp};
  }

  /// The multibyte characters that their lead byte alone classifies, with
  /// their bits, for a block's leads `leads`.
  template <bool Words, bool Width>
  static std::uint64_t classify_by_lead(const LeadTables &t, const Block &b, std::uint64_t leads,
                                        CharMasks &m) noexcept {
    std::uint64_t same = ~std::uint64_t{0}, con = 0, w1 = 0, w2 = 0;
    std::uint64_t same_class = 0, same_width = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B v = b.v[i];
      const B sel = Isa::lookup(t.high_select, Isa::template shift_right<4>(v));
      const B lo = v & B(0x0F);
      const unsigned shift = static_cast<unsigned>(i * width);
      if constexpr (Words) {
        const B a = Isa::lookup(t.class_con, lo) & sel;
        same_class |= Isa::bits((a & B(0x0F)) != B(0)) << shift;
        con |= Isa::bits((a & B(0xF0)) != B(0)) << shift;
      }
      if constexpr (Width) {
        const B c = Isa::lookup(t.width_one, lo) & sel;
        same_width |= Isa::bits((c & B(0x0F)) != B(0)) << shift;
        w1 |= Isa::bits((c & B(0xF0)) != B(0)) << shift;
        w2 |= Isa::bits((Isa::lookup(t.width_two, lo) & sel) != B(0)) << shift;
      }
    }
    if constexpr (Words) same &= same_class;
    if constexpr (Width) same &= same_width;
    const std::uint64_t fast = leads & same;
    m.con |= fast & con;
    m.w1 |= fast & w1;
    m.w2 |= fast & w2;
    return fast;
  }

  /// One quarter of a vector of the block (bytes `shift`.. of it): the
  /// code points of its characters `mine` (two and three bytes, and four
  /// bytes in plane 1) and their table entries, as bits at their leads.
  template <int K, bool Words, bool Width>
  static void table_quarter(const std::uint8_t *table, B lead_bytes, B second_bytes, B third_bytes,
                            B fourth_bytes, std::uint64_t mine, unsigned shift,
                            CharMasks &out) noexcept {
    constexpr unsigned quarter = width / 4;
    const auto active = static_cast<std::uint32_t>((mine >> shift) & live_mask(quarter));
    // The low byte is the entry (table_bits masks it).
    const auto props = Isa::gather(
        table, code_points<K>(lead_bytes, second_bytes, third_bytes, fourth_bytes), active);
    table_bits<Words, Width>(props, shift, out);
  }

  /// The code points of the characters that start in one quarter of a
  /// vector of the block, one per 32-bit lane (garbage in the lanes of
  /// other bytes).
  template <int K>
  static auto code_points(B lead_bytes, B second_bytes, B third_bytes, B fourth_bytes) noexcept {
    using W = typename Isa::wide;
    const W lead = Isa::template widen<K>(lead_bytes);
    const W second = Isa::template widen<K>(second_bytes) & W(0x3F);
    const W third = Isa::template widen<K>(third_bytes) & W(0x3F);
    // C2..DF: 5 + 6 bits. E0..EF: 4 + 6 + 6 bits. F0 9x: plane 1, whose
    // last 16 bits are laid out as a three-byte form's, one byte later.
    const W two = Isa::template shift_left<6>(lead & W(0x1F)) | second;
    const auto four = (lead & W(0xF0)) == W(0xF0);
    const W high = xsimd::select(four, second, lead) & W(0x0F);
    const W middle = xsimd::select(four, third, second);
    const W low = xsimd::select(four, Isa::template widen<K>(fourth_bytes) & W(0x3F), third);
    const W three = Isa::template shift_left<12>(high) | Isa::template shift_left<6>(middle) | low |
                    xsimd::select(four, W(0x10000), W(0));
    return xsimd::select((lead & W(0xE0)) == W(0xE0), three, two);
  }

  /// The bits of table entries `props`, one per 32-bit lane, at `shift`.
  template <bool Words, bool Width, class W>
  static void table_bits(const W &props, unsigned shift, CharMasks &out) noexcept {
    if constexpr (Words) {
      out.sep |= std::uint64_t{Isa::wide_bits((props & W(unit_props::separator)) != W(0))} << shift;
      out.con |= std::uint64_t{Isa::wide_bits((props & W(unit_props::constituent)) != W(0))}
                 << shift;
    }
    if constexpr (Width) {
      const W columns = props & W(unit_props::width_mask);
      out.w1 |= std::uint64_t{Isa::wide_bits(columns == W(1u << unit_props::width_shift))} << shift;
      out.w2 |= std::uint64_t{Isa::wide_bits(columns == W(2u << unit_props::width_shift))} << shift;
    }
  }

  /// classify_by_table's lookups for the characters `mine` of quarters
  /// First.. of the block, at most 16 of them, packed into one gather: a
  /// gather costs the same (3.9 ns on Zen 4) whether 1 or 16 of its lanes
  /// are active, and mixed-script text has about 14 characters a block to
  /// look up (bench/run's multilingual corpus: one gather in three blocks
  /// out of four, two in the others, instead of four; -w 7-12% faster). The
  /// bits come back in packed order and are deposited at their leads.
  template <bool Words, bool Width, int First, int... K>
  static void packed_lookup(const std::uint8_t *table, const Block &b, const Block &next1,
                            const Block &next2, const Block &next3, std::uint64_t mine,
                            CharMasks &m) noexcept {
    using W = typename Isa::wide;
    static_assert(lanes == 1 && W::size == 16, "one 64-byte vector a block, 16 lanes of wide");
    W packed(0);
    unsigned fill = 0;
    (
        [&] {
          const auto active = static_cast<std::uint32_t>((mine >> (16 * (First + K))) & 0xFFFF);
          const W points = Isa::compress(
              code_points<First + K>(b.v[0], next1.v[0], next2.v[0], next3.v[0]), active);
          packed = packed | Isa::expand(points, (0xFFFFu << fill) & 0xFFFF);
          fill += static_cast<unsigned>(popcount(active));
        }(),
        ...);
    CharMasks found{0, 0, 0, 0};
    const auto used = static_cast<std::uint32_t>(live_mask(fill));
    table_bits<Words, Width>(Isa::gather(table, packed, used), 0, found);
    constexpr std::uint64_t quarters = live_mask(16 * sizeof...(K)) << (16 * First);
    const std::uint64_t leads = mine & quarters;
    m.sep |= Isa::deposit(found.sep, leads);
    m.con |= Isa::deposit(found.con, leads);
    m.w1 |= Isa::deposit(found.w1, leads);
    m.w2 |= Isa::deposit(found.w2, leads);
  }

  /// Classifies the characters among `slow` below U+20000 by their entries
  /// in the table of planes 0 and 1; returns the characters left (four-byte
  /// ones beyond plane 1). q[64..67] must be readable.
  /// Out of line, like ascii_run: inlined into utf8_plan it made the
  /// whole loop 10-25% slower (register pressure, measured).
  template <bool Words, bool Width>
  [[gnu::noinline]] static std::uint64_t classify_by_table(const std::uint8_t *table,
                                                           const Block &b, const std::uint8_t *q,
                                                           std::uint64_t slow,
                                                           CharMasks &m) noexcept {
    const Block next1 = load(q + 1);
    // Leads of four bytes, but F0 followed by 90..9F (U+10000..U+1FFFF).
    const std::uint64_t beyond = bits(b, [](B v) { return Isa::le(B(0xF1), v); }) |
                                 (bits(b, [](B v) { return v == B(0xF0); }) &
                                  ~bits(next1, [](B v) { return (v & B(0xF0)) == B(0x90); }));
    const std::uint64_t mine = slow & ~beyond;
    if (mine == 0) return slow;
    const Block next2 = load(q + 2);
    const Block next3 = load(q + 3);
    if constexpr (Isa::has_compress) {
      // One gather for the block, else one a half: characters of two bytes
      // or more start at most 16 in 32 bytes.
      if (popcount(mine) <= 16) {
        packed_lookup<Words, Width, 0, 0, 1, 2, 3>(table, b, next1, next2, next3, mine, m);
      } else {
        packed_lookup<Words, Width, 0, 0, 1>(table, b, next1, next2, next3, mine, m);
        packed_lookup<Words, Width, 2, 0, 1>(table, b, next1, next2, next3, mine, m);
      }
    } else {
      // One gather a quarter of each vector.
      CharMasks found{0, 0, 0, 0};
      for (std::size_t l = 0; l < lanes; ++l) {
        const auto base = static_cast<unsigned>(l * width);
        [&]<int... K>(std::integer_sequence<int, K...>) {
          (table_quarter<K, Words, Width>(table, b.v[l], next1.v[l], next2.v[l], next3.v[l], mine,
                                          base + static_cast<unsigned>(K) * (width / 4), found),
           ...);
        }
        (std::make_integer_sequence<int, 4>{});
      }
      m.sep |= found.sep & mine;
      m.con |= found.con & mine;
      m.w1 |= found.w1 & mine;
      m.w2 |= found.w2 & mine;
    }
    return slow & beyond;
  }

  /// Bit i: bit (last[i] & 63) of `exceptions` is set, for the bytes
  /// `last` that end the characters of one cell.
  static std::uint64_t exception_bits(const Block &last, std::uint64_t exceptions) noexcept {
    // Each 16-byte lane holds the 8 bytes of `exceptions` twice; indices
    // are below 8.
    using Q = xsimd::batch<std::uint64_t, A>;
    const B bytes = xsimd::bitwise_cast<B>(Q(exceptions));
    const B bit = xsimd::bitwise_cast<B>(Q(0x8040201008040201u));
    return bits(last, [&](B v) {
      const B x = v & B(0x3F);
      return (Isa::lookup(bytes, Isa::template shift_right<3>(x)) & Isa::lookup(bit, x & B(7))) !=
             B(0);
    });
  }

  /// The cells (UnitClasses::cell) a kernel call has used lately,
  /// direct-mapped, so that a hot cell costs no call. Only a miss counts its
  /// characters toward the lead's examination, which only delays that.
  struct CellCache {
    static constexpr unsigned size = 16;
    std::uint32_t index[size];
    std::uint64_t exceptions[size];
    std::uint8_t props[size];
    /// Characters of three-byte leads E0..EF classified through cache hits,
    /// not yet counted toward their lead's examination.
    std::uint32_t pending[16];
    /// Once the table exists: blocks go to it first while at least half of
    /// the last 8 probed blocks mixed more cells than table_after_cells;
    /// then every 64th block probes the cells again.
    bool table_first;
    std::uint8_t probes;  ///< bit i: the i-th last probe was over budget
    std::uint32_t since_probe;
  };

  static void clear(CellCache &cache) noexcept {
    for (unsigned k = 0; k < CellCache::size; ++k) cache.index[k] = ~std::uint32_t{0};
    for (unsigned k = 0; k < 16; ++k) cache.pending[k] = 0;
    cache.table_first = false;
    cache.probes = 0;
    cache.since_probe = 0;
  }

  /// Reports the pending counts (UnitClasses::note_slow_lead); true when
  /// the lead planes changed.
  static bool flush(const Request &r, CellCache &cache) noexcept {
    bool changed = false;
    for (unsigned k = 0; k < 16; ++k) {
      if (cache.pending[k] == 0) continue;
      changed = r.classes->note_slow_lead(static_cast<std::uint8_t>(0xE0 + k), cache.pending[k]) ||
                changed;
      cache.pending[k] = 0;
    }
    return changed;
  }

  /// Classifies the multibyte characters `slow` (valid, not classified by
  /// lead) by their cell (UnitClasses::cell): one cell at a time, all of its
  /// characters in the block at once, but for the cell's exceptions.
  /// Returns the characters left: exceptions and characters above plane 1,
  /// and every character of the cells beyond the first `cells` (then
  /// `over_budget` is set).
  static std::uint64_t classify_by_cell(const Request &r, const Block &b, const std::uint8_t *q,
                                        std::uint64_t slow, CharMasks &m, LeadTables &tables,
                                        CellCache &cache, unsigned cells,
                                        bool &over_budget) noexcept {
    // q[64..68] are readable (utf8_plan's loop condition), so are these.
    const Block next1 = load(q + 1);
    const Block next2 = load(q + 2);
    const Block next3 = load(q + 3);
    std::uint64_t rest = 0;
    for (; slow != 0; --cells) {
      if (cells == 0) {
        over_budget = true;  // the rest is the table's
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
        if (pending >= 4096 && flush(r, cache)) tables = lead_tables(r.classes->lead_planes());
      }
      if (cache.index[slot] != cell) {
        if ((same & (same - 1)) == 0) {
          // Alone in its cell and not cached: one by one is cheaper than
          // fetching the cell (random bytes, or CJK before its lead's
          // planes are known, where nearly every character has its own).
          rest |= same;
          slow &= ~same;
          continue;
        }
        const CellInfo info = r.classes->cell(cell, static_cast<std::uint32_t>(popcount(same)));
        if (info.planes_changed) tables = lead_tables(r.classes->lead_planes());
        cache.index[slot] = cell;
        cache.exceptions[slot] = info.exceptions;
        cache.props[slot] = info.props;
      }
      const std::uint64_t exceptions = cache.exceptions[slot];
      const std::uint8_t props = cache.props[slot];
      const std::uint64_t odd = exceptions != 0 ? same & exception_bits(*last, exceptions) : 0;
      const std::uint64_t normal = same & ~odd;
      if ((props & unit_props::separator) != 0) m.sep |= normal;
      if ((props & unit_props::constituent) != 0) m.con |= normal;
      const unsigned w = (props & unit_props::width_mask) >> unit_props::width_shift;
      if (w == 1) m.w1 |= normal;
      if (w == 2) m.w2 |= normal;
      rest |= odd;
      slow &= ~same;
    }
    return rest;
  }

  /// Cells a block's characters are looked up by (UnitClasses::cell)
  /// before the rest go to the table. Measured: one-script lines
  /// (bench_kernels' multilingual corpus) ran at 2.8 GB/s table-first and
  /// 4.2 GB/s with 4 cells first; scripts mixed within lines (bench/run's)
  /// ran 1.3-2x slower with any cells first, hence the probing.
  static constexpr unsigned table_after_cells = 4;

  /// Counts one block's units (bits below u.end).
  template <bool Rule95, bool Words, bool Width>
  static void utf8_block(const Request &r, UnitAccumulator &acc, const Block &b, const Units &u,
                         const std::uint8_t *q, LeadTables &tables, CellCache &cache) noexcept {
    const std::uint64_t live = live_mask(u.end);
    acc.summary.lines += popcount(newline_bits(b) & live);
    acc.summary.chars += popcount((u.ascii | u.lead) & live);
    if constexpr (Words || Width) {
      CharMasks m{0, 0, 0, 0};
      if constexpr (Words) {
        m.sep = space_bits(b) & u.ascii;
        // 9.5: encoding errors and every non-space character are part of a
        // word; 9.1: only printable ones, errors are transparent.
        m.con = Rule95 ? (~m.sep & u.ascii) | u.invalid : graph_bits(b) & u.ascii;
      }
      if constexpr (Width) m.w1 = print_bits(b) & u.ascii;
      const std::uint64_t leads = u.lead & live;
      if (leads != 0) {
        std::uint64_t slow = leads;
        if constexpr (Isa::has_shuffle) {
          slow &= ~classify_by_lead<Words, Width>(tables, b, leads, m);
          // Text in one script keeps to a few cells a block, which the cell
          // cache answers at once; text that mixes more cells than that
          // goes to the table, whose gathers cost the same for any mix.
          unsigned cells = 64;  // no budget: a block has at most 64 characters
          if (Isa::has_gather && tables.bmp != nullptr) {
            const bool probe = !cache.table_first || (++cache.since_probe & 63) == 0;
            cells = probe ? table_after_cells : 0;
          }
          if (slow != 0 && cells != 0) {
            bool over_budget = false;
            slow = classify_by_cell(r, b, q, slow, m, tables, cache, cells, over_budget);
            if (cells == table_after_cells) {
              cache.probes = static_cast<std::uint8_t>((cache.probes << 1) | (over_budget ? 1 : 0));
              cache.table_first = popcount(cache.probes) >= 4;
            }
          }
        }
        if constexpr (Isa::has_gather) {
          if (slow != 0 && tables.bmp != nullptr)
            slow = classify_by_table<Words, Width>(tables.bmp, b, q, slow, m);
        }
        if (slow != 0 && classify_multibyte(*r.classes, q, slow, m)) {
          if constexpr (Isa::has_shuffle) tables = lead_tables(r.classes->lead_planes());
        }
      }
      if constexpr (Words) Acc::words(acc, m.sep & live, m.con & live);
      if constexpr (Width)
        Acc::widths(acc, m.w1, m.w2, tab_bits(b), break_bits(b), static_cast<unsigned>(u.end));
    }
  }

  /// Counts the ASCII blocks from pos (which is one) until a block that is
  /// not ASCII or that would pass `limit`; returns where it stopped. Out of
  /// line so that its state stays in registers, away from the rest of the
  /// UTF-8 loop's calls.
  template <bool Rule95, bool Words, bool Width>
  [[gnu::noinline]] static std::size_t ascii_run(const std::uint8_t *p, std::size_t pos,
                                                 std::size_t limit,
                                                 UnitAccumulator &result) noexcept {
    UnitAccumulator acc = result;
    std::uint64_t chars = 0;
    do {
      // One-byte units with the C locale's classes.
      c_block<Rule95, Words, Width>(acc, load(p + pos), 64, false);
      chars += 64;
      pos += 64;
    } while (pos + 64 <= limit && sign_bits(load(p + pos)) == 0);
    acc.summary.chars += chars;
    result = acc;
    return pos;
  }

  template <bool Rule95, bool Words, bool Width>
  static BodyResult utf8_plan(const Request &request, const std::uint8_t *p,
                              std::size_t n) noexcept {
    // A local accumulator, not out.acc, which the compiler would keep in
    // memory (a store and a reload per update) across the calls below.
    UnitAccumulator acc{};
    Validator check{};
    if constexpr (Isa::has_shuffle) check = validator();
    LeadTables tables{};
    CellCache cache;
    if constexpr (Isa::has_shuffle && (Words || Width)) {
      tables = lead_tables(request.classes->lead_planes());
      clear(cache);
    }
    const bool rfc3629 = request.utf8_decoding == Utf8Decoding::rfc3629;
    std::size_t pos = 0;
    // Every block needs five bytes of lookahead for exact_units.
    while (pos + 64 + 5 <= n) {
      const std::uint8_t *q = p + pos;
      const Block b = load(q);
      if (sign_bits(b) == 0) {
        pos = ascii_run<Rule95, Words, Width>(p, pos, n - 5, acc);
        continue;
      }
      // The next block's address depends on this block's bytes (a cut
      // character moves it back), which hides the addresses from the
      // hardware prefetcher's view of the loop: fetch ahead explicitly.
      __builtin_prefetch(q + 1024);
      Units u{};
      if constexpr (Isa::has_shuffle)
        u = valid_utf8(check, b) ? valid_units(b, q)
                                 : exact_units < Words || Width > (b, q, rfc3629);
      else
        u = exact_units < Words || Width > (b, q, rfc3629);
      utf8_block<Rule95, Words, Width>(request, acc, b, u, q, tables, cache);
      pos += u.end;
    }
    if constexpr (Isa::has_shuffle && (Words || Width)) flush(request, cache);
    // The last bytes, and a trailing incomplete sequence: the scalar path.
    // (A copy: taking acc's address would keep it in memory all along.)
    UnitAccumulator last = acc;
    const SpanEnd e = utf8_span(request, p, pos, n, n, last);
    return {last, n - e.pos};
  }

  static BodyResult run(const Request &r, const std::uint8_t *p, std::size_t n) noexcept {
    switch (r.plan) {
      case Plan::newlines: {
        BodyResult out{};
        out.acc.summary.lines = count_newlines(p, n);
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
