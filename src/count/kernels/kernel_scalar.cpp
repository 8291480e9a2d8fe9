// SPDX-License-Identifier: GPL-3.0-or-later
// The scalar kernel: every plan in plain C++ through the unit property
// tables (unit_classes.hpp), so it serves any single-byte locale whose byte
// classes differ from C's: bytes (and UTF-8's runs of ASCII) 64 at a time as
// bit masks, the other characters one at a time. It is the fallback where
// no SIMD kernel runs; its UTF-8 path (utf8_span) is also what the SIMD
// kernels call for a chunk's last bytes, and classify_multibyte is their
// per-character classifier. Compiled with baseline flags only.
#include <bit>
#include <cstring>

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

/// Bit k of each of the eight byte lanes of `lanes`, as eight bits (lane j
/// to bit j): the lanes' bits, shifted to distinct places by one multiply.
constexpr std::uint64_t lane_bits(std::uint64_t lanes, unsigned k) noexcept {
  return (((lanes >> k) & 0x0101010101010101u) * 0x0102040810204080u) >> 56;
}

constexpr unsigned bit_of(std::uint8_t prop) noexcept {
  return static_cast<unsigned>(__builtin_ctz(prop));
}

/// Counts the 64 bytes at p as units by their byte classes (a single-byte
/// locale's bytes, or ASCII in a multibyte one), as the SIMD kernels do
/// with compares: each byte's properties (one table load) go to a byte
/// lane, eight lanes to a word, and each property's lane bits to a 64-bit
/// mask for Accumulate's words() and widths(), without a branch on any
/// unit's class. Partial: only the first `count` bytes are units (the
/// others are read and count as nothing: for words, transparent units).
template <bool Words, bool Width, bool Partial = false>
inline void byte_block(const UnitClasses &classes, const std::uint8_t *p, UnitAccumulator &acc,
                       unsigned count = 64) noexcept {
  std::uint64_t sep = 0, con = 0, one = 0, two = 0, tabs = 0, breaks = 0, newlines = 0, lines = 0;
  for (unsigned g = 0; g < 64; g += 8) {
    std::uint64_t lanes = 0;
    for (unsigned j = 0; j < 8; ++j) lanes |= std::uint64_t{classes.byte(p[g + j])} << (8 * j);
    const unsigned newline = bit_of(unit_props::newline);
    if constexpr (Partial)
      newlines |= lane_bits(lanes, newline) << g;
    else  // a lane's bit is 0 or 1: the multiply sums them in the top byte
      lines += (((lanes >> newline) & 0x0101010101010101u) * 0x0101010101010101u) >> 56;
    if constexpr (Words) {
      sep |= lane_bits(lanes, bit_of(unit_props::separator)) << g;
      con |= lane_bits(lanes, bit_of(unit_props::constituent)) << g;
    }
    if constexpr (Width) {
      one |= lane_bits(lanes, unit_props::width_shift) << g;  // width 1
      two |= lane_bits(lanes, unit_props::width_shift + 1) << g;
      breaks |= lane_bits(lanes, bit_of(unit_props::line_break)) << g;
      tabs |= lane_bits(lanes, bit_of(unit_props::tab)) << g;
    }
  }
  using Acc = Accumulate<BaselineTag>;
  if constexpr (Partial) {
    const std::uint64_t live = (std::uint64_t{1} << count) - 1;  // count < 64
    lines = Acc::ones(newlines & live);
    sep &= live;
    con &= live;
  }
  acc.summary.lines += lines;
  if constexpr (Words) Acc::words(acc, sep, con);
  if constexpr (Width) Acc::widths(acc, one, two, tabs, breaks, count);
}

/// The high bits of the eight bytes at p (those of bytes that are not ASCII).
inline std::uint64_t high_bits(const std::uint8_t *p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w & 0x8080808080808080u;
}

/// Runs of ASCII shorter than this are counted unit by unit: AsciiLooks
/// looks at this many bytes before it calls ascii_run.
constexpr unsigned min_ascii_run = 32;

/// Whether the first min_ascii_run bytes at p are all ASCII.
inline bool starts_ascii_run(const std::uint8_t *p) noexcept {
  std::uint64_t high = 0;
  for (unsigned g = 0; g < min_ascii_run; g += 8) high |= high_bits(p + g);
  return high == 0;
}

struct AsciiRun {
  UnitAccumulator acc;
  std::size_t pos;
};

