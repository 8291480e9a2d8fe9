// SPDX-License-Identifier: GPL-3.0-or-later
// Multibyte locales other than UTF-8, which GNU wc decodes with mbrtowc
// (mbrtoc32 from 9.5): Shift_JIS, GBK, Big5, GB18030, and the stateful
// BIG5-HKSCS, JIS X 0213 and TCVN, whose converters return two characters
// for one sequence. Each locale is compiled on first use
// (test_locales.hpp); a test whose locale cannot be made says so and passes.
// Expected values are what GNU wc 9.1 (coreutils 8.30 to 9.4 share its
// loop) and GNU wc 9.7 and 9.10 printed for the same bytes, with the
// pieces of a split input written to a pipe one at a time.
#include <doctest/doctest.h>

#include <algorithm>
#include <clocale>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/reference_counter.hpp"
#include "engine/gnu_read_loop.hpp"
#include "fastwc/engine.hpp"
#include "test_locales.hpp"

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;

constexpr WordRule gnu91 = WordRule::printable_constituents;
constexpr WordRule gnu95 = WordRule::non_space_constituents;

/// Installs a test locale for the scope (compiling it if need be); active()
/// is false, with a message, when it cannot be had.
class TestLocale {
 public:
  explicit TestLocale(const char *name)
      : active_(fastwc::testing::prepare_test_locale(name) &&
                std::setlocale(LC_ALL, name) != nullptr) {}
  ~TestLocale() { std::setlocale(LC_ALL, "C"); }
  TestLocale(const TestLocale &) = delete;
  TestLocale &operator=(const TestLocale &) = delete;
  bool active() const noexcept { return active_; }

 private:
  bool active_;
};

/// The reference engine's options as FASTWC_COMPAT gives them: 9.5+ read
/// 256 KiB at a time, and the pieces below stand for their reads.
CountOptions options_for(WordRule rule, Selection selection = Selection::all()) {
  CountOptions options;
  options.selection = selection;
  options.encoding = Encoding::other_multibyte;
  options.word_rule = rule;
  options.gnu_split_rescan_read_size = rule == gnu95 ? 256 * 1024 : 0;
  return options;
}

Counts count_pieces(const CountOptions &options, const std::vector<std::string_view> &pieces) {
  fastwc::count::ReferenceCounter counter(options);
  for (auto piece : pieces) counter.update(std::as_bytes(std::span(piece.data(), piece.size())));
  return counter.finish();
}

Counts lwmcL(std::uint64_t l, std::uint64_t w, std::uint64_t m, std::uint64_t c, std::uint64_t L) {
  Counts counts;
  counts.lines = l;
  counts.words = w;
  counts.chars = m;
  counts.bytes = c;
  counts.max_line_length = L;
  return counts;
}

std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

}  // namespace

TEST_CASE("other multibyte: -l and -lc count newline bytes, as wc_lines does") {
  TestLocale locale("zh_HK.BIG5-HKSCS");
  if (!locale.active()) return;
  // 88 62 is U+00CA U+0304: the converter keeps the second character and
  // returns it for the next byte, which a decoding loop then loses.
  const std::string_view input = "\x88\x62\n";
  const auto bytes = std::as_bytes(std::span(input.data(), input.size()));
  Selection lines{};
  lines.lines = true;
  for (WordRule rule : {gnu91, gnu95}) {
    CHECK(fastwc::count_buffer(bytes, options_for(rule, lines)).lines == 1);
    Selection lines_bytes = lines;
    lines_bytes.bytes = true;
    const Counts lc = fastwc::count_buffer(bytes, options_for(rule, lines_bytes));
    CHECK(lc.lines == 1);
    CHECK(lc.bytes == 3);
  }
  // -lm decodes: 9.1 turns U+0304 into a NUL that steps over the newline
  // (wc -lm: 0 2); 9.5+ never see U+0304 (1 2).
  Selection lines_chars = lines;
  lines_chars.chars = true;
  const Counts lm91 = fastwc::count_buffer(bytes, options_for(gnu91, lines_chars));
  CHECK(lm91.lines == 0);
  CHECK(lm91.chars == 2);
  const Counts lm95 = fastwc::count_buffer(bytes, options_for(gnu95, lines_chars));
  CHECK(lm95.lines == 1);
  CHECK(lm95.chars == 2);
}

