// SPDX-License-Identifier: GPL-3.0-or-later
// Standard (RFC 3629) UTF-8 validation of a block, with Keiser and Lemire's
// nibble-lookup algorithm ("Validating UTF-8 In Less Than One Instruction
// Per Byte", 2021, as in simdutf) where the ISA has byte shuffles
// (has_shuffle), with compares where it has not (SSE2). A block that
// passes is glibc's units too, since glibc accepts every standard
// sequence.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"

namespace fastwc::count::kernels {

template <class A>
struct Utf8Validation : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using Base::table;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;

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

  struct Validator {
    B prev_high;  // by the previous byte's high nibble
    B prev_low;   // by its low nibble
    B cur_high;   // by this byte's high nibble
    // errors()'s constants (Blocks::kept says why they are data).
    B after_three_byte_lead;  // E0 - 80
    B after_four_byte_lead;   // F0 - 80
    B expected;               // two_conts
  };

  static Validator validator() noexcept {
    if constexpr (!Isa::has_shuffle) return {};  // errors_by_compares' constants are immediates
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
    return {nibble_table(prev_high, true), nibble_table(prev_low, false),
            nibble_table(cur_high, true),  Base::kept(0xE0 - 0x80),
            Base::kept(0xF0 - 0x80),       Base::kept(two_conts)};
  }

  /// A table of 16 entries (Blocks::table's, repeated in every 16-byte
  /// lane) as by_high_nibble (high) or by_low_nibble reads it: with
  /// has_permute64, entry k of a high-nibble table is entry k >> 2 (the
  /// index is bits 2-7); the repeated table already serves the rest.
  static B nibble_table(B repeated, bool high) noexcept {
    if (!(Isa::has_permute64 && high)) return repeated;
    alignas(64) std::uint8_t entries[64];
    alignas(64) std::uint8_t t[64];
    repeated.store_aligned(entries);
    for (unsigned k = 0; k < 64; ++k) t[k] = entries[k >> 2];
    return B::load_aligned(t);
  }

  /// The entry of each byte's high nibble. With has_permute64 one permute
  /// by bits 2-7 (a 64-entry table, nibble_table's), which needs no mask:
  /// the permute reads six bits of the shifted word, where a byte shuffle
  /// needs the byte's high nibble alone.
  static B by_high_nibble(B table, B v) noexcept {
    if constexpr (Isa::has_permute64)
      return Isa::permute64(table, Isa::template shift_right_words<2>(v));
    else
      return Isa::lookup(table, Isa::template shift_right<4>(v));
  }

  /// The entry of each byte's low nibble; with has_permute64, again with no
  /// mask (the table repeats every 16 entries).
  static B by_low_nibble(B table, B v) noexcept {
    if constexpr (Isa::has_permute64)
      return Isa::permute64(table, v);
    else
      return Isa::lookup(table, v & B(0x0F));
  }

