// SPDX-License-Identifier: GPL-3.0-or-later
// The reference counter's split invariance: generated inputs of every class
// (ASCII, multilingual, invalid, NUL, binary, long lines) in two pieces at
// every split point and in random pieces give one piece's counts, in both
// locales, both word rules and both multibyte loops.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <clocale>
#include <cstdint>
#include <ios>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/reference_counter.hpp"
#include "reference_test_support.hpp"

using namespace std::string_view_literals;

using namespace reference_test;

namespace {

/// Generators of test inputs: each returns a string of about `size` bytes.
using Generator = std::string (*)(std::mt19937 &, std::size_t);

std::string pick_pieces(std::mt19937 &rng, std::size_t size,
                        std::span<const std::string_view> pool) {
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  std::string out;
  while (out.size() < size) out += pool[pick(rng)];
  return out;
}

std::string gen_ascii(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",    "word",     "Hello", " ",    "  ",   "\t",
                                          "\n",   "\r\n",     "\f",    "\v",   "\001", "\177",
                                          "x\by", "12345678", ".",     "\033["};
  return pick_pieces(rng, size, pool);
}

std::string gen_multilingual(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",
                                          "héllo",
                                          " ",
                                          "\n",
                                          "\t",
                                          "中文",
                                          "日本語",
                                          "😀",
                                          "👨‍👩",
                                          "\u00a0",
                                          "\u2007",
                                          "\u202f",
                                          "\u2060",
                                          "\u3000",
                                          "\u2003",
                                          "\u1680",
                                          "\u2028",
                                          "\u2029",
                                          "e\u0301",
                                          "\u0301",
                                          "\u200b",
                                          "\ufeff",
                                          "\u00ad",
                                          "\u0085",
                                          "\uffff",
                                          "\u0378",
                                          "Ωμέγα",
                                          "русский",
                                          "\r",
                                          "\364\220\200\200",
                                          "\370\210\200\200\200",
                                          "\375\277\277\277\277\277",
                                          "🇫🇷",
                                          "ｆｕｌｌ"};
  return pick_pieces(rng, size, pool);
}

std::string gen_invalid(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"a",
                                          " ",
                                          "\n",
                                          "é",
                                          "中",
                                          "\344\270",
                                          "\344",
                                          "\360\237\230",
                                          "\360\237",
                                          "\340\200",
                                          "\355\240",
                                          "\355\240\200",
                                          "\300\200",
                                          "\301",
                                          "\200",
                                          "\277",
                                          "\376",
                                          "\377",
                                          "\370\200",
                                          "\374\203\200",
                                          "\370\210\200\200",
                                          "\375\277\277\277\277",
                                          "\344\n",
                                          "b\t"};
  return pick_pieces(rng, size, pool);
}

std::string gen_nul(std::mt19937 &rng, std::size_t size) {
  static const std::string_view pool[] = {"\0"sv,   "a\0b"sv, " \0 "sv, "\0\n"sv,
                                          "word"sv, "\0\0"sv, "中\0"sv, "\344\0\270"sv};
  return pick_pieces(rng, size, pool);
}

std::string gen_binary(std::mt19937 &rng, std::size_t size) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string out(size, '\0');
  for (char &ch : out) ch = static_cast<char>(byte(rng));
  return out;
}

std::string gen_utf8_continuations(std::mt19937 &rng, std::size_t size) {
  // Bytes drawn from the ranges that matter to the decoder, so that long
  // and truncated forms are common.
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<int> cont(0x80, 0xBF);
  std::uniform_int_distribution<int> lead(0xC0, 0xFF);
  std::uniform_int_distribution<int> ascii(0, 0x7F);
  std::string out;
  while (out.size() < size) {
    const int k = kind(rng);
    out += static_cast<char>(k < 5 ? cont(rng) : k < 8 ? lead(rng) : ascii(rng));
  }
  return out;
}

std::string gen_long_lines(std::mt19937 &rng, std::size_t size) {
  std::uniform_int_distribution<int> pick(0, 15);
  std::string out;
  while (out.size() < size) {
    switch (pick(rng)) {
      case 0:
        out += '\t';
        break;
      case 1:
        out += '\r';
        break;
      case 2:
        out += "\xe3\x80\x80";
        break;  // U+3000, width 2
      case 3:
        out += "\xe4\xb8\xad";
        break;  // width 2
      case 4:
        out += ' ';
        break;
      default:
        out += static_cast<char>('a' + pick(rng));
        break;
    }
  }
  out += '\n';
  return out;
}