TEST_CASE("other multibyte: the second character of a JIS X 0213 pair") {
  TestLocale locale("ja_JP.SHIFT_JISX0213");
  if (!locale.active()) return;
  // 86 86 is U+02E5 U+02E9, each two columns wide. 9.1: mbrtowc returns
  // U+02E9 with length 0 for the next byte, which wc counts as a NUL and
  // steps over. 9.5+: gnulib's regular mbrtoc32 resets the state, so U+02E9
  // is gone and the next byte is read normally.
  CHECK(show(count_pieces(options_for(gnu91), {"\x86\x86\xf8"})) == show(lwmcL(0, 1, 2, 3, 2)));
  CHECK(show(count_pieces(options_for(gnu91), {"\x86\x86"
                                               "a"})) == show(lwmcL(0, 1, 2, 3, 2)));
  CHECK(show(count_pieces(options_for(gnu95), {"\x86\x86\xf8"})) == show(lwmcL(0, 1, 1, 3, 2)));
  CHECK(show(count_pieces(options_for(gnu95), {"\x86\x86"
                                               "a"})) == show(lwmcL(0, 1, 2, 3, 3)));
  // At the end of input the kept character is never returned.
  CHECK(count_pieces(options_for(gnu91), {"\x86\x86"}).chars == 1);
  // The same across a read boundary.
  CHECK(show(count_pieces(options_for(gnu91), {"\x86\x86", "a"})) == show(lwmcL(0, 1, 2, 3, 2)));
  CHECK(show(count_pieces(options_for(gnu95), {"\x86\x86", "a"})) == show(lwmcL(0, 1, 2, 3, 3)));
}

TEST_CASE("other multibyte: TCVN's combining letters and 9.1's ASCII shortcut") {
  TestLocale locale("vi_VN.TCVN");
  if (!locale.active()) return;
  // A0 62 decodes to U+00A0 and keeps 'b' for the next call, which 9.1 then
  // turns into a NUL over the newline. E0 is one byte, U+1ED4: 9.5 to 9.11
  // look it up past the end of their byte tables (wc 9.7 dies of a bus
  // error here), so the 9.5+ value is 9.12's.
  const std::string_view input =
      "a\xe0 \xe0\xa0"
      "b\n";
  CHECK(show(count_pieces(options_for(gnu91), {input})) == show(lwmcL(0, 2, 6, 7, 5)));
  CHECK(show(count_pieces(options_for(gnu95), {input})) == show(lwmcL(1, 2, 6, 7, 5)));
  // A7 (U+0110) at the end of a read is held back for a combining mark:
  // mbrtowc stores no character, and wc counts the value its variable kept,
  // the previous character (9.1: here '\n', a second line) or the previous
  // mbrtoc32 result (9.12: none yet, 0). Values of GNU wc 9.1 and 9.12.
  CHECK(show(count_pieces(options_for(gnu91), {"x\n\xa7"})) == show(lwmcL(2, 1, 3, 3, 1)));
  CHECK(show(count_pieces(options_for(gnu95), {"x\n\xa7"})) == show(lwmcL(1, 2, 3, 3, 1)));
  CHECK(show(count_pieces(options_for(gnu91), {"x \xa7"})) == show(lwmcL(0, 1, 3, 3, 3)));
  CHECK(show(count_pieces(options_for(gnu95), {"x \xa7"})) == show(lwmcL(0, 2, 3, 3, 2)));
  // Followed by a combining mark in the same read, it composes.
  CHECK(show(count_pieces(options_for(gnu91), {"x \xa7\xb0z\n"})) == show(lwmcL(1, 2, 6, 6, 5)));
}