  /// Bit i: the lead byte b[i] and the byte after it (second[i]) start no
  /// standard sequence whatever follows: an overlong form (C0, C1, E0
  /// 80..9F, F0 80..8F), a surrogate (ED A0..BF), or a value above
  /// U+10FFFF (F4 90..BF, F5..FF). The validator's pair rules alone,
  /// without those on continuation bytes.
  static std::uint64_t start_errors(const Validator &t, const Block &b,
                                    const Block &second) noexcept {
    constexpr std::uint8_t starts =
        overlong2 | overlong3 | overlong4 | surrogate | too_large | large1000;
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B pair = by_high_nibble(t.prev_high, b.v[i]) & by_low_nibble(t.prev_low, b.v[i]) &
                     by_high_nibble(t.cur_high, second.v[i]) & B(starts);
      m |= Isa::bits(pair != B(0)) << (i * width);
    }
    return m;
  }

  /// True when the 64 bytes at a unit boundary are standard UTF-8, except
  /// that a sequence may be cut by the block's end.
  static bool valid_utf8(const Validator &t, const Block &b) noexcept {
    return valid_utf8_after(t, b, B(0));  // a unit boundary: as if ASCII came before
  }

  /// The same for a block that follows, without a gap, a block whose last
  /// vector is `before` and that passed: true when the sequences cut by
  /// that block's end continue correctly here and this block is standard
  /// UTF-8 but for a sequence its own end may cut. Every rule ties a byte
  /// to at most the three before it, so the two verdicts together cover
  /// every character that starts in the first block.
  static bool valid_utf8_after(const Validator &t, const Block &b, B before) noexcept {
    return passes(errors_after(t, b, before));
  }

  /// valid_utf8_after for the block b at q, which follows the block that
  /// passed in memory, whose last vector is `before`. With AVX-512 the
  /// bytes one, two and three back are loaded: shifting them in from the
  /// vectors takes four byte shuffles on the one port that every permute,
  /// compare and test also needs there (-m 1.03x). With narrower vectors,
  /// which have a third port for them, the loads cost more than the
  /// shuffles (AVX2 -m 0.9x): shifted in, as valid_utf8_after. But SSE2,
  /// without palignr, shifts with two shifts and an or: loaded (-m
  /// Cyrillic 3.5 -> 4.0 GB/s).
  static bool valid_utf8_at(const Validator &t, const Block &b, B before,
                            const std::uint8_t *q) noexcept {
    return passes(errors_at(t, b, before, q));
  }

  /// Whether the strides over valid text go two blocks a step, with one
  /// test of both verdicts (valid_utf8_pair_at): with AVX-512; AVX2, with
  /// sixteen registers, lost (-m 0.84-0.91x). Measured where each stride
  /// says (chars_in_stride.hpp, separator_chars_in_stride.hpp).
  static constexpr bool in_pairs = Isa::has_mask_registers;

  /// valid_utf8_at for the block b at q and for the block `after` at
  /// q + 64, with one test for both (in_pairs).
  static bool valid_utf8_pair_at(const Validator &t, const Block &b, const Block &after, B before,
                                 const std::uint8_t *q) noexcept {
    return passes(errors_at(t, b, before, q) | errors_at(t, after, b.v[lanes - 1], q + 64));
  }

 private:
  /// Whether `error` (errors(), or'ed) marks no error.
  static bool passes(B error) noexcept {
    if constexpr (Isa::has_shuffle)
      return Isa::bits(error != B(0)) == 0;
    else
      return Isa::sign_bits(error) == 0;  // errors_by_compares' sign bits
  }

  /// The errors of valid_utf8_after's block, or'ed across its vectors.
  static B errors_after(const Validator &t, const Block &b, B before) noexcept {
    B error(0);
    B prev = before;
    for (std::size_t i = 0; i < lanes; ++i) {
      const B cur = b.v[i];
      error = error | errors(t, cur, Isa::template shift_in<1>(cur, prev),
                             Isa::template shift_in<2>(cur, prev),
                             Isa::template shift_in<3>(cur, prev));
      prev = cur;
    }
    return error;
  }

  /// The errors of valid_utf8_at's block, or'ed across its vectors.
  static B errors_at(const Validator &t, const Block &b, B before, const std::uint8_t *q) noexcept {
    if constexpr (!Isa::has_mask_registers && Isa::has_shuffle) {
      return errors_after(t, b, before);
    } else {
      B error(0);
      for (std::size_t i = 0; i < lanes; ++i) {
        const std::uint8_t *const at = q + i * width;
        error = error | errors(t, b.v[i], B::load_unaligned(at - 1), B::load_unaligned(at - 2),
                               B::load_unaligned(at - 3));
      }
      return error;
    }
  }

  /// The error bits of the bytes cur, the bytes one, two and three before
  /// each being prev1, prev2, prev3.
  [[gnu::always_inline]] static B errors(const Validator &t, B cur, B prev1, B prev2,
                                         B prev3) noexcept {
    if constexpr (!Isa::has_shuffle) {
      return errors_by_compares(cur, prev1, prev2, prev3);
    } else {
      const B special = by_high_nibble(t.prev_high, prev1) & by_low_nibble(t.prev_low, prev1) &
                        by_high_nibble(t.cur_high, cur);
      // Third and fourth bytes of 3- and 4-byte sequences must be
      // continuations, which is when two_conts (0x80) is expected.
      const B must23 =
          Isa::subs(prev2, t.after_three_byte_lead) | Isa::subs(prev3, t.after_four_byte_lead);
      return special ^ (must23 & t.expected);
    }
  }

  /// errors() without byte shuffles: the same rules, each by compares
  /// (about forty operations a vector, the lookups' fifteen). Its sign
  /// bits mark the errors; its other bits mean nothing.
  [[gnu::always_inline]] static B errors_by_compares(B cur, B prev1, B prev2, B prev3) noexcept {
    // v < bound for bytes 80..FF: one signed compare, where the unsigned
    // one takes two (Isa::le).
    using S = xsimd::batch<std::int8_t, A>;
    const auto below = [](B v, std::uint8_t bound) {
      const auto less = xsimd::bitwise_cast<S>(v) < S(static_cast<std::int8_t>(bound));
      return Isa::to_bytes(M(static_cast<typename S::batch_bool_type::register_type>(less)));
    };
    const auto is = [](B v, std::uint8_t byte) { return Isa::to_bytes(v == B(byte)); };
    // A continuation exactly where a lead one, two or three bytes back
    // wants one (the sign bit of the saturated differences: a lead of two
    // bytes or more, of three or more, of four or more).
    const B must = Isa::subs(prev1, B(0xC0 - 0x80)) | Isa::subs(prev2, B(0xE0 - 0x80)) |
                   Isa::subs(prev3, B(0xF0 - 0x80));
    const B structure = must ^ Isa::to_bytes(Isa::continuation(cur));
    // Leads that start no standard sequence: C0, C1 (overlong), F5..FF.
    const B bad_lead = is(cur & B(0xFE), 0xC0) | Isa::to_bytes(Isa::le(B(0xF5), cur));
    // A second byte out of its lead's range: E0 80..9F and F0 80..8F
    // (overlong), ED A0..BF (surrogates), F4 90..BF (above U+10FFFF). A
    // byte that is no continuation fails `structure` already.
    const B second = (is(prev1, 0xE0) & below(cur, 0xA0)) | (is(prev1, 0xF0) & below(cur, 0x90)) |
                     (is(prev1, 0xED) & ~below(cur, 0xA0)) | (is(prev1, 0xF4) & ~below(cur, 0x90));
    return structure | bad_lead | second;
  }
};

}  // namespace fastwc::count::kernels
