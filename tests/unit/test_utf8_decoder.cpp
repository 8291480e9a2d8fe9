// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of count/utf8_decoder.hpp against the real thing: glibc's mbrtowc in
// C.UTF-8, exhaustively for every sequence of 1 to 3 bytes (which covers all
// their truncations) and for large structured and random samples of 4, 5
// and 6 bytes with every prefix, plus named cases; and the RFC
// 3629 decoder of GNU 9.11+ against that standard's definition.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <clocale>
#include <cstdint>
#include <cstring>
#include <cwchar>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "count/utf8_decoder.hpp"

namespace {

using fastwc::count::decode_utf8;
using fastwc::count::DecodeResult;
using fastwc::count::DecodeStatus;

/// Switches the process to C.UTF-8 for one test and back to "C".
struct Utf8Locale {
  Utf8Locale() { REQUIRE(std::setlocale(LC_ALL, "C.UTF-8") != nullptr); }
  ~Utf8Locale() { std::setlocale(LC_ALL, "C"); }
  Utf8Locale(const Utf8Locale &) = delete;
  Utf8Locale &operator=(const Utf8Locale &) = delete;
};

/// glibc's verdict, expressed as a DecodeResult.
DecodeResult glibc_decode(const std::uint8_t *data, std::size_t size) {
  std::mbstate_t state{};
  wchar_t wide = 0;
  const std::size_t n = std::mbrtowc(&wide, reinterpret_cast<const char *>(data), size, &state);
  if (n == static_cast<std::size_t>(-1)) return {DecodeStatus::invalid, 0, 0};
  if (n == static_cast<std::size_t>(-2)) return {DecodeStatus::incomplete, 0, 0};
  return {DecodeStatus::ok, static_cast<std::uint8_t>(n == 0 ? 1 : n), static_cast<char32_t>(wide)};
}

std::string hex(const std::uint8_t *data, std::size_t size) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < size; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
    out += ' ';
  }
  return out;
}

/// Compares every prefix of the sequence; returns the number of mismatches
/// (reporting the first few).
int compare_prefixes(const std::uint8_t *data, std::size_t size, int &reported) {
  int mismatches = 0;
  for (std::size_t n = 1; n <= size; ++n) {
    const DecodeResult ours = decode_utf8(data, n);
    const DecodeResult theirs = glibc_decode(data, n);
    if (!(ours == theirs)) {
      ++mismatches;
      if (reported++ < 10)
        FAIL_CHECK("mismatch on " << hex(data, n) << ": ours " << int(ours.status) << "/"
                                  << int(ours.length) << "/" << std::uint32_t(ours.code_point)
                                  << ", glibc " << int(theirs.status) << "/" << int(theirs.length)
                                  << "/" << std::uint32_t(theirs.code_point));
    }
  }
  return mismatches;
}

DecodeResult dec(const char *bytes, std::size_t size) {
  return decode_utf8(reinterpret_cast<const std::uint8_t *>(bytes), size);
}

}  // namespace

