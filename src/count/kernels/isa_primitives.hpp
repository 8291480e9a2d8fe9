// SPDX-License-Identifier: GPL-3.0-or-later
// The few primitives each instruction set supplies to the generic kernel
// stages (the other headers of this folder), stated as C++20 concepts. Each
// kernel_<isa>.cpp specializes IsaOps<A> for its xsimd architecture A with
// intrinsics: xsimd 8.1 lacks movemask, byte shuffles and whole-register
// byte shifts. The stages ask for optional capabilities with the has_*
// constants, and the concepts make a specialization that claims one but
// lacks its functions fail at its definition, not deep inside a stage.
#pragma once

#include <concepts>
#include <cstdint>

namespace fastwc::count::kernels {

/// Specialized in each kernel_<isa>.cpp.
template <class A>
struct IsaOps;

/// What every ISA has:
///   bits(batch_bool)        one bit per byte, lowest first
///   sign_bits(batch)        bit i = byte i >= 0x80
///   to_bytes(batch_bool)    0xFF / 0x00 per byte
///   sum_bytes(batch)        the sum of the bytes
///   le(a, b)                unsigned a <= b per byte
///   subs(a, b)              unsigned saturating a - b per byte
///   shift_right<K>(batch)   each byte >> K
///   continuation(batch)     bytes 80..BF (one signed compare)
///   count_into(counts, m)   counts + 1 in the bytes of m (per-byte counters)
///   shift_in<K>(cur, prev)  the bytes of (prev, cur) shifted up by K: byte
///                           i is cur[i - K], or prev[width + i - K] for i < K
template <class Ops>
concept BlockPrimitives = requires(typename Ops::batch v, typename Ops::batch_bool m) {
  { Ops::has_mask_registers } -> std::convertible_to<bool>;
  { Ops::has_shuffle } -> std::convertible_to<bool>;
  { Ops::has_permute64 } -> std::convertible_to<bool>;
  { Ops::has_gather } -> std::convertible_to<bool>;
  { Ops::has_compress } -> std::convertible_to<bool>;
  { Ops::bits(m) } -> std::same_as<std::uint64_t>;
  { Ops::sign_bits(v) } -> std::same_as<std::uint64_t>;
  { Ops::to_bytes(m) } -> std::same_as<typename Ops::batch>;
  { Ops::sum_bytes(v) } -> std::same_as<std::uint64_t>;
  { Ops::le(v, v) } -> std::same_as<typename Ops::batch_bool>;
  { Ops::subs(v, v) } -> std::same_as<typename Ops::batch>;
  { Ops::template shift_right<4>(v) } -> std::same_as<typename Ops::batch>;
  { Ops::continuation(v) } -> std::same_as<typename Ops::batch_bool>;
  { Ops::count_into(v, m) } -> std::same_as<typename Ops::batch>;
  { Ops::template shift_in<1>(v, v) } -> std::same_as<typename Ops::batch>;
};

/// has_shuffle (SSSE3 and up): byte table lookups.
///   lookup(table, index)    per 16-byte lane, like pshufb
template <class Ops>
concept ShufflePrimitives = requires(typename Ops::batch v) {
  { Ops::lookup(v, v) } -> std::same_as<typename Ops::batch>;
};

/// has_permute64 (AVX-512 VBMI): one lookup in a 64-byte table.
///   permute64(table, index)   byte i = table[index[i] & 63], like vpermb
///   permute64_where(table, index, m)  the same where bit i of m is set,
///                             0 elsewhere (vpermb with a zero mask)
///   permute128(t, index)      byte i = byte index[i] & 127 of the 128
///                             bytes t[0..1], by one vpermi2b (two
///                             operations on that port, as permute64 is one)
///   permute256(t, index)      byte i = byte index[i] of the 256 bytes
///                             t[0..3], by two vpermi2b and a blend on the
///                             index's sign bit (vpmovb2m: not the port
///                             every permute and compare needs)
///   shift_left_words<K>(v)    each 16-bit word << K
///   shift_right_words<K>(v)   each 16-bit word >> K: byte i's bits K..7
///                             low, the next byte's low bits above them
///                             (which permute64 does not read when K >= 2)
template <class Ops>
concept PermutePrimitives = requires(typename Ops::batch v, const typename Ops::batch (&t2)[2],
                                     const typename Ops::batch (&t)[4], std::uint64_t m) {
  { Ops::permute64(v, v) } -> std::same_as<typename Ops::batch>;
  { Ops::permute64_where(v, v, m) } -> std::same_as<typename Ops::batch>;
  { Ops::permute128(t2, v) } -> std::same_as<typename Ops::batch>;
  { Ops::permute256(t, v) } -> std::same_as<typename Ops::batch>;
  { Ops::template shift_left_words<3>(v) } -> std::same_as<typename Ops::batch>;
  { Ops::template shift_right_words<2>(v) } -> std::same_as<typename Ops::batch>;
};

/// has_gather (AVX2 and up): 32-bit lanes (`wide`) and gathers.
///   widen<K>(batch)         bytes K*w/4.. of a batch of w bytes, zero-
///                           extended to 32 bits each
///   shift_left<N>(wide)     each lane << N
///   gather(base, offset, active)  32 bits loaded at base + offset for the
///                           lanes whose bit is set in `active`, 0 elsewhere
///   wide_bits(wide mask)    one bit a lane
template <class Ops>
concept GatherPrimitives = requires(typename Ops::batch v, typename Ops::wide w,
                                    const std::uint8_t *base,
                                    typename Ops::wide::batch_bool_type wm, std::uint32_t active) {
  { Ops::template widen<0>(v) } -> std::same_as<typename Ops::wide>;
  { Ops::template shift_left<6>(w) } -> std::same_as<typename Ops::wide>;
  { Ops::gather(base, w, active) } -> std::same_as<typename Ops::wide>;
  { Ops::wide_bits(wm) } -> std::same_as<std::uint32_t>;
};

/// has_compress (AVX-512): packing lanes, so that one gather serves a block.
///   compress(wide, mask), expand(wide, mask), deposit(bits, mask) (pdep)
template <class Ops>
concept CompressPrimitives = requires(typename Ops::wide w, std::uint32_t m, std::uint64_t x) {
  { Ops::compress(w, m) } -> std::same_as<typename Ops::wide>;
  { Ops::expand(w, m) } -> std::same_as<typename Ops::wide>;
  { Ops::deposit(x, x) } -> std::same_as<std::uint64_t>;
};

/// A complete IsaOps: the base set, and the functions of each capability
/// it claims.
template <class Ops>
concept IsaPrimitives = BlockPrimitives<Ops> &&(!Ops::has_shuffle || ShufflePrimitives<Ops>)&&(
    !Ops::has_permute64 ||
    PermutePrimitives<Ops>)&&(!Ops::has_gather || GatherPrimitives<Ops>)&&(!Ops::has_compress ||
                                                                           CompressPrimitives<Ops>);

}  // namespace fastwc::count::kernels