/// Counts the run of ASCII at data[pos] (min_ascii_run bytes at least, as
/// the caller saw) into acc, 64 bytes a step while 64 are left before
/// `limit`; returns where the run, or the bytes it could count, ended.
/// Out of line, the accumulator by value: inline, or with its address
/// taken, it cost the UTF-8 loop its registers (0.8-0.9x on text with
/// few runs of ASCII).
template <bool Words, bool Width>
[[gnu::noinline]] AsciiRun ascii_run(const UnitClasses &classes, const std::uint8_t *data,
                                     std::size_t pos, std::size_t limit,
                                     UnitAccumulator acc) noexcept {
  while (limit - pos >= 64) {
    unsigned run = 0;
    while (run < 64 && high_bits(data + pos + run) == 0) run += 8;
    if (run == 64) {
      byte_block<Words, Width>(classes, data + pos, acc);
      pos += 64;
      continue;
    }
    const std::uint64_t high = high_bits(data + pos + run);
    run +=
        static_cast<unsigned>(std::endian::native == std::endian::little ? __builtin_ctzll(high)
                                                                         : __builtin_clzll(high)) /
        8;
    if (run != 0) byte_block<Words, Width, true>(classes, data + pos, acc, run);
    pos += run;
    break;
  }
  return {acc, pos};
}

/// Where the UTF-8 loops look for runs of ASCII (English, markup, code),
/// which ascii_run counts; the other bytes go unit by unit. A look that
/// finds no run is followed by 64 bytes unit by unit before the next,
/// twice as many after each such look (up to 4 KiB), so that text in
/// other scripts seldom looks; a run is followed by the character that
/// ended it, then a look again.
class AsciiLooks {
 public:
  /// Counts the run of ASCII at data[pos], if there is one, into acc and
  /// moves pos past it (adding its characters to `chars`); returns where
  /// the units after pos go to before the next look (`limit` when fewer
  /// than 64 bytes are left).
  template <bool Words, bool Width>
  std::size_t look(const UnitClasses &classes, const std::uint8_t *data, std::size_t &pos,
                   std::size_t limit, UnitAccumulator &acc, std::uint64_t &chars) noexcept {
    if (limit - pos < 64) return limit;
    if (!starts_ascii_run(data + pos)) {
      const std::size_t stop = limit - pos > units_span_ ? pos + units_span_ : limit;
      if (units_span_ < 4096) units_span_ *= 2;
      return stop;
    }
    const AsciiRun run = ascii_run<Words, Width>(classes, data, pos, limit, acc);
    acc = run.acc;
    chars += run.pos - pos;
    pos = run.pos;
    units_span_ = 64;
    return limit - pos >= 64 ? pos + 1 : limit;
  }

 private:
  std::size_t units_span_ = 64;
};

template <bool Words, bool Width>
void bytes_plan(const UnitClasses &classes, const std::uint8_t *data, std::size_t size,
                UnitAccumulator &result) noexcept {
  // Words alone count in a local accumulator: stores through `result`,
  // which the byte loads may alias, would keep the counts in memory. (With
  // -L the copy cost more than it saved.)
  UnitAccumulator local = result;
  UnitAccumulator &acc = Width ? result : local;
  std::size_t i = 0;
  for (; i + 64 <= size; i += 64) byte_block<Words, Width>(classes, data + i, acc);
  for (; i < size; ++i) apply<Words, Width>(acc, classes.byte(data[i]));
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
  // Runs of ASCII as AsciiLooks finds them; the other units one by one,
  // in a loop of their own that keeps the unit loop's code as it was. Not
  // for -L, whose unit loop lost 0.8-0.9x to the looks on text in Latin
  // letters (width_by_runs looks around it).
  AsciiLooks looks;
  while (end.pos < limit && !end.tail) {
    const std::size_t stop =
        Width ? limit : looks.look<Words, false>(classes, data, end.pos, limit, acc, chars);
    if (end.pos == limit) break;
    do {
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
    } while (end.pos < stop);
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

namespace {

/// The UTF-8 plans with -L: runs of ASCII by AsciiLooks here, around
/// utf8_span, whose unit loop for -L lost 0.8-0.9x to the looks inside it
/// (utf8_units); the spans between runs grow as utf8_units' do.
template <bool Words>
SpanEnd width_by_runs(const Request &request, const std::uint8_t *data, std::size_t size,
                      UnitAccumulator &acc) noexcept {
  SpanEnd end{0, false};
  AsciiLooks looks;
  std::uint64_t ascii_chars = 0;
  while (end.pos < size) {
    const std::size_t stop =
        looks.look<Words, true>(*request.classes, data, end.pos, size, acc, ascii_chars);
    if (end.pos == size) break;
    end = utf8_span(request, data, end.pos, stop, size, acc);
    if (end.tail) break;
  }
  acc.summary.chars += ascii_chars;
  return end;
}

/// The UTF-8 plans over a whole buffer.
SpanEnd utf8_body(const Request &request, const std::uint8_t *data, std::size_t size,
                  UnitAccumulator &acc) noexcept {
  switch (request.plan) {
    case Plan::utf8_width:
    case Plan::utf8_lead_width:
      return width_by_runs<false>(request, data, size, acc);
    case Plan::utf8_words_width:
      return width_by_runs<true>(request, data, size, acc);
    default:
      return utf8_span(request, data, 0, size, size, acc);
  }
}

}  // namespace

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
      const SpanEnd end = utf8_body(request, data, size, out.acc);
      out.tail_size = size - end.pos;
      if (!counts_chars(request.plan)) out.acc.summary.chars = 0;
      break;
    }
  }
  return out;
}

}  // namespace fastwc::count::kernels
