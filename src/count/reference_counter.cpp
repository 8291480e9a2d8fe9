// SPDX-License-Identifier: GPL-3.0-or-later
// GNU wc's counting loops (src/wc.c, function wc) restated for a stream fed
// in pieces: the per-byte loop of single-byte locales, the multibyte loop
// over fastwc's glibc-identical UTF-8 decoder, and the same loop over
// mbrtowc for other multibyte locales. Comments name the wc.c code that each
// branch restates; "9.1" is coreutils 9.1, "9.5" the loop rewritten in 9.5.
#include "count/reference_counter.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "count/utf8_decoder.hpp"
#include "locale/char_classes.hpp"

namespace fastwc::count {

ReferenceCounter::ReferenceCounter(const CountOptions &options)
    : ReferenceCounter(options, locale::CharClasses::current()) {}

ReferenceCounter::ReferenceCounter(const CountOptions &options,
                                   const locale::CharClasses &classes) noexcept
    : options_(options), classes_(&classes) {}

void ReferenceCounter::end_word() noexcept {
  // 9.1 counts a word when it ends (words += in_word); 9.5 counts it when
  // it starts (see on_character), so a separator only clears the flag.
  if (options_.word_rule == WordRule::printable_constituents) counts_.words += in_word_ ? 1 : 0;
  in_word_ = false;
}

void ReferenceCounter::on_character(char32_t c, bool single_byte) noexcept {
  // The switch that every wc loop shares. These six are handled before any
  // class test, in every locale.
  switch (c) {
    case '\n':
      ++counts_.lines;
      [[fallthrough]];
    case '\r':
    case '\f':
      // CR and FF end a line for -L although -l does not count them.
      counts_.max_line_length = std::max(counts_.max_line_length, linepos_);
      linepos_ = 0;
      end_word();
      return;
    case '\t':
      linepos_ += 8 - linepos_ % 8;
      end_word();
      return;
    case ' ':
      ++linepos_;
      [[fallthrough]];
    case '\v':
      end_word();
      return;
    default:
      break;
  }

  // single_byte: a byte of the per-byte loop, or an ASCII byte that the
  // multibyte loop handles without mbrtowc; both test isprint/isspace.
  const locale::CharInfo info =
      single_byte ? classes_->byte_info(static_cast<unsigned char>(c)) : classes_->wide_info(c);
  const bool spacelike = info.space() || (options_.nbsp_separates_words && info.nbsp());

  if (options_.word_rule == WordRule::printable_constituents) {
    // 9.1 default branch: if (iswprint (wc)) { linepos += wcwidth if > 0;
    // if (iswspace (wc) || iswnbspace (wc)) separator; else in_word = true; }
    // (isprint/isspace/isnbspace per byte). A non-printable character does
    // nothing: it is transparent.
    if (!info.print()) return;
    linepos_ += info.width();
    if (spacelike)
      end_word();
    else
      in_word_ = true;
    return;
  }

  // 9.5 default branch: linepos += wc_isprint[c] (per byte) or c32width if
  // > 0; in_word2 = !space; words += !in_word & in_word2.
  linepos_ += info.width();
  const bool in_word2 = !spacelike;
  counts_.words += (!in_word_ && in_word2) ? 1 : 0;
  in_word_ = in_word2;
}

void ReferenceCounter::on_encoding_error() noexcept {
  // 9.1: p++ and continue: the byte is in -c only. 9.5 additionally treats
  // it as non white space: words += !in_word; in_word = true.
  if (options_.word_rule == WordRule::non_space_constituents) {
    counts_.words += in_word_ ? 0 : 1;
    in_word_ = true;
  }
}

ReferenceCounter::Decoded ReferenceCounter::decode(const std::uint8_t *data,
                                                   std::size_t size) noexcept {
  if (options_.encoding == Encoding::utf8) {
    const DecodeResult r = decode_utf8(data, size, options_.utf8_decoding);
    switch (r.status) {
      case DecodeStatus::ok:
        return {Verdict::ok, r.length, r.code_point};
      case DecodeStatus::invalid:
        return {Verdict::invalid, 0, 0};
      case DecodeStatus::incomplete:
        break;
    }
    return {Verdict::incomplete, 0, 0};
  }

  // Encoding::other_multibyte. wc 9.1 backs up the state before mbrtowc and
  // restores it on (size_t)-2, to decode the carried bytes again after the
  // next read; decoding on a copy does the same.
  std::mbstate_t state = state_;
  wchar_t wide = 0;
  const std::size_t n = std::mbrtowc(&wide, reinterpret_cast<const char *>(data), size, &state);
  if (n == static_cast<std::size_t>(-2)) return {Verdict::incomplete, 0, 0};
  if (n == static_cast<std::size_t>(-1)) {
    // 9.5 resets the state (mbszero); 9.1 does not, but glibc leaves it in
    // the initial state after an error anyway.
    state_ = std::mbstate_t{};
    return {Verdict::invalid, 0, 0};
  }
  state_ = state;
  // mbrtowc returns 0 for NUL; wc counts it as a one-byte character.
  return {Verdict::ok, n == 0 ? 1 : n, static_cast<char32_t>(wide)};
}

std::size_t ReferenceCounter::consume(const std::uint8_t *data, std::size_t size,
                                      bool at_end) noexcept {
  std::size_t pos = 0;
  while (pos < size) {
    // "Handle most ASCII characters quickly, without calling mbrtowc."
    if (!in_shift_ && data[pos] < 0x80) {
      on_character(data[pos], true);
      ++counts_.chars;
      ++pos;
      continue;
    }
    Decoded d = decode(data + pos, size - pos);
    if (d.verdict == Verdict::incomplete) {
      // Carry the prefix to the next piece (wc: memmove to the buffer
      // start, read more). At the end of input, or when the prefix is
      // absurdly long, 9.5 falls through to the error path byte by byte.
      if (!at_end && size - pos < pending_capacity) return pos;
      d.verdict = Verdict::invalid;
      state_ = std::mbstate_t{};
    }
    if (d.verdict == Verdict::invalid) {
      rescan_after_carried_character_ = 0;  // GNU skips one byte: no quirk
      on_encoding_error();
      in_shift_ = false;
      ++pos;  // one byte, then decode again from the next one
      continue;
    }
    in_shift_ = std::mbsinit(&state_) == 0;
    // Only the multibyte loop gets here: classes come from iswprint & co.
    on_character(d.character, false);
    ++counts_.chars;
    pos += d.length;
    // GNU >= 9.5 advances by the bytes its last mbrtoc32 call consumed,
    // which excludes those carried over, and re-reads that many trailing
    // bytes of the character as encoding errors (wc.c: p += charbytes).
    for (; rescan_after_carried_character_ > 0; --rescan_after_carried_character_) {
      on_encoding_error();
    }
  }
  return pos;
}

void ReferenceCounter::update(std::span<const std::byte> bytes) noexcept {
  const auto *data = reinterpret_cast<const std::uint8_t *>(bytes.data());
  const std::size_t size = bytes.size();
  counts_.bytes += size;

  if (options_.encoding == Encoding::single_byte) {
    // wc's per-byte loop. chars == bytes is set in finish(), as wc does
    // (count_chars < print_chars: chars = bytes).
    for (std::size_t i = 0; i < size; ++i) on_character(data[i], true);
    return;
  }

  // mbrtowc reads LC_CTYPE of the calling thread: use the counter's locale.
  std::optional<locale::ScopedLocale> scope;
  if (options_.encoding == Encoding::other_multibyte) scope.emplace(classes_->handle());

  std::size_t i = 0;
  if (options_.gnu_split_rescan_read_size != 0) rescan_after_carried_character_ = pending_size_;
  // First complete the character cut by the previous piece, one byte at a
  // time, so that it is decoded from the same position as in one buffer.
  while (pending_size_ > 0 && i < size) {
    pending_[pending_size_++] = data[i++];
    const std::size_t used = consume(pending_.data(), pending_size_, false);
    std::memmove(pending_.data(), pending_.data() + used, pending_size_ - used);
    pending_size_ -= used;
  }
  rescan_after_carried_character_ = 0;  // only the carried character counts
  if (i < size) {
    const std::size_t used = consume(data + i, size - i, false);
    std::memcpy(pending_.data(), data + i + used, size - i - used);
    pending_size_ = size - i - used;
  }
}

Counts ReferenceCounter::finish_stream() noexcept {
  pending_size_ = 0;
  counts_.max_line_length = std::max(counts_.max_line_length, linepos_);
  if (options_.word_rule == WordRule::printable_constituents) counts_.words += in_word_ ? 1 : 0;
  if (options_.encoding == Encoding::single_byte) counts_.chars = counts_.bytes;
  const Counts result = counts_;
  counts_ = Counts{};
  in_word_ = false;
  linepos_ = 0;
  in_shift_ = false;
  state_ = std::mbstate_t{};
  return result;
}

Counts ReferenceCounter::finish() noexcept {
  if (pending_size_ > 0 && options_.word_rule == WordRule::non_space_constituents) {
    // 9.5 reads on while bytes are carried over ("|| prev"); with no more
    // input an incomplete prefix takes the error path one byte at a time.
    std::optional<locale::ScopedLocale> scope;
    if (options_.encoding == Encoding::other_multibyte) scope.emplace(classes_->handle());
    consume(pending_.data(), pending_size_, true);
  }
  // 9.1 leaves its read loop at end of input: the carried bytes are dropped.
  return finish_stream();
}

Counts ReferenceCounter::finish_after_error() noexcept { return finish_stream(); }

}  // namespace fastwc::count
