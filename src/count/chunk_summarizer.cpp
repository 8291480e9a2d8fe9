// SPDX-License-Identifier: GPL-3.0-or-later
// ChunkSummarizer: cutting a chunk into prefix, body and tail, the merge of two
// summaries, and the final counts. Compiled with baseline flags; the kernels
// it calls come from dispatch.
//
// Why the merge is exact (the tests check every step at every split point):
//
// 1. Units. Counting is a left fold over units, and every count's state is
//    a monoid: lines and chars add; words are the maximal runs of
//    constituents once transparent units are dropped, so two chunks' runs
//    join exactly when the first's last non-transparent unit and the
//    second's first one are both constituents; a -L segment without breaks
//    is the column map c -> c + a or next_tab_stop(c + a) + b, closed under
//    composition (summary.hpp), and a chunk with breaks is its head map, the
//    widest line strictly inside it, and the column it ends at. Each merge
//    is function composition or addition, hence associative, with the empty
//    summary as identity.
//
// 2. Bytes to units (UTF-8). glibc's decoder reads left to right; the units
//    of a chunk depend on what came before only through a pending
//    incomplete sequence, which is a lead byte plus continuation bytes (its
//    other verdicts never change when more bytes follow, utf8_decoder.hpp).
//    Write a chunk as P body T, where P is its leading run of continuation
//    bytes (at most 5) and T the incomplete sequence its body ends with:
//    - whatever precedes it, a decoder is at a unit boundary at the end of
//      P: a pending sequence needs at most 5 more bytes, all continuations,
//      so it ends inside P (valid or not), or it fails at the byte after P,
//      which is not a continuation; then the lead is dropped and the
//      remaining continuation bytes are errors one by one. A continuation
//      byte at a unit boundary is always an error.
//    - so body decodes the same in every context, and only the bytes
//      T(first) P(second) need decoding at a join: merge decodes them with
//      the scalar decoder, treating "incomplete" as an error when more of
//      the second chunk follows (the next byte is not a continuation) and
//      as the joined chunk's tail otherwise;
//    - a chunk made only of continuation bytes is all prefix; joined to
//      another, the first 5 of the combined run stay prefix and the rest are
//      errors before the second body (at most 5 of them can be claimed).
//    Hence summarize(A) merged with summarize(B) equals summarize(AB); merge
//    restricted to summaries is then associative because concatenation is.
//
// 3. End of stream: a leading P has no character to complete and is all
//    errors; T is dropped (9.1 drops carried bytes at EOF) or errors one byte
//    at a time (9.5), which for units is the same as errors: the bytes after
//    an incomplete lead are continuation bytes.
#include "count/chunk_summarizer.hpp"

#include <cstring>

#include "count/gnu_reads.hpp"
#include "count/kernels/apply_unit.hpp"
#include "count/unit_classes.hpp"
#include "count/utf8_decoder.hpp"
#include "locale/char_classes.hpp"