struct NamedGenerator {
  const char *name;
  Generator generate;
};

const NamedGenerator generators[] = {
    {"ascii", gen_ascii},           {"multilingual", gen_multilingual},
    {"invalid", gen_invalid},       {"nul", gen_nul},
    {"binary", gen_binary},         {"continuations", gen_utf8_continuations},
    {"long lines", gen_long_lines},
};

std::size_t count_newlines(std::string_view s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("reference counter: split invariance over generated inputs") {
  const std::vector<Setting> settings = all_settings();
  std::mt19937 rng(7);
  long inputs = 0;
  long comparisons = 0;
  long mismatches = 0;
  for (const NamedGenerator &gen : generators) {
    for (int round = 0; round < 24; ++round) {
      std::uniform_int_distribution<std::size_t> length(1, round < 16 ? 300 : 1500);
      const std::string input = gen.generate(rng, length(rng));
      ++inputs;
      Counts utf8_whole[2] = {};  // the utf8 loop's counts, per word rule
      for (const Setting &setting : settings) {
        const GlobalLocale global(setting.locale);
        CAPTURE(gen.name);
        CAPTURE(setting.name);
        const Counts whole = count_one(input, setting.options);
        // Invariants that hold in every setting.
        CHECK(whole.bytes == input.size());
        CHECK(whole.lines == count_newlines(input));
        if (setting.options.encoding == Encoding::single_byte) CHECK(whole.chars == whole.bytes);
        const auto rule_index = static_cast<std::size_t>(setting.options.word_rule);
        if (setting.options.encoding == Encoding::utf8 && setting.options.nbsp_separates_words)
          utf8_whole[rule_index] = whole;
        // The mbrtowc loop and fastwc's decoder agree in C.UTF-8 (settings
        // list the utf8 loop first).
        if (setting.options.encoding == Encoding::other_multibyte)
          CHECK(show(whole) == show(utf8_whole[rule_index]));

        // Two pieces, at every split point (0 and size give an empty piece).
        for (std::size_t cut = 0; cut <= input.size(); ++cut) {
          const Counts split = count_pieces(input, setting.options, {cut});
          ++comparisons;
          if (!(split == whole) && mismatches++ < 10)
            FAIL_CHECK("split at " << cut << ": " << show(split) << " vs " << show(whole));
        }
        // Random k pieces, empty pieces included; and one byte at a time.
        std::uniform_int_distribution<std::size_t> offset(0, input.size());
        std::uniform_int_distribution<int> pieces(3, 40);
        for (int trial = 0; trial < 20; ++trial) {
          std::vector<std::size_t> cuts(static_cast<std::size_t>(pieces(rng)) - 1);
          for (std::size_t &c : cuts) c = offset(rng);
          std::sort(cuts.begin(), cuts.end());
          const Counts split = count_pieces(input, setting.options, cuts);
          ++comparisons;
          if (!(split == whole) && mismatches++ < 10)
            FAIL_CHECK("random pieces: " << show(split) << " vs " << show(whole));
        }
        std::vector<std::size_t> every(input.size());
        for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
        ++comparisons;
        CHECK(show(count_pieces(input, setting.options, every)) == show(whole));
      }
    }
  }
  MESSAGE(inputs << " inputs, " << settings.size() << " settings, " << comparisons
                 << " split comparisons");
  CHECK(mismatches == 0);
}

TEST_CASE("reference counter: a large input in random pieces, both rules") {
  std::mt19937 rng(99);
  std::string input;
  for (const NamedGenerator &gen : generators) input += gen.generate(rng, 40'000);
  for (const Setting &setting : all_settings()) {
    const GlobalLocale global(setting.locale);
    CAPTURE(setting.name);
    const Counts whole = count_one(input, setting.options);
    std::uniform_int_distribution<std::size_t> offset(0, input.size());
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<std::size_t> cuts(200);
      for (std::size_t &c : cuts) c = offset(rng);
      std::sort(cuts.begin(), cuts.end());
      CHECK(show(count_pieces(input, setting.options, cuts)) == show(whole));
    }
  }
}