TEST_CASE("other multibyte: one-byte characters above ASCII (Shift_JIS katakana)") {
  TestLocale locale("ja_JP.SJIS");
  if (!locale.active()) return;
  // B1 is U+FF71, HALFWIDTH KATAKANA LETTER A: a word character one column
  // wide (9.1 and 9.12; 9.5 to 9.11 read past a table here, see above).
  for (WordRule rule : {gnu91, gnu95}) {
    CHECK(show(count_pieces(options_for(rule), {"\xb1\xb1 \xb1\n"})) == show(lwmcL(1, 2, 5, 5, 4)));
  }
}

TEST_CASE("other multibyte: 9.5+ decode a cut character's re-read bytes as characters") {
  // GNU >= 9.5 advance past a character completed by the next read by the
  // bytes of that read only (wc.c: p += charbytes), so the character's last
  // bytes are decoded again; outside UTF-8 they can be ASCII or lead bytes.
  {
    TestLocale locale("ja_JP.SJIS");
    if (!locale.active()) return;
    // 81 40 is U+3000 IDEOGRAPHIC SPACE; the re-read 40 is '@'.
    CHECK(show(count_pieces(options_for(gnu95), {"ab\x81", "\x40 \n"})) ==
          show(lwmcL(1, 2, 6, 6, 6)));
    CHECK(show(count_pieces(options_for(gnu95), {"ab\x81\x40 \n"})) == show(lwmcL(1, 1, 5, 6, 5)));
    CHECK(show(count_pieces(options_for(gnu91), {"ab\x81", "\x40 \n"})) ==
          show(lwmcL(1, 1, 5, 6, 5)));
  }
  {
    TestLocale locale("zh_CN.GB18030");
    if (!locale.active()) return;
    // 81 30 84 36 is U+00A5 cut in half: 84 is then an encoding error and
    // 36 the digit 6.
    CHECK(show(count_pieces(options_for(gnu95), {"x\x81\x30", "\x84\x36 \n"})) ==
          show(lwmcL(1, 1, 5, 7, 4)));
    CHECK(show(count_pieces(options_for(gnu91), {"x\x81\x30", "\x84\x36 \n"})) ==
          show(lwmcL(1, 1, 4, 7, 3)));
  }
  {
    TestLocale locale("zh_TW.BIG5");
    if (!locale.active()) return;
    // A4 A4 is U+4E2D; the re-read A4 and the space are an encoding error,
    // inside the word already.
    CHECK(show(count_pieces(options_for(gnu95), {"x \xa4", "\xa4 \n"})) ==
          show(lwmcL(1, 2, 5, 6, 5)));
  }
}

TEST_CASE("other multibyte: reads as GNU's, the read size less the carried bytes") {
  TestLocale locale("ja_JP.SJIS");
  if (!locale.active()) return;
  for (WordRule rule : {gnu91, gnu95}) {
    CAPTURE(int(rule));
    // GNU's sizes (16 KiB, 256 KiB from 9.6) made small; 9.5+ have the quirk.
    CountOptions options = options_for(rule);
    options.gnu_multibyte_read_size = 16;
    if (rule == gnu95) options.gnu_split_rescan_read_size = 16;
    REQUIRE(fastwc::count::needs_gnu_read_boundaries(options));
    // 81 40 at offsets 15 and 16: the first read ends after 81, and the
    // second asks for 16 - 1 bytes.
    std::string input(15, 'x');
    input += "\x81\x40";
    input += std::string(20, ' ');
    std::size_t offset = 0;
    std::vector<std::size_t> requests;
    auto read = [&](std::byte *buffer, std::size_t size) -> ssize_t {
      requests.push_back(size);
      const std::size_t n = std::min(size, input.size() - offset);
      std::memcpy(buffer, input.data() + offset, n);
      offset += n;
      return static_cast<ssize_t>(n);
    };
    const fastwc::CountResult result = fastwc::engine::count_with_gnu_reads(options, read);
    CHECK(result.error == 0);
    // Under 9.5+ the re-read '@' counts too.
    CHECK(result.counts.chars == (rule == gnu95 ? 15 + 1 + 1 + 20 : 15 + 1 + 20));
    REQUIRE(requests.size() >= 2);
    CHECK(requests[0] == 16);
    CHECK(requests[1] == 15);
  }
  // -l and -c never decode, so any reads do.
  CountOptions lines = options_for(gnu95, Selection{true, false, false, true, false});
  lines.gnu_multibyte_read_size = 16;
  CHECK_FALSE(fastwc::count::needs_gnu_read_boundaries(lines));
}

