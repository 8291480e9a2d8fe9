// SPDX-License-Identifier: GPL-3.0-or-later
// The scalar kernel: every plan in plain C++, one unit at a time through the
// unit property tables (unit_classes.hpp), so it serves any single-byte
// locale whose byte classes differ from C's. It is the fallback where no
// SIMD kernel runs; its UTF-8 path (utf8_span) is also what the SIMD
// kernels call for a chunk's last bytes, and classify_multibyte is their
// per-character classifier. Compiled with baseline flags only.
#include "count/kernels/apply_unit.hpp"
#include "count/kernels/kernel.hpp"
#include "count/unit_classes.hpp"
#include "count/utf8_decoder.hpp"

namespace fastwc::count::kernels {

namespace {

template <bool Words, bool Width>
inline void apply(UnitAccumulator &acc, std::uint8_t props) noexcept {
  ApplyUnit<BaselineTag, Words, Width>::apply(acc, props);
}

std::uint64_t count_newlines(const std::uint8_t *data, std::size_t size) noexcept {
  std::uint64_t lines = 0;
  for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n' ? 1 : 0;
  return lines;
}

template <bool Words, bool Width>
void bytes_plan(const UnitClasses &classes, const std::uint8_t *data, std::size_t size,
                UnitAccumulator &result) noexcept {
  // Words alone count in a local accumulator: stores through `result`,
  // which the byte loads may alias, would keep the counts in memory. (With
  // -L the copy cost more than it saved.)
  UnitAccumulator local = result;
  UnitAccumulator &acc = Width ? result : local;
  for (std::size_t i = 0; i < size; ++i) apply<Words, Width>(acc, classes.byte(data[i]));
  if constexpr (!Width) result = local;
}

template <bool Words, bool Width>
SpanEnd utf8_units(const UnitClasses &classes, Utf8Decoding decoding, const std::uint8_t *data,
                   std::size_t pos, std::size_t limit, std::size_t size,
                   UnitAccumulator &result) noexcept {
  UnitAccumulator local = result;  // as in bytes_plan
  UnitAccumulator &acc = Width ? result : local;
  std::uint64_t chars = 0;
  SpanEnd end{pos, false};
  while (end.pos < limit) {
    const std::uint8_t lead = data[end.pos];
    if (lead < 0x80) {
      // wc's multibyte loop handles ASCII bytes without mbrtowc, with the
      // per-byte classes (isprint/isspace).
      apply<Words, Width>(acc, classes.byte(lead));
      ++chars;
      ++end.pos;
      continue;
    }
    const DecodeResult r = decode_utf8(data + end.pos, size - end.pos, decoding);
    if (r.status == DecodeStatus::ok) {
      if constexpr (Words || Width) apply<Words, Width>(acc, classes.wide(r.code_point));
      ++chars;
      end.pos += r.length;
    } else if (r.status == DecodeStatus::invalid) {
      // wc drops one byte per encoding error and decodes again from the
      // next one (9.1: p++; 9.5 also counts it as a word character).
      if constexpr (Words || Width) apply<Words, Width>(acc, classes.invalid());
      ++end.pos;
    } else {
      end.tail = true;  // runs past the end of the data: the next chunk decides
      break;
    }
  }
  acc.summary.chars += chars;
  if constexpr (!Width) result = local;
  return end;
}

}  // namespace

SpanEnd utf8_span(const Request &request, const std::uint8_t *data, std::size_t pos,
                  std::size_t limit, std::size_t size, UnitAccumulator &acc) noexcept {
  const UnitClasses &classes = *request.classes;
  switch (request.plan) {
    case Plan::utf8_words:
    case Plan::utf8_separator_words:
    case Plan::utf8_lead_words:
      return utf8_units<true, false>(classes, request.utf8_decoding, data, pos, limit, size, acc);
    case Plan::utf8_width:
    case Plan::utf8_lead_width:
      return utf8_units<false, true>(classes, request.utf8_decoding, data, pos, limit, size, acc);
    case Plan::utf8_words_width:
      return utf8_units<true, true>(classes, request.utf8_decoding, data, pos, limit, size, acc);
    default:
      return utf8_units<false, false>(classes, request.utf8_decoding, data, pos, limit, size, acc);
  }
}

std::uint64_t separators_beyond_census(const Request &request, const std::uint8_t *q,
                                       std::uint64_t leads, std::uint64_t &spill,
                                       std::uint64_t &decoded) noexcept {
  std::uint64_t sep = 0;
  for (; leads != 0; leads &= leads - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(leads));
    // In binary data most are encoding errors, constituents.
    if ((q[i + 1] & 0xC0) != 0x80) continue;
    const DecodeResult d = decode_utf8(q + i, simd_block_with_lookahead - i, request.utf8_decoding);
    if (d.status != DecodeStatus::ok) continue;
    ++decoded;
    if ((request.classes->wide(d.code_point) & unit_props::word_mask) != unit_props::separator)
      continue;
    const std::uint64_t all = (std::uint64_t{1} << d.length) - 1;
    sep |= all << i;
    if (i + d.length > 64) spill |= all >> (64 - i);
  }
  return sep;
}

