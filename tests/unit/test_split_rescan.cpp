// SPDX-License-Identifier: GPL-3.0-or-later
// GNU >= 9.5 re-reads the trailing bytes of a multibyte character completed
// by a later read() as encoding errors (CountOptions::
// gnu_split_rescan_read_size). Expected values were printed by GNU wc 9.7
// and 9.10 for the same bytes split at their 256 KiB read boundary.
#include <doctest/doctest.h>

#include <algorithm>
#include <clocale>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../support/split_rescan_text.hpp"
#include "count/reference_counter.hpp"
#include "engine/gnu_read_loop.hpp"
#include "fastwc/engine.hpp"

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;

struct Utf8Locale {
  Utf8Locale() { std::setlocale(LC_ALL, "C.UTF-8"); }
  ~Utf8Locale() { std::setlocale(LC_ALL, "C"); }
};

CountOptions options_for(WordRule rule, std::uint32_t read_size) {
  CountOptions options;
  options.selection = Selection::all();
  options.encoding = Encoding::utf8;
  options.word_rule = rule;
  options.gnu_split_rescan_read_size = read_size;
  return options;
}

Counts count_pieces(const CountOptions &options, const std::vector<std::string_view> &pieces) {
  fastwc::count::ReferenceCounter counter(options);
  for (auto piece : pieces) counter.update(std::as_bytes(std::span(piece.data(), piece.size())));
  return counter.finish();
}

}  // namespace

TEST_CASE("a separator completed by the next read starts a word after white space (9.5+)") {
  Utf8Locale locale;
  const auto quirk = options_for(WordRule::non_space_constituents, 256 * 1024);
  // "x U+202F" split after E2 80: two bytes carried, two re-read as errors.
  CHECK(count_pieces(quirk, {"x \xe2\x80", "\xaf"}).words == 2);
  CHECK(count_pieces(quirk, {"x \xe2", "\x80\xaf"}).words == 2);
  // Three reads: the bytes carried before the last one are what is re-read.
  CHECK(count_pieces(quirk, {"x \xe2", "\x80", "\xaf"}).words == 2);
  // A word that follows at once absorbs the phantom word start.
  CHECK(count_pieces(quirk, {"x \xe2\x80",
                             "\xaf"
                             "y"})
            .words == 2);
  // Characters and widths are untouched.
  Counts split = count_pieces(quirk, {"x \xe3\x80", "\x80"});
  CHECK(split.chars == 3);
  CHECK(split.max_line_length == 4);
  CHECK(split.words == 2);
  // A constituent split the same way changes nothing.
  CHECK(count_pieces(quirk, {"x \xe4\xb8", "\xad"}).words == 2);
}

TEST_CASE("the split rescan needs a split, the 9.5 rule and the option") {
  Utf8Locale locale;
  const auto quirk = options_for(WordRule::non_space_constituents, 256 * 1024);
  CHECK(count_pieces(quirk, {"x \xe2\x80\xaf"}).words == 1);
  CHECK(count_pieces(options_for(WordRule::non_space_constituents, 0), {"x \xe2\x80", "\xaf"})
            .words == 1);
  CHECK(count_pieces(options_for(WordRule::printable_constituents, 0), {"x \xe2\x80", "\xaf"})
            .words == 1);
  // An invalid sequence completed by the next read is skipped a byte at a
  // time as in one buffer: no re-read.
  CHECK(count_pieces(quirk, {"x \xe2\x80", " "}).words == 2);
  CHECK(count_pieces(quirk, {"x \xe2\x80 "}).words == 2);
}

TEST_CASE("count_with_gnu_reads asks for the read size less the carried bytes") {
  Utf8Locale locale;
  const auto quirk = options_for(WordRule::non_space_constituents, 16);
  // 13 x's, a space, then U+202F at offsets 14..16: the first read ends
  // inside it, the second asks for 16 - 2 bytes.
  std::string input(13, 'x');
  input += " \xe2\x80\xaf";
  input += std::string(20, ' ');
  std::size_t offset = 0;
  std::vector<std::size_t> requests;
  auto read = [&](std::byte *buffer, std::size_t size) -> ssize_t {
    requests.push_back(size);
    std::size_t n = std::min(size, input.size() - offset);
    std::memcpy(buffer, input.data() + offset, n);
    offset += n;
    return static_cast<ssize_t>(n);
  };
  auto result = fastwc::engine::count_with_gnu_reads(quirk, read);
  CHECK(result.error == 0);
  CHECK(result.counts.words == 2);
  CHECK(result.counts.bytes == input.size());
  REQUIRE(requests.size() >= 2);
  CHECK(requests[0] == 16);
  CHECK(requests[1] == 14);
}

namespace {

/// Rescan-dense text (tests/support/split_rescan_text.hpp).
std::string quirk_text(std::uint32_t seed, std::size_t size) {
  return fastwc::testing::split_rescan_text(size, seed);
}

}  // namespace

TEST_CASE("the fast GNU read loop equals the reference one, read for read") {
  Utf8Locale locale;
  int quirk_seen = 0;  // cases where the quirk changed the count
  for (const auto decoding : {fastwc::Utf8Decoding::glibc, fastwc::Utf8Decoding::rfc3629})
    for (bool nbsp : {true, false}) {
      for (std::uint32_t read_size : {7u, 16u, 64u, 1024u}) {
        CountOptions options = options_for(WordRule::non_space_constituents, read_size);
        options.nbsp_separates_words = nbsp;
        options.utf8_decoding = decoding;
        for (std::uint32_t seed = 0; seed < 60; ++seed) {
          const std::string input = quirk_text(seed, 300 + seed * 37);
          // Short reads as from a pipe: a pseudo-random length per read.
          auto make_reader = [&input, seed](std::size_t &offset) {
            return
                [&input, &offset, state = seed + 7u](std::byte *buffer, std::size_t size) mutable {
                  state = state * 1103515245u + 12345u;
                  std::size_t n =
                      std::min<std::size_t>({size, input.size() - offset, 1 + (state >> 16) % 23});
                  std::memcpy(buffer, input.data() + offset, n);
                  offset += n;
                  return static_cast<ssize_t>(n);
                };
          };
          std::size_t fast_offset = 0;
          std::size_t reference_offset = 0;
          const auto fast = fastwc::engine::count_with_gnu_reads(options, make_reader(fast_offset));
          const auto reference = fastwc::engine::count_with_gnu_reads_reference(
              options, make_reader(reference_offset));
          CAPTURE(seed);
          CAPTURE(read_size);
          CAPTURE(static_cast<int>(decoding));
          CHECK(fast.counts == reference.counts);
          CountOptions contiguous = options;
          contiguous.gnu_split_rescan_read_size = 0;
          const auto bytes = std::as_bytes(std::span(input.data(), input.size()));
          if (fastwc::count_buffer(bytes, contiguous).words != reference.counts.words) ++quirk_seen;
        }
      }
    }
  CHECK(quirk_seen > 200);
}
