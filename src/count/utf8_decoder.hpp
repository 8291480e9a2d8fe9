// SPDX-License-Identifier: GPL-3.0-or-later
// The UTF-8 decoder of the reference engine: one character at a time, with
// exactly the verdicts of glibc 2.36's mbrtowc in C.UTF-8 (which GNU wc up
// to 9.10 calls), or of gnulib's strict RFC 3629 decoder (9.11 on). Header-
// only and constexpr so that tests, the reference counter and the kernels
// share one definition.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fastwc/options.hpp"

namespace fastwc::count {

/// The verdict on the bytes at the decoding position.
enum class DecodeStatus : std::uint8_t {
  ok,          ///< a complete character of `length` bytes
  invalid,     ///< mbrtowc returns (size_t)-1; wc then drops one byte
  incomplete,  ///< mbrtowc returns (size_t)-2: a valid prefix ran out of input
};

struct DecodeResult {
  DecodeStatus status = DecodeStatus::invalid;
  /// Bytes of the character when status == ok (1 for NUL, where mbrtowc
  /// returns 0 and wc counts one byte); 0 otherwise.
  std::uint8_t length = 0;
  /// The decoded value when status == ok (up to 0x7FFFFFFF); 0 otherwise.
  char32_t code_point = 0;

  friend constexpr bool operator==(const DecodeResult &, const DecodeResult &) = default;
};

/// The number of bytes a sequence starting with `lead` has in glibc's UTF-8
/// (1..6), or 0 when `lead` cannot start a character: continuation bytes
/// 80..BF, the always-overlong leads C0 and C1, and FE, FF. RFC 3629 also
/// refuses F5..FD (values above U+10FFFF).
constexpr unsigned utf8_sequence_length(std::uint8_t lead,
                                        Utf8Decoding decoding = Utf8Decoding::glibc) noexcept {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (decoding == Utf8Decoding::rfc3629) return lead <= 0xF4 ? 4 : 0;
  // glibc 2.36 still accepts the pre-2003 forms: F0..F7 up to U+1FFFFF,
  // F8..FB five bytes, FC..FD six bytes (up to 0x7FFFFFFF).
  if (lead < 0xF8) return 4;
  if (lead < 0xFC) return 5;
  if (lead < 0xFE) return 6;
  return 0;
}

constexpr bool is_utf8_continuation(std::uint8_t byte) noexcept { return (byte & 0xC0) == 0x80; }

/// Whether `second` may follow `lead` in RFC 3629 UTF-8 (gnulib's decoder
/// tests it before the third byte: E0 A0..BF, ED 80..9F, F0 90..BF,
/// F4 80..8F, else any continuation byte).
constexpr bool rfc3629_second_byte_ok(std::uint8_t lead, std::uint8_t second) noexcept {
  if (!is_utf8_continuation(second)) return false;
  switch (lead) {
    case 0xE0:
      return second >= 0xA0;
    case 0xED:
      return second < 0xA0;
    case 0xF0:
      return second >= 0x90;
    case 0xF4:
      return second < 0x90;
    default:
      return true;
  }
}

/// Decodes the character at `data[0]`, given that `size` bytes are
/// available, as glibc 2.36's mbrtowc does from the initial shift state:
/// - size == 0 is incomplete (mbrtowc's answer for n == 0);
/// - when fewer bytes than the lead announces are available, the result is
///   incomplete if every available byte after the lead is a continuation
///   byte, even when the completed sequence would be invalid (E0 80, ED A0,
///   F8 80 ...), and invalid otherwise;
/// - a complete sequence is invalid when a continuation byte is missing,
///   when it is overlong (E0 80..9F, F0 80..8F, F8 80..87, FC 80..83) or
///   when it encodes a UTF-16 surrogate (ED A0..BF).
/// With Utf8Decoding::rfc3629, as gnulib's decoder does: only RFC 3629's
/// sequences are characters, and a prefix is incomplete only while it can
/// still become one (E0 80, ED A0, F4 90 and F5.. are invalid at once).
/// A verdict other than incomplete never changes when more bytes follow.
constexpr DecodeResult decode_utf8(const std::uint8_t *data, std::size_t size,
                                   Utf8Decoding decoding = Utf8Decoding::glibc) noexcept {
  if (size == 0) return {DecodeStatus::incomplete, 0, 0};
  const std::uint8_t lead = data[0];
  const unsigned length = utf8_sequence_length(lead, decoding);
  if (length == 0) return {DecodeStatus::invalid, 0, 0};
  if (length == 1) return {DecodeStatus::ok, 1, lead};
  if (decoding == Utf8Decoding::rfc3629 && size >= 2 && !rfc3629_second_byte_ok(lead, data[1]))
    return {DecodeStatus::invalid, 0, 0};

  if (size < length) {
    for (std::size_t i = 1; i < size; ++i)
      if (!is_utf8_continuation(data[i])) return {DecodeStatus::invalid, 0, 0};
    return {DecodeStatus::incomplete, 0, 0};
  }

  // The lead keeps 7 - length value bits (5 for two bytes ... 1 for six).
  char32_t value = lead & (0x7Fu >> length);
  for (unsigned i = 1; i < length; ++i) {
    if (!is_utf8_continuation(data[i])) return {DecodeStatus::invalid, 0, 0};
    value = (value << 6) | (data[i] & 0x3Fu);
  }
  // Overlong: a length-byte form must carry more than the 5 * length - 4
  // bits that a shorter form holds (glibc's test; two-byte overlongs are
  // the C0/C1 leads rejected above).
  if (length > 2 && (value >> (5 * length - 4)) == 0) return {DecodeStatus::invalid, 0, 0};
  if (value >= 0xD800 && value <= 0xDFFF) return {DecodeStatus::invalid, 0, 0};
  return {DecodeStatus::ok, static_cast<std::uint8_t>(length), value};
}

/// Same as above for std::byte input.
inline DecodeResult decode_utf8(const std::byte *data, std::size_t size,
                                Utf8Decoding decoding = Utf8Decoding::glibc) noexcept {
  // std::byte and std::uint8_t may alias (both are byte-sized, and uint8_t
  // is unsigned char on every platform fastwc builds on).
  return decode_utf8(reinterpret_cast<const std::uint8_t *>(data), size, decoding);
}

}  // namespace fastwc::count