TEST_CASE("utf8 decoder: named cases (glibc's decoder as GNU wc sees it)") {
  using S = DecodeStatus;
  CHECK(dec("", 0).status == S::incomplete);
  CHECK(dec("\0", 1) == DecodeResult{S::ok, 1, 0});
  CHECK(dec("a", 1) == DecodeResult{S::ok, 1, 'a'});
  CHECK(dec("\xc3\xa9", 2) == DecodeResult{S::ok, 2, 0xE9});
  CHECK(dec("\xe4\xb8\xad", 3) == DecodeResult{S::ok, 3, 0x4E2D});
  CHECK(dec("\xf0\x9f\x98\x80", 4) == DecodeResult{S::ok, 4, 0x1F600});
  // Beyond Unicode but accepted by glibc 2.36.
  CHECK(dec("\xf4\x90\x80\x80", 4) == DecodeResult{S::ok, 4, 0x110000});
  CHECK(dec("\xf7\xbf\xbf\xbf", 4) == DecodeResult{S::ok, 4, 0x1FFFFF});
  CHECK(dec("\xf8\x88\x80\x80\x80", 5) == DecodeResult{S::ok, 5, 0x200000});
  CHECK(dec("\xfd\xbf\xbf\xbf\xbf\xbf", 6) == DecodeResult{S::ok, 6, 0x7FFFFFFF});
  // Overlongs, surrogates, impossible bytes, stray continuation bytes.
  CHECK(dec("\xc0\x80", 2).status == S::invalid);
  CHECK(dec("\xc1\xbf", 2).status == S::invalid);
  CHECK(dec("\xe0\x9f\xbf", 3).status == S::invalid);
  CHECK(dec("\xf0\x8f\xbf\xbf", 4).status == S::invalid);
  CHECK(dec("\xf8\x87\xbf\xbf\xbf", 5).status == S::invalid);
  CHECK(dec("\xfc\x83\xbf\xbf\xbf\xbf", 6).status == S::invalid);
  CHECK(dec("\xed\xa0\x80", 3).status == S::invalid);
  CHECK(dec("\xed\xbf\xbf", 3).status == S::invalid);
  CHECK(dec("\xfe", 1).status == S::invalid);
  CHECK(dec("\xff", 1).status == S::invalid);
  CHECK(dec("\x80", 1).status == S::invalid);
  CHECK(dec("\xe4\x41", 2).status == S::invalid);
  // Prefixes that would turn out invalid are still "incomplete".
  CHECK(dec("\xe0\x80", 2).status == S::incomplete);
  CHECK(dec("\xed\xa0", 2).status == S::incomplete);
  CHECK(dec("\xf8\x80", 2).status == S::incomplete);
  CHECK(dec("\xe4\xb8", 2).status == S::incomplete);
  // A verdict does not change when more bytes follow.
  CHECK(dec("\xe4\xb8\xad\xff", 4) == DecodeResult{S::ok, 3, 0x4E2D});
  // Usable in constant expressions.
  constexpr std::uint8_t euro[] = {0xE2, 0x82, 0xAC};
  static_assert(decode_utf8(euro, 3) == DecodeResult{S::ok, 3, 0x20AC});
  static_assert(decode_utf8(euro, 2).status == S::incomplete);
}

TEST_CASE("utf8 decoder: every 1-, 2- and 3-byte sequence equals glibc's mbrtowc") {
  const Utf8Locale locale;
  int reported = 0;
  long mismatches = 0;
  long compared = 0;
  std::array<std::uint8_t, 3> s{};
  for (unsigned a = 0; a < 256; ++a) {
    s[0] = static_cast<std::uint8_t>(a);
    mismatches += compare_prefixes(s.data(), 1, reported);
    ++compared;
    for (unsigned b = 0; b < 256; ++b) {
      s[1] = static_cast<std::uint8_t>(b);
      const DecodeResult ours2 = decode_utf8(s.data(), 2);
      if (!(ours2 == glibc_decode(s.data(), 2)))
        mismatches += compare_prefixes(s.data(), 2, reported);
      ++compared;
      for (unsigned c = 0; c < 256; ++c) {
        s[2] = static_cast<std::uint8_t>(c);
        const DecodeResult ours3 = decode_utf8(s.data(), 3);
        const DecodeResult theirs3 = glibc_decode(s.data(), 3);
        ++compared;
        if (!(ours3 == theirs3)) {
          ++mismatches;
          if (reported++ < 10) FAIL_CHECK("mismatch on " << hex(s.data(), 3));
        }
      }
    }
  }
  CHECK(compared == 256 + 256 * 256 + 256 * 256 * 256);
  CHECK(mismatches == 0);
}

TEST_CASE("utf8 decoder: structured 4-, 5- and 6-byte sequences and all their prefixes") {
  const Utf8Locale locale;
  // Bytes that sit on every boundary the decoder tests: ASCII, the ends of
  // the continuation range, the overlong thresholds of each length, leads.
  const std::array<std::uint8_t, 14> edges = {0x00, 0x41, 0x7F, 0x80, 0x81, 0x83, 0x84,
                                              0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xBF};
  const std::array<std::uint8_t, 3> tails = {0x80, 0xBF, 0xC0};
  int reported = 0;
  long mismatches = 0;
  long sequences = 0;
  std::array<std::uint8_t, 6> s{};
  for (unsigned lead = 0xF0; lead < 0x100; ++lead) {
    s[0] = static_cast<std::uint8_t>(lead);
    for (unsigned second = 0; second < 256; ++second) {
      s[1] = static_cast<std::uint8_t>(second);
      for (std::uint8_t third : edges) {
        s[2] = third;
        for (std::uint8_t fourth : edges) {
          s[3] = fourth;
          for (std::uint8_t fifth : tails) {
            s[4] = fifth;
            for (std::uint8_t sixth : tails) {
              s[5] = sixth;
              mismatches += compare_prefixes(s.data(), s.size(), reported);
              ++sequences;
            }
          }
        }
      }
    }
  }
  MESSAGE(sequences << " structured sequences (6 prefixes each) compared");
  CHECK(mismatches == 0);
}

