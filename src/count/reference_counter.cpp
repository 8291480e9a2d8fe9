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

namespace {

/// gnulib's is_basic (mbchar.h): the ISO C basic character set, which 9.1
/// hands to its per-byte shortcut; NUL, '\n', '\r', '$', '@', '`', DEL and
/// the other control bytes go through mbrtowc.
constexpr bool is_basic(std::uint8_t byte) noexcept {
  constexpr std::uint32_t table[4] = {0x00001a00, 0xffffffef, 0xfffffffe, 0x7ffffffe};
  return byte < 0x80 && ((table[byte >> 5] >> (byte & 31)) & 1) != 0;
}

}  // namespace

ReferenceCounter::ReferenceCounter(const CountOptions &options)
    : ReferenceCounter(options, locale::CharClasses::current()) {}

ReferenceCounter::ReferenceCounter(const CountOptions &options,
                                   const locale::CharClasses &classes) noexcept
    : options_(options), classes_(&classes) {}

bool ReferenceCounter::takes_ascii_shortcut(std::uint8_t byte) const noexcept {
  // 9.5 replaced is_basic with a test for ASCII ("wc: stop worrying about
  // EBCDIC, shift-JIS, etc"). In stateless encodings the two give the same
  // counts; in TCVN a byte that goes through mbrtowc may combine with the
  // next one. The UTF-8 loop keeps the ASCII test (the same counts there).
  if (options_.encoding == Encoding::other_multibyte && !rewritten_loop()) return is_basic(byte);
  return byte < 0x80;
}

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
  // A value no converter produces (glibc's UTF-8 reaches 0x7FFFFFFF, never
  // a negative wchar_t), to see whether mbrtowc stored one.
  constexpr wchar_t not_stored = -1;
  wchar_t wide = not_stored;
  const std::size_t n = std::mbrtowc(&wide, reinterpret_cast<const char *>(data), size, &state);
  if (n <= size && wide == not_stored) {
    // TCVN's converter takes a letter that ends the buffer and holds it
    // back for a combining mark that may follow: it reports the byte as
    // used and stores no character. wc's wide_char is then left as it was:
    // what GNU's binaries show is the previous character's value (9.1) or
    // the previous mbrtoc32 result (9.5+), 0 at first.
    wide = static_cast<wchar_t>(last_character_);
  }
  if (n == static_cast<std::size_t>(-2)) return {Verdict::incomplete, 0, 0};
  if (n == static_cast<std::size_t>(-1)) {
    // 9.5 resets the state (mbszero); 9.1 does not, but glibc leaves it in
    // the initial state after an error anyway.
    state_ = std::mbstate_t{};
    return {Verdict::invalid, 0, 0};
  }
  state_ = state;
  if (rewritten_loop()) {
    // 9.5+: gnulib's mbrtoc32 is "regular" (coreutils' configure.ac defines
    // GNULIB_MBRTOC32_REGULAR): after a character it resets a state that
    // still holds a second one (BIG5-HKSCS, JIS X 0213 and TCVN pairs),
    // which is thereby dropped. wc counts NUL as one byte (n + !n).
    if (std::mbsinit(&state_) == 0) state_ = std::mbstate_t{};
    return {Verdict::ok, n == 0 ? 1 : n, static_cast<char32_t>(wide)};
  }
  // 9.1: mbrtowc returns 0 for NUL, and also for the second character of
  // such a pair, which it returns without consuming input; wc turns either
  // into NUL and steps over one byte (if (n == 0) { wide_char = 0; n = 1; }).
  return {Verdict::ok, n == 0 ? 1 : n, n == 0 ? U'\0' : static_cast<char32_t>(wide)};
}

std::size_t ReferenceCounter::consume(const std::uint8_t *data, std::size_t size,
                                      bool at_end) noexcept {
  const bool mbrtowc_loop = options_.encoding == Encoding::other_multibyte;
  std::size_t pos = 0;
  while (pos < size) {
    // "Handle most ASCII characters quickly, without calling mbrtowc."
    if (!in_shift_ && takes_ascii_shortcut(data[pos])) {
      // 9.1 keeps the byte in wide_char too (wide_char = *p).
      if (mbrtowc_loop && !rewritten_loop()) last_character_ = data[pos];
      on_character(data[pos], true);
      ++counts_.chars;
      ++pos;
      continue;
    }
    const bool was_in_shift = in_shift_;
    Decoded d = decode(data + pos, size - pos);
    if (d.verdict == Verdict::incomplete) {
      // Carry the prefix to the next piece (wc: memmove to the buffer
      // start, read more). At the end of input, or when the prefix is
      // absurdly long, 9.5 falls through to the error path byte by byte.
      if (!at_end && size - pos < pending_capacity) {
        // 9.5+ decode the carried bytes with mbrtoc32 whatever they are
        // (in_shift = true); 9.1 set in_shift before its mbrtowc call.
        if (mbrtowc_loop) in_shift_ = true;
        return pos;
      }
      d.verdict = Verdict::invalid;
      state_ = std::mbstate_t{};
    }
    if (d.verdict == Verdict::invalid) {
      rescan_after_carried_character_ = 0;  // GNU skips one byte: no quirk
      on_encoding_error();
      // 9.1 leaves in_shift set after an error, so the next byte goes
      // through mbrtowc even if it is ASCII; 9.5+ clear it.
      in_shift_ = mbrtowc_loop && !rewritten_loop();
      ++pos;  // one byte, then decode again from the next one
      continue;
    }
    in_shift_ = std::mbsinit(&state_) == 0;
    last_character_ = d.character;
    // 9.5+ take a character that mbrtoc32 decoded from one byte outside a
    // shift sequence for a "single byte" (single_byte = charbytes ==
    // !in_shift) and look it up in wc's byte tables, wc_isprint[wide_char]
    // and wc_isspace[wide_char]. Those have 256 entries: a larger value
    // (the half-width katakana of Shift_JIS, most TCVN letters) reads past
    // them in 9.5 to 9.11, which nothing can reproduce; 9.12 ("no longer
    // reads past the end of a lookup table") classifies it as a character.
    const bool byte_tables =
        mbrtowc_loop && rewritten_loop() && !was_in_shift && d.length == 1 && d.character <= 0xFF;
    on_character(d.character, byte_tables);
    ++counts_.chars;
    if (mbrtowc_loop && rescan_after_carried_character_ > 0) {
      // GNU >= 9.5 advances by the bytes its last mbrtoc32 call consumed,
      // which excludes those carried over (wc.c: p += charbytes), and
      // decodes the character's last bytes again. In Shift_JIS, GBK, Big5
      // and GB18030 they can be ASCII or lead bytes: real characters.
      pos += d.length - std::min(d.length - 1, rescan_after_carried_character_);
      rescan_after_carried_character_ = 0;
      continue;
    }
    pos += d.length;
    // In UTF-8 those re-read bytes are continuation bytes: encoding errors.
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
  last_character_ = 0;
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