namespace fastwc::count {

namespace {

using Ops = SummaryOps<BaselineTag>;
using Acc = Accumulate<BaselineTag>;
using kernels::Plan;

Plan choose_plan(const CountOptions &options, bool &needs_kernel) noexcept {
  const Selection &s = options.selection;
  const bool words = s.words;
  const bool width = s.max_line_length;
  needs_kernel = true;
  if (options.encoding == Encoding::utf8 && (words || width || s.chars)) {
    if (words && width) return Plan::utf8_words_width;
    if (words && !s.chars)
      return options.word_rule == WordRule::non_space_constituents ? Plan::utf8_separator_words
                                                                   : Plan::utf8_lead_words;
    if (words) return Plan::utf8_words;
    if (width) return s.chars ? Plan::utf8_width : Plan::utf8_lead_width;
    return Plan::utf8_chars;
  }
  // Single-byte locales (in UTF-8, -l and -c need no decoding: 0x0A is
  // never part of a multibyte character and -c counts bytes).
  if (words && width) return Plan::bytes_words_width;
  if (words) return Plan::bytes_words;
  if (width) return Plan::bytes_width;
  needs_kernel = s.lines;
  return Plan::newlines;
}

/// Applies one unit's properties as the plan asks.
void apply_unit(Plan plan, UnitAccumulator &acc, std::uint8_t props) noexcept {
  switch (plan) {
    case Plan::utf8_words:
    case Plan::utf8_separator_words:
    case Plan::utf8_lead_words:
    case Plan::bytes_words:
      ApplyUnit<BaselineTag, true, false>::apply(acc, props);
      break;
    case Plan::utf8_width:
    case Plan::utf8_lead_width:
    case Plan::bytes_width:
      ApplyUnit<BaselineTag, false, true>::apply(acc, props);
      break;
    case Plan::utf8_words_width:
    case Plan::bytes_words_width:
      ApplyUnit<BaselineTag, true, true>::apply(acc, props);
      break;
    case Plan::utf8_chars:
    case Plan::newlines:
      ApplyUnit<BaselineTag, false, false>::apply(acc, props);
      break;
  }
}

}  // namespace

bool ChunkSummarizer::supports(const CountOptions &options) noexcept {
  // Other multibyte locales need mbrtowc's state, unless nothing is
  // decoded: -l and -lc count newline bytes there too (GNU's wc_lines), and
  // decoding would lose a newline that a stateful converter (BIG5-HKSCS)
  // swallows. GNU 9.5+'s split rescan makes word counts depend on where
  // reads fall, which no summary of a chunk can know (engine/gnu_read_loop.hpp
  // reads as GNU does instead).
  if (options.encoding == Encoding::other_multibyte && decodes_characters(options)) return false;
  return !needs_gnu_read_boundaries(options);
}

bool ChunkSummarizer::needs_classes(const CountOptions &options) noexcept {
  bool needs_kernel = false;
  // A newline is the byte 0x0A in every locale wc supports.
  return choose_plan(options, needs_kernel) != Plan::newlines;
}

namespace {

/// The newline plan without any kernel's tables (the scalar kernel takes
/// the classes for every plan).
kernels::BodyResult newlines_body(const kernels::Request &, const std::uint8_t *data,
                                  std::size_t size) noexcept {
  kernels::BodyResult out{};
  std::uint64_t lines = 0;
  for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n' ? 1 : 0;
  out.acc.summary.lines = lines;
  return out;
}

}  // namespace

ChunkSummarizer::ChunkSummarizer(const CountOptions &options) : options_(options), units_(nullptr) {
  bool needs_kernel = false;
  request_.plan = choose_plan(options, needs_kernel);
  // Nothing here reads units_: no UTF-8 decoding, and newlines depend on
  // no class (the SIMD kernels' newline plan reads no table). Building the
  // locale's classes costs a one-line file four mappings and their faults.
  request_.c_byte_classes = true;
  if (!needs_kernel) return;  // bytes only
  kernel_ = active_kernel();
  body_ = kernel_ == KernelId::scalar ? &newlines_body : kernel_function(kernel_);
  short_body_ = body_;  // the newline plan builds no table
}

ChunkSummarizer::ChunkSummarizer(const CountOptions &options, const locale::CharClasses &classes)
    : options_(options),
      units_(&UnitClasses::get(classes, options.word_rule, options.nbsp_separates_words)) {
  bool needs_kernel = false;
  request_.plan = choose_plan(options, needs_kernel);
  request_.rule95 = options.word_rule == WordRule::non_space_constituents;
  request_.classes = units_;
  request_.a0_separates = units_->a0_separates();
  request_.utf8_decoding = options.utf8_decoding;
  decodes_ = kernels::decodes_utf8(request_.plan);
  // Kernels hard-code the C locale's byte classes; a single-byte locale
  // with other classes (Latin-1's isprint, say) gets the table-driven
  // scalar kernel. Newline counting depends on no class.
  request_.c_byte_classes =
      request_.plan == Plan::newlines ||
      (decodes_ ? units_->ascii_matches_c_locale() : units_->bytes_match_c_locale());
  if (!needs_kernel) return;  // bytes only: no CPU detection, no kernel
  kernel_ = request_.c_byte_classes ? active_kernel() : KernelId::scalar;
  body_ = kernel_function(kernel_);
  short_body_ = kernel_function(KernelId::scalar);
}

ChunkSummarizer::ChunkSummarizer(const CountOptions &options, const locale::CharClasses &classes,
                                 KernelId kernel)
    : ChunkSummarizer(options, classes) {
  if (body_ == nullptr) return;
  kernel_ = request_.c_byte_classes ? kernel : KernelId::scalar;
  body_ = kernel_function(kernel_);
  // The kernel asked for, whatever the size (the kernel tests).
  short_body_ = body_;
}

ChunkSummary ChunkSummarizer::summarize(std::span<const std::byte> chunk) const noexcept {
  ChunkSummary s{};
  s.bytes = chunk.size();
  if (body_ == nullptr || chunk.empty()) return s;
  const auto *data = reinterpret_cast<const std::uint8_t *>(chunk.data());
  std::size_t size = chunk.size();
  if (decodes_) {
    std::size_t p = 0;
    while (p < size && p < ChunkSummary::edge_capacity && is_utf8_continuation(data[p])) ++p;
    std::memcpy(s.prefix, data, p);
    s.prefix_size = static_cast<std::uint8_t>(p);
    data += p;
    size -= p;
    if (size == 0) return s;
  }
  // Below one block and its lookahead a SIMD kernel counts nothing in
  // registers: it builds its lead tables, then runs its scalar tail. The
  // scalar kernel gives the same summary without the tables (a one-line
  // file, most of a --files0-from list).
  const BodyFunction body_function =
      size < kernels::simd_block_with_lookahead ? short_body_ : body_;
  const kernels::BodyResult body = body_function(request_, data, size);
  s.units = Acc::finish(body.acc);
  std::memcpy(s.tail, data + size - body.tail_size, body.tail_size);
  s.tail_size = static_cast<std::uint8_t>(body.tail_size);
  return s;
}

UnitSummary ChunkSummarizer::invalid_units(std::size_t count) const noexcept {
  UnitAccumulator acc{};
  const std::uint8_t props = units_->invalid();
  for (std::size_t i = 0; i < count; ++i) apply_unit(request_.plan, acc, props);
  return Acc::finish(acc);
}

ChunkSummary ChunkSummarizer::merge(const ChunkSummary &first,
                                    const ChunkSummary &second) const noexcept {
  ChunkSummary r{};
  r.bytes = first.bytes + second.bytes;
  if (!decodes_) {
    r.units = Ops::merge(first.units, second.units);
    return r;
  }

  constexpr unsigned cap = ChunkSummary::edge_capacity;
  const bool first_is_prefix = first.bytes == first.prefix_size;
  const bool second_is_prefix = second.bytes == second.prefix_size;

  if (first_is_prefix) {
    // Continuation bytes only: they join the second chunk's prefix. Past
    // the first five, no character from before can claim them.
    std::uint8_t run[2 * cap];
    std::memcpy(run, first.prefix, first.prefix_size);
    std::memcpy(run + first.prefix_size, second.prefix, second.prefix_size);
    const unsigned total = first.prefix_size + second.prefix_size;
    const unsigned kept = total < cap ? total : cap;
    std::memcpy(r.prefix, run, kept);
    r.prefix_size = static_cast<std::uint8_t>(kept);
    r.units = Ops::merge(invalid_units(total - kept), second.units);
    std::memcpy(r.tail, second.tail, second.tail_size);
    r.tail_size = second.tail_size;
    return r;
  }

  std::memcpy(r.prefix, first.prefix, first.prefix_size);
  r.prefix_size = first.prefix_size;

  // Decode the join: the first chunk's incomplete sequence followed by the
  // second chunk's leading continuation bytes.
  std::uint8_t join[2 * cap];
  std::memcpy(join, first.tail, first.tail_size);
  std::memcpy(join + first.tail_size, second.prefix, second.prefix_size);
  const std::size_t size = first.tail_size + second.prefix_size;
  UnitAccumulator acc{};
  std::size_t pos = 0;
  while (pos < size) {
    const DecodeResult d = decode_utf8(join + pos, size - pos, request_.utf8_decoding);
    if (d.status == DecodeStatus::ok) {
      apply_unit(request_.plan, acc, units_->wide(d.code_point));
      if (kernels::counts_chars(request_.plan)) ++acc.summary.chars;
      pos += d.length;
      continue;
    }
    if (d.status == DecodeStatus::incomplete && second_is_prefix) {
      // Still incomplete after all of the second chunk: the joined chunk's
      // tail, for a later chunk to complete.
      std::memcpy(r.tail, join + pos, size - pos);
      r.tail_size = static_cast<std::uint8_t>(size - pos);
      break;
    }
    // An error, or an incomplete sequence that the second chunk's next
    // byte (not a continuation byte) turns into one: drop one byte.
    apply_unit(request_.plan, acc, units_->invalid());
    ++pos;
  }
  r.units = Ops::merge(Ops::merge(first.units, Acc::finish(acc)), second.units);
  if (!second_is_prefix) {
    std::memcpy(r.tail, second.tail, second.tail_size);
    r.tail_size = second.tail_size;
  }
  return r;
}

Counts ChunkSummarizer::finish(const ChunkSummary &whole, bool after_error) const noexcept {
  UnitSummary u = whole.units;
  if (decodes_) {
    // Nothing precedes the stream, so its leading continuation bytes are
    // encoding errors. GNU 9.1 drops carried bytes at EOF (its read loop
    // ends) and 9.5 decodes them again as errors one byte at a time; both
    // drop them after a read error. As units, dropped bytes and 9.1's
    // errors are alike (transparent), so errors serve for both rules.
    u = Ops::merge(invalid_units(whole.prefix_size), u);
    if (!after_error) u = Ops::merge(u, invalid_units(whole.tail_size));
  }
  const Selection &s = options_.selection;
  Counts c;
  c.bytes = whole.bytes;
  if (s.lines) c.lines = u.lines;
  if (s.words) c.words = u.words.words;
  // In single-byte locales wc sets chars = bytes (count_chars < print_chars).
  if (s.chars) c.chars = options_.encoding == Encoding::utf8 ? u.chars : whole.bytes;
  if (s.max_line_length) c.max_line_length = Ops::max_line_length(u.width);
  return c;
}

}  // namespace fastwc::count