TEST_CASE("utf8 decoder: random long sequences and their prefixes") {
  const Utf8Locale locale;
  std::mt19937 rng(20240905);
  std::uniform_int_distribution<unsigned> any(0, 255);
  std::uniform_int_distribution<unsigned> cont(0x80, 0xBF);
  std::uniform_int_distribution<unsigned> lead(0xE0, 0xFF);
  std::uniform_int_distribution<unsigned> pick(0, 9);
  int reported = 0;
  long mismatches = 0;
  std::array<std::uint8_t, 7> s{};
  for (int round = 0; round < 1'000'000; ++round) {
    s[0] = static_cast<std::uint8_t>(pick(rng) < 8 ? lead(rng) : any(rng));
    // Mostly continuation bytes, so that long forms complete often.
    for (std::size_t i = 1; i < s.size(); ++i)
      s[i] = static_cast<std::uint8_t>(pick(rng) < 9 ? cont(rng) : any(rng));
    mismatches += compare_prefixes(s.data(), s.size(), reported);
  }
  CHECK(mismatches == 0);
}

// ---- RFC 3629 (gnulib's decoder, GNU wc 9.11+) ----
//
// The oracle is built from the definition: the valid sequences are the
// shortest-form encodings of U+0000..U+10FFFF less the surrogates; a prefix
// of one of them is incomplete, and anything else is an encoding error.
namespace {

using fastwc::Utf8Decoding;

/// A sequence of at most four bytes as one key (length in the top byte).
std::uint64_t key(const std::uint8_t *data, std::size_t size) {
  std::uint64_t k = 0;
  for (std::size_t i = 0; i < size; ++i) k = (k << 8) | data[i];
  return k | (std::uint64_t{size} << 40);
}

struct Rfc3629Oracle {
  std::vector<std::uint64_t> valid;     // keys of the valid sequences
  std::vector<std::uint64_t> prefixes;  // keys of their proper prefixes
  std::vector<char32_t> values;         // parallel to valid

  Rfc3629Oracle() {
    std::vector<std::pair<std::uint64_t, char32_t>> v;
    for (char32_t c = 0; c <= 0x10FFFF; ++c) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      std::uint8_t b[4];
      std::size_t n;
      if (c < 0x80) {
        b[0] = static_cast<std::uint8_t>(c);
        n = 1;
      } else if (c < 0x800) {
        b[0] = static_cast<std::uint8_t>(0xC0 | (c >> 6));
        b[1] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
        n = 2;
      } else if (c < 0x10000) {
        b[0] = static_cast<std::uint8_t>(0xE0 | (c >> 12));
        b[1] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
        b[2] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
        n = 3;
      } else {
        b[0] = static_cast<std::uint8_t>(0xF0 | (c >> 18));
        b[1] = static_cast<std::uint8_t>(0x80 | ((c >> 12) & 0x3F));
        b[2] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
        b[3] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
        n = 4;
      }
      v.emplace_back(key(b, n), c);
      for (std::size_t p = 1; p < n; ++p) prefixes.push_back(key(b, p));
    }
    std::sort(v.begin(), v.end());
    for (const auto &[k, c] : v) {
      valid.push_back(k);
      values.push_back(c);
    }
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
  }