TEST_CASE("other multibyte: without the split rescan, counts never depend on the pieces") {
  // Bytes that lead, trail or stand alone in these encodings, and ASCII.
  static const std::string_view alphabet[] = {"\x81", "\x84", "\x86", "\x88", "\xa0", "\xa4",
                                              "\xb1", "\xe0", "\xf8", "\x30", "\x40", "\x62",
                                              " ",    "\n",   "a",    "$",    "\x01", "\xcc"};
  std::mt19937 rng(12);
  // Not TCVN: its converter holds back a letter that a combining mark may
  // follow, so a letter ending a read decodes otherwise, in GNU's loop too
  // (count_fd reads as GNU does for that reason).
  for (const char *name : {"ja_JP.SJIS", "zh_CN.GBK", "zh_CN.GB18030", "zh_TW.BIG5",
                           "zh_HK.BIG5-HKSCS", "ja_JP.EUC-JISX0213", "ja_JP.SHIFT_JISX0213"}) {
    TestLocale locale(name);
    if (!locale.active()) continue;
    const std::string locale_name = name;
    CAPTURE(locale_name);
    for (int round = 0; round < 20; ++round) {
      std::string input;
      std::uniform_int_distribution<std::size_t> pick(0, std::size(alphabet) - 1);
      for (int i = 0; i < 60; ++i) input += alphabet[pick(rng)];
      for (WordRule rule : {gnu91, gnu95}) {
        CountOptions options = options_for(rule);
        options.gnu_split_rescan_read_size = 0;
        const Counts whole = count_pieces(options, {input});
        CHECK(whole.bytes == input.size());
        for (std::size_t cut = 0; cut <= input.size(); ++cut) {
          const std::string_view view = input;
          const Counts split = count_pieces(options, {view.substr(0, cut), view.substr(cut)});
          if (!(split == whole)) {
            FAIL_CHECK("rule " << int(rule) << ", cut at " << cut << ": " << show(split) << " vs "
                               << show(whole));
            break;
          }
        }
      }
    }
  }
}

TEST_CASE("the public API: fields not selected are 0 in every engine, bytes always counted") {
  // The reference engine (other multibyte locales) counts everything, the
  // chunk engine (UTF-8, single-byte) only what is selected; count_buffer,
  // Counter and count_fd promise the same either way.
  const std::string_view input = "ab cd\n\xa4\xa4 e\tf\n";
  const auto bytes = std::as_bytes(std::span(input.data(), input.size()));
  struct Engine {
    const char *locale;
    Encoding encoding;
  };
  for (const Engine engine : {Engine{"C", Encoding::single_byte}, Engine{"C.UTF-8", Encoding::utf8},
                              Engine{"zh_HK.BIG5-HKSCS", Encoding::other_multibyte}}) {
    TestLocale locale(engine.locale);
    if (!locale.active()) continue;
    for (unsigned mask = 0; mask < 32; ++mask) {
      Selection s{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0,
                  (mask & 16) != 0};
      CountOptions options = options_for(gnu95, s);
      options.encoding = engine.encoding;
      const Counts got = fastwc::count_buffer(bytes, options);
      CAPTURE(engine.locale);
      CAPTURE(mask);
      CHECK(got.lines == (s.lines ? 2u : 0u));
      CHECK((got.words != 0) == s.words);
      CHECK((got.chars != 0) == s.chars);
      CHECK((got.max_line_length != 0) == s.max_line_length);
      CHECK(got.bytes == input.size());
    }
  }
}
