// SPDX-License-Identifier: GPL-3.0-or-later
// The counting kernels' interface: one template over the xsimd architecture,
// defined out of line in kernel_driver.hpp and instantiated once per ISA in
// kernel_<isa>.cpp (each its own static library built with only that ISA's
// flags), plus the plain C++ scalar kernel and the exact scalar UTF-8 path
// that the SIMD kernels hand unusual blocks to. Choosing a kernel for the
// running CPU is dispatch.hpp's job.
//
// A kernel counts the *body* of a chunk: bytes that a decoder starting fresh
// at the first byte sees as whole units. It returns the units' accumulated
// summary and, for UTF-8 plans, how many trailing bytes form an incomplete
// sequence (left for the next chunk). ChunkSummarizer (chunk_summarizer.hpp) cuts
// chunks into prefix, body and tail and merges the results.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernel_config.hpp"
#include "count/summary_ops.hpp"
#include "fastwc/options.hpp"

#if FASTWC_KERNELS_X86
#include <xsimd/xsimd.hpp>
#endif

namespace fastwc::count {
class UnitClasses;
}

namespace fastwc::count::kernels {

/// The fewest bytes a SIMD kernel's UTF-8 loop takes a block from: one
/// 64-byte block and the five bytes of lookahead that exact_units needs to
/// decide the leads near its end. Shorter bodies go to the scalar tail.
inline constexpr std::size_t simd_block_with_lookahead = 64 + 5;

/// What a kernel computes. Every plan counts 0x0A bytes too; UTF-8 plans
/// count characters too. Nothing else is computed: -l never pays for words.
enum class Plan : std::uint8_t {
  newlines,           ///< only 0x0A matters (-l, -c, and -m in single-byte locales)
  bytes_words,        ///< per-byte loop of single-byte locales: words
  bytes_width,        ///< per-byte loop: -L
  bytes_words_width,  ///< per-byte loop: words and -L
  utf8_chars,         ///< UTF-8: characters
  utf8_words,         ///< UTF-8: words (and characters)
  utf8_width,         ///< UTF-8: -L (and characters)
  utf8_words_width,   ///< UTF-8: words and -L (and characters)
  /// UTF-8, GNU 9.5+'s word rule, neither -m nor -L: words (and newlines)
  /// alone, from the separators' byte patterns where UnitClasses has their
  /// census (separator_bytes.hpp). Characters are not counted: 0.
  utf8_separator_words,
  /// UTF-8, GNU 9.1's word rule (to 9.4), neither -m nor -L: words (and
  /// newlines) alone, each character's class at its lead byte, over any
  /// bytes without validating them where UnitClasses has its census by
  /// cell (leads_alone.hpp); with VBMI, in stride over
  /// valid blocks only, as utf8_words (kernel_driver.hpp says why).
  /// Characters are not counted: 0.
  utf8_lead_words,
  /// UTF-8, -L without -m or -w: widths (and newlines) alone, as
  /// utf8_width counts them, but blocks that fail the validator judged by
  /// their leads (leads_alone.hpp) where UnitClasses has its census by
  /// cell. Characters are not counted: 0.
  utf8_lead_width,
};

/// True for the plans that decode UTF-8 (and so may leave a tail).
constexpr bool decodes_utf8(Plan plan) noexcept { return plan >= Plan::utf8_chars; }

/// True for the UTF-8 plans that count characters (all but three).
constexpr bool counts_chars(Plan plan) noexcept {
  return decodes_utf8(plan) && plan != Plan::utf8_separator_words &&
         plan != Plan::utf8_lead_words && plan != Plan::utf8_lead_width;
}

struct Request {
  Plan plan;
  /// WordRule::non_space_constituents (GNU >= 9.5): no transparent units.
  bool rule95;
  /// SIMD kernels may hard-code the C locale's byte classes (for every
  /// byte in per-byte plans, for ASCII in UTF-8 plans). When false, only
  /// the scalar kernel may run.
  bool c_byte_classes;
  /// With c_byte_classes in per-byte plans: byte A0 is also a separator
  /// (UnitClasses::a0_separates).
  bool a0_separates;
  /// Unit properties for the scalar paths; never null.
  const UnitClasses *classes;
  /// UTF-8 plans: glibc's decoder or RFC 3629's (CountOptions::utf8_decoding).
  Utf8Decoding utf8_decoding = Utf8Decoding::glibc;
};

struct BodyResult {
  UnitAccumulator acc;
  /// UTF-8 plans: the last tail_size bytes are an incomplete sequence and
  /// were not counted. Always 0 for the other plans.
  std::size_t tail_size;
};

/// Counts `size` bytes at `data` with the instruction set Arch. Requires
/// request.c_byte_classes. No alignment or padding requirement: the kernel
/// never reads outside [data, data + size).
template <class Arch>
BodyResult count_body(const Request &request, const std::uint8_t *data, std::size_t size) noexcept;

/// The same in plain C++ with table lookups; accepts every Request.
BodyResult count_body_scalar(const Request &request, const std::uint8_t *data,
                             std::size_t size) noexcept;

/// Where utf8_span stopped.
struct SpanEnd {
  std::size_t pos;  ///< first byte not consumed
  bool tail;        ///< the bytes from pos to the end are an incomplete sequence
};

/// The exact UTF-8 path: decodes units with request.utf8_decoding's rules from data[pos]
/// (a unit boundary) until a unit ends at or after `limit`, or an
/// incomplete sequence reaches data[size - 1], adding them to acc as the
/// UTF-8 plan in request.plan asks. Compiled with baseline flags; SIMD
/// kernels call it for every block they cannot classify themselves.
SpanEnd utf8_span(const Request &request, const std::uint8_t *data, std::size_t pos,
                  std::size_t limit, std::size_t size, UnitAccumulator &acc) noexcept;

/// For Plan::utf8_separator_words: the characters that start at the set
/// bits of `leads`, bytes that lead no character of UnitClasses' census
/// (F4..FF, whose sequences lie above U+10FFFF or do not decode: glibc's
/// decoder takes them up to its 5- and 6-byte forms; F0..F3 until the
/// census has walked their planes), decoded and classified one by one.
/// Returns the bytes of the separators among them as bits of the block at
/// q (bit i: q[i]) and ORs those past it into `spill`; adds the characters
/// that decoded to `decoded`. q[64..68] must be readable. Compiled with
/// baseline flags; called by the SIMD kernels.
std::uint64_t separators_beyond_census(const Request &request, const std::uint8_t *q,
                                       std::uint64_t leads, std::uint64_t &spill,
                                       std::uint64_t &decoded) noexcept;

/// Word and -L bits of up to 64 units of a block: bit i describes the unit
/// that starts at byte i.
struct CharMasks {
  std::uint64_t sep;  ///< separators
  std::uint64_t con;  ///< constituents
  std::uint64_t w1;   ///< one column wide
  std::uint64_t w2;   ///< two columns wide
};

/// Classifies, one by one, the multibyte characters whose lead bytes are
/// the set bits of `leads` (bit i: a complete valid sequence starts at
/// q[i]), OR-ing their bits into `out`; from the table of planes 0 and 1
/// where it is built (for kernels without gathers). Returns true when this made a lead
/// byte uniform (UnitClasses::note_slow_lead), so the caller may reload its
/// lead planes. Compiled with baseline flags; called by the SIMD kernels.
bool classify_multibyte(const UnitClasses &classes, const std::uint8_t *q, std::uint64_t leads,
                        CharMasks &out) noexcept;

#if FASTWC_KERNELS_X86
/// The AVX-512 kernel that also has VBMI's byte permutes over 64-byte
/// tables (vpermb). xsimd 8.1 has no such architecture: this one is
/// avx512bw to xsimd (kernel_avx512vbmi.cpp gives it avx512bw's registers),
/// and a type of its own, so that its code never shares a symbol with the
/// avx512bw kernel's, which must run on CPUs without VBMI.
struct avx512vbmi : xsimd::avx512bw {
  static constexpr char const *name() noexcept { return "avx512vbmi"; }
};
#endif

// One per row of the kernel table (src/count/meson.build).
#define FASTWC_DECLARE_KERNEL(name, arch, needs, hwcaps)                             \
  extern template BodyResult count_body<arch>(const Request &, const std::uint8_t *, \
                                              std::size_t) noexcept;
FASTWC_KERNEL_ROWS(FASTWC_DECLARE_KERNEL)
#undef FASTWC_DECLARE_KERNEL

}  // namespace fastwc::count::kernels