  DecodeResult decode(const std::uint8_t *data, std::size_t size) const {
    if (size == 0) return {DecodeStatus::incomplete, 0, 0};
    // Valid sequences are prefix-free: at most one length matches.
    for (std::size_t n = 1; n <= std::min<std::size_t>(size, 4); ++n) {
      const std::uint64_t k = key(data, n);
      const auto it = std::lower_bound(valid.begin(), valid.end(), k);
      if (it != valid.end() && *it == k) {
        const char32_t c = values[static_cast<std::size_t>(it - valid.begin())];
        return {DecodeStatus::ok, static_cast<std::uint8_t>(n), c};
      }
    }
    if (size < 4 && std::binary_search(prefixes.begin(), prefixes.end(), key(data, size)))
      return {DecodeStatus::incomplete, 0, 0};
    return {DecodeStatus::invalid, 0, 0};
  }
};

const Rfc3629Oracle &rfc3629_oracle() {
  static const Rfc3629Oracle oracle;
  return oracle;
}

int compare_rfc3629(const std::uint8_t *data, std::size_t size, int &reported) {
  const DecodeResult ours = decode_utf8(data, size, Utf8Decoding::rfc3629);
  const DecodeResult theirs = rfc3629_oracle().decode(data, size);
  if (ours == theirs) return 0;
  if (reported++ < 10)
    FAIL_CHECK("rfc3629 mismatch on " << hex(data, size) << ": ours " << int(ours.status) << "/"
                                      << int(ours.length) << ", oracle " << int(theirs.status)
                                      << "/" << int(theirs.length));
  return 1;
}

}  // namespace

TEST_CASE("utf8 decoder, RFC 3629: every sequence of 1 to 3 bytes equals the definition") {
  int reported = 0, mismatches = 0;
  std::uint8_t b[3];
  for (unsigned x = 0; x < 256; ++x) {
    b[0] = static_cast<std::uint8_t>(x);
    mismatches += compare_rfc3629(b, 1, reported);
    for (unsigned y = 0; y < 256; ++y) {
      b[1] = static_cast<std::uint8_t>(y);
      mismatches += compare_rfc3629(b, 2, reported);
      // A third byte matters only after a lead and a continuation byte.
      if (x < 0xC0 || (y & 0xC0) != 0x80) continue;
      for (unsigned z = 0; z < 256; ++z) {
        b[2] = static_cast<std::uint8_t>(z);
        mismatches += compare_rfc3629(b, 3, reported);
      }
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("utf8 decoder, RFC 3629: 4- to 6-byte sequences led by F0..FF, and their prefixes") {
  // Every lead F0..FF with every second byte and every interesting third,
  // fourth, fifth and sixth byte: the limits of continuation bytes and
  // bytes that are none.
  const std::uint8_t later[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF};
  int reported = 0, mismatches = 0;
  std::uint8_t b[6];
  for (unsigned lead = 0xF0; lead < 0x100; ++lead)
    for (unsigned second = 0; second < 256; ++second)
      for (const std::uint8_t third : later)
        for (const std::uint8_t fourth : later) {
          b[0] = static_cast<std::uint8_t>(lead);
          b[1] = static_cast<std::uint8_t>(second);
          b[2] = third;
          b[3] = fourth;
          b[4] = 0x80;
          b[5] = 0x80;
          for (std::size_t n = 1; n <= 6; ++n) mismatches += compare_rfc3629(b, n, reported);
        }
  CHECK(mismatches == 0);
  // The cases GNU's 9.11 NEWS-era change is known by.
  const auto strict = [](const char *s, std::size_t n) {
    return decode_utf8(reinterpret_cast<const std::uint8_t *>(s), n, Utf8Decoding::rfc3629);
  };
  CHECK(strict("\xf8\x88\x80\x80\x80", 5).status == DecodeStatus::invalid);  // glibc: one character
  CHECK(strict("\xf4\x90\x80\x80", 4).status == DecodeStatus::invalid);      // above U+10FFFF
  CHECK(strict("\xf4\x8f\xbf\xbf", 4).code_point == 0x10FFFF);
  CHECK(strict("\xe0\x80", 2).status == DecodeStatus::invalid);  // glibc: incomplete
  CHECK(strict("\xed\xa0", 2).status == DecodeStatus::invalid);  // a surrogate's prefix
  CHECK(strict("\xf0\x90\x80", 3).status == DecodeStatus::incomplete);
  CHECK(decode_utf8(reinterpret_cast<const std::uint8_t *>("\xe0\x80"), 2).status ==
        DecodeStatus::incomplete);
}
