// SPDX-License-Identifier: GPL-3.0-or-later
// The GNU >= 9.5 read-boundary correction (split_rescan.hpp).
//
// Which bytes GNU carries over is a local question: GNU's decoder starts a
// character at every byte that is not a continuation byte (a valid
// character spans continuation bytes only, an invalid one advances by one
// byte), so the carried bytes are those from the last non-continuation byte
// on, when the decoder (glibc's or RFC 3629's) calls them an incomplete
// character.
#include "count/split_rescan.hpp"

#include <algorithm>
#include <cstring>

#include "count/utf8_decoder.hpp"
#include "locale/char_classes.hpp"

namespace fastwc::count {

namespace {

/// The longest prefix glibc calls incomplete: a six-byte form less one byte.
constexpr std::size_t max_carry = 5;
/// Enough to decide one split character and the unit after it.
constexpr std::size_t decision_bytes = 12;

}  // namespace

SplitRescanCorrector::SplitRescanCorrector(const CountOptions &options,
                                           const locale::CharClasses &classes) noexcept
    : classes_(classes),
      word_rule_(options.word_rule),
      nbsp_separates_(options.nbsp_separates_words),
      decoding_(options.utf8_decoding) {}

bool SplitRescanCorrector::is_separator_unit(std::uint64_t at, bool at_end, bool after_error,
                                             bool &decided) const noexcept {
  const auto available = static_cast<std::size_t>(end_ - at);
  decided = true;
  if (available == 0) {
    if (at_end) return true;  // end of input: nothing starts a word
    decided = false;
    return false;
  }
  const std::uint8_t first = byte_at(at);
  if (first < 0x80) {
    return classes_.byte_word_class(first, word_rule_, nbsp_separates_) ==
           locale::WordClass::separator;
  }
  std::uint8_t bytes[8];
  const std::size_t size = std::min<std::size_t>(available, sizeof bytes);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = byte_at(at + i);
  const DecodeResult unit = decode_utf8(bytes, size, decoding_);
  if (unit.status == DecodeStatus::incomplete && !at_end) {
    decided = false;
    return false;
  }
  // After a read error GNU never sees a sequence cut by the end: nothing
  // follows, as at the end of input.
  if (unit.status == DecodeStatus::incomplete && after_error) return true;
  // An encoding error (or a sequence cut by end of input) is a word
  // character under the 9.5 rule.
  if (unit.status != DecodeStatus::ok) return false;
  return classes_.wide_word_class(unit.code_point, word_rule_, nbsp_separates_) ==
         locale::WordClass::separator;
}

void SplitRescanCorrector::resolve(bool at_end, bool after_error) noexcept {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pending_count_; ++i) {
    const std::uint64_t start = pending_[i];
    std::uint8_t bytes[8];
    const auto available = static_cast<std::size_t>(end_ - start);
    const std::size_t size = std::min<std::size_t>(available, sizeof bytes);
    for (std::size_t k = 0; k < size; ++k) bytes[k] = byte_at(start + k);
    const DecodeResult split = decode_utf8(bytes, size, decoding_);
    bool decided = true;
    if (split.status == DecodeStatus::incomplete) {
      // Still cut (several short reads), or cut by end of input, where GNU
      // takes its bytes as plain encoding errors: no phantom.
      decided = at_end;
    } else if (split.status == DecodeStatus::ok &&
               classes_.wide_word_class(split.code_point, word_rule_, nbsp_separates_) ==
                   locale::WordClass::separator) {
      const bool separator_follows =
          is_separator_unit(start + split.length, at_end, after_error, decided);
      if (decided && separator_follows) ++extra_words_;
    }
    // An invalid sequence is skipped a byte at a time as in one buffer, and
    // a split constituent only continues the word its phantoms start.
    if (!decided) pending_[kept++] = start;
  }
  pending_count_ = kept;
}

void SplitRescanCorrector::append(const std::uint8_t *data, std::size_t size) noexcept {
  std::memcpy(window_.data() + (end_ - window_start_), data, size);
  end_ += size;
}

void SplitRescanCorrector::trim_window() noexcept {
  // Keep the oldest undecided character and the last bytes, which tell
  // what GNU carries over; both lie at most a few bytes back.
  std::uint64_t keep_from = end_ - std::min<std::uint64_t>(end_ - window_start_, max_carry);
  if (pending_count_ > 0) keep_from = std::min(keep_from, pending_[0]);
  const auto drop = static_cast<std::size_t>(keep_from - window_start_);
  std::memmove(window_.data(), window_.data() + drop, static_cast<std::size_t>(end_ - keep_from));
  window_start_ = keep_from;
}

void SplitRescanCorrector::on_read(std::span<const std::uint8_t> bytes) noexcept {
  std::size_t used = 0;
  if (pending_count_ > 0) {
    // A pending decision needs at most decision_bytes more, which fit: the
    // window holds no more than a character and a few bytes before it.
    used = std::min(bytes.size(), decision_bytes);
    append(bytes.data(), used);
    resolve(false);
  }
  if (used < bytes.size()) {
    // Everything is decided now (decision_bytes were enough), so only the
    // stream's last bytes matter from here on.
    const std::size_t rest = bytes.size() - used;
    if (rest >= max_carry) {
      window_start_ = end_ + rest - max_carry;
      end_ = window_start_;
      append(bytes.data() + bytes.size() - max_carry, max_carry);
    } else {
      trim_window();
      append(bytes.data() + used, rest);
    }
  }
  trim_window();

  // What GNU carries over at the end of this read.
  carried_ = 0;
  const std::uint64_t earliest = end_ - std::min<std::uint64_t>(end_ - window_start_, max_carry);
  for (std::uint64_t p = end_; p > earliest;) {
    --p;
    if (is_utf8_continuation(byte_at(p))) continue;
    std::uint8_t prefix[max_carry];
    const auto size = static_cast<std::size_t>(end_ - p);
    for (std::size_t k = 0; k < size; ++k) prefix[k] = byte_at(p + k);
    if (decode_utf8(prefix, size, decoding_).status == DecodeStatus::incomplete) {
      carried_ = size;
      // Several short reads can cut one character more than once.
      if (pending_count_ == 0 || pending_[pending_count_ - 1] != p) pending_[pending_count_++] = p;
    }
    break;
  }
}

std::uint64_t SplitRescanCorrector::finish(bool after_error) noexcept {
  resolve(true, after_error);
  pending_count_ = 0;
  carried_ = 0;
  return extra_words_;
}

}  // namespace fastwc::count