bool classify_multibyte(const UnitClasses &classes, const std::uint8_t *q, std::uint64_t leads,
                        CharMasks &out) noexcept {
  std::uint8_t per_lead[64];  // characters per lead byte C0..FF in this block
  std::uint64_t seen = 0;
  // Locals, not `out`, so that the compiler keeps them in registers (q may
  // alias anything) and iterations can overlap.
  std::uint64_t sep = 0, con = 0, w1 = 0, w2 = 0;
  const std::uint8_t *const bmp = classes.bmp_table();
  while (leads != 0) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(leads));
    leads &= leads - 1;
    // The kernel found a complete valid sequence here: decode it directly.
    const std::uint8_t lead = q[i];
    char32_t c = 0;
    if (lead < 0xE0) {
      c = (static_cast<char32_t>(lead & 0x1F) << 6) | (q[i + 1] & 0x3Fu);
    } else if (lead < 0xF0) {
      c = (static_cast<char32_t>(lead & 0x0F) << 12) | ((q[i + 1] & 0x3Fu) << 6) |
          (q[i + 2] & 0x3Fu);
    } else {
      const unsigned length = utf8_sequence_length(lead);
      c = lead & (0x7Fu >> length);
      for (unsigned k = 1; k < length; ++k) c = (c << 6) | (q[i + k] & 0x3Fu);
    }
    // The table of planes 0 and 1, once built, is one load (the SIMD
    // kernels without gathers look it up here).
    const unsigned props = bmp != nullptr && c < 0x20000 ? bmp[c] : classes.wide(c);
    sep |= std::uint64_t{props & unit_props::separator} << i;
    con |= std::uint64_t{(props & unit_props::constituent) >> 1} << i;
    const unsigned width = (props & unit_props::width_mask) >> unit_props::width_shift;
    w1 |= std::uint64_t{width & 1} << i;
    w2 |= std::uint64_t{width >> 1} << i;
    const unsigned slot = lead - 0xC0u;
    const std::uint64_t slot_bit = std::uint64_t{1} << slot;
    if ((seen & slot_bit) == 0) per_lead[slot] = 0;
    seen |= slot_bit;
    ++per_lead[slot];
  }
  out.sep |= sep;
  out.con |= con;
  out.w1 |= w1;
  out.w2 |= w2;
  bool refreshed = false;
  for (; seen != 0; seen &= seen - 1) {
    const unsigned slot = static_cast<unsigned>(__builtin_ctzll(seen));
    refreshed =
        classes.note_slow_lead(static_cast<std::uint8_t>(0xC0 + slot), per_lead[slot]) || refreshed;
  }
  return refreshed;
}

BodyResult count_body_scalar(const Request &request, const std::uint8_t *data,
                             std::size_t size) noexcept {
  BodyResult out{};
  const UnitClasses &classes = *request.classes;
  switch (request.plan) {
    case Plan::newlines:
      out.acc.summary.lines = count_newlines(data, size);
      break;
    case Plan::bytes_words:
      bytes_plan<true, false>(classes, data, size, out.acc);
      break;
    case Plan::bytes_width:
      bytes_plan<false, true>(classes, data, size, out.acc);
      break;
    case Plan::bytes_words_width:
      bytes_plan<true, true>(classes, data, size, out.acc);
      break;
    case Plan::utf8_chars:
    case Plan::utf8_words:
    case Plan::utf8_width:
    case Plan::utf8_words_width:
    case Plan::utf8_separator_words:
    case Plan::utf8_lead_words:
    case Plan::utf8_lead_width: {
      const SpanEnd end = utf8_span(request, data, 0, size, size, out.acc);
      out.tail_size = size - end.pos;
      if (!counts_chars(request.plan)) out.acc.summary.chars = 0;
      break;
    }
  }
  return out;
}

}  // namespace fastwc::count::kernels
