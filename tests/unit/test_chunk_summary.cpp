// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of chunk summaries (count/summary*.hpp, count/chunk_summarizer.hpp):
// the -L column maps against direct simulation, -L's 64-unit step
// (Accumulate::widths) against units one at a time, the monoid laws of merge
// (identity, associativity), summarize(A) merged with summarize(B) equal to
// summarize(AB) at every split point of generated inputs (inside multibyte
// characters, words, tab-expanded lines, runs of invalid bytes, CR LF), and
// random k-way splits of large inputs, always with finish() equal to the
// reference engine, for every kernel this machine runs, in the C and UTF-8
// locales, under both word rules, with and without the no-break-space rule.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../support/sweep_stride.hpp"
#include "count/chunk_summarizer.hpp"
#include "count/dispatch.hpp"
#include "count/reference_counter.hpp"
#include "count/summary_ops.hpp"
#include "locale/char_classes.hpp"

using namespace std::string_view_literals;

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;
using fastwc::count::BaselineTag;
using fastwc::count::ChunkSummarizer;
using fastwc::count::ChunkSummary;
using fastwc::count::ColumnMap;
using fastwc::count::KernelId;
using fastwc::count::ReferenceCounter;
using fastwc::locale::CharClasses;
using Ops = fastwc::count::SummaryOps<BaselineTag>;

const CharClasses &classes_for(Encoding encoding) {
  static const CharClasses c_locale("C");
  static const CharClasses utf8_locale("C.UTF-8");
  return encoding == Encoding::utf8 ? utf8_locale : c_locale;
}

std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size()};
}

std::string show(const Counts &c) {
  return std::to_string(c.lines) + " " + std::to_string(c.words) + " " + std::to_string(c.chars) +
         " " + std::to_string(c.bytes) + " " + std::to_string(c.max_line_length);
}

/// The reference's counts with unselected fields zeroed, as ChunkSummarizer
/// reports them.
Counts reference_counts(std::string_view input, const CountOptions &options) {
  ReferenceCounter reference(options, classes_for(options.encoding));
  reference.update(as_bytes(input));
  Counts c = reference.finish();
  const Selection &s = options.selection;
  if (!s.lines) c.lines = 0;
  if (!s.words) c.words = 0;
  if (!s.chars) c.chars = 0;
  if (!s.max_line_length) c.max_line_length = 0;
  return c;
}

/// Every selection that leads to a different plan, and the default.
std::vector<Selection> plan_selections() {
  std::vector<Selection> out;
  out.push_back(Selection::gnu_default());
  out.push_back(Selection::all());
  Selection s{};
  s.lines = true;
  out.push_back(s);  // newlines
  s = Selection{};
  s.chars = true;
  out.push_back(s);  // UTF-8 chars
  s = Selection{};
  s.words = true;
  out.push_back(s);
  s = Selection{};
  s.max_line_length = true;
  out.push_back(s);
  s = Selection{};
  s.words = s.max_line_length = true;
  out.push_back(s);
  s = Selection{};
  s.bytes = true;
  out.push_back(s);  // no kernel at all
  return out;
}

struct Config {
  CountOptions options;
  KernelId kernel;
  std::string name;
};

/// Both locales, both word rules, the no-break-space rule on and off, both
/// UTF-8 decoders, each plan, each kernel this machine runs.
std::vector<Config> all_configs() {
  std::vector<Config> out;
  for (const Encoding encoding : {Encoding::single_byte, Encoding::utf8})
    for (const WordRule rule : {WordRule::printable_constituents, WordRule::non_space_constituents})
      for (const bool nbsp : {true, false})
        for (const Selection &selection : plan_selections())
          for (const KernelId kernel : fastwc::count::all_kernels) {
            if (!fastwc::count::kernel_supported(kernel)) continue;
            CountOptions o;
            o.selection = selection;
            o.encoding = encoding;
            o.word_rule = rule;
            o.nbsp_separates_words = nbsp;
            std::string name = encoding == Encoding::utf8 ? "C.UTF-8" : "C";
            name += rule == WordRule::printable_constituents ? " 9.1" : " 9.5";
            name += nbsp ? " nbsp" : " POSIXLY_CORRECT";
            name += std::string(" l") + (selection.lines ? "1" : "0") + "w" +
                    (selection.words ? "1" : "0") + "m" + (selection.chars ? "1" : "0") + "L" +
                    (selection.max_line_length ? "1" : "0");
            name += std::string(" ") + fastwc::count::kernel_id_name(kernel);
            out.push_back({o, kernel, name});
            // GNU 9.11+ (9.5 rules) decodes UTF-8 with RFC 3629's rules.
            if (encoding == Encoding::utf8 && rule == WordRule::non_space_constituents) {
              o.utf8_decoding = fastwc::Utf8Decoding::rfc3629;
              out.push_back({o, kernel, name + " rfc3629"});
            }
          }
  return out;
}

/// Pieces that exercise every boundary case: multibyte characters (valid,
/// glibc-only, overlong, surrogate, truncated), runs of continuation bytes,
/// word classes of each kind, tabs and line ends of each kind.
constexpr std::string_view fragments[] = {
    "a",
    "word",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\f",
    "\v",
    "\001",
    "\0"sv,
    "\177",
    "12345678\t",
    "\303\251",
    "\302\240",
    "\302\205",
    "\342\200\207",
    "\342\200\257",
    "\342\201\240",
    "\342\200\203",
    "\343\200\200",
    "\342\200\250",
    "\342\200\213",
    "\344\270\255",
    "\360\237\230\200",
    "\314\201",
    "\315\270",
    "\357\277\277",
    "\364\220\200\200",
    "\370\210\200\200\200",
    "\375\277\277\277\277\277",
    "\374\200\200\200\200\200",
    "\300\200",
    "\340\200\200",
    "\355\240\200",
    "\360\200\200\200",
    "\344\270",
    "\360\237\230",
    "\200",
    "\277\277",
    "\200\200\200\200\200\200\200",
    "\376",
    "\377",
    "\370\210",
    "\375\277\277\277\277",
    "\364\217\277\277",
    "\365\200\200\200",
    "\364\220",
    "\340\240",
    "\355\237\277",
};

std::string random_small_input(std::mt19937 &rng) {
  std::uniform_int_distribution<std::size_t> count(0, 7);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(fragments) - 1);
  std::string s;
  for (std::size_t n = count(rng); n > 0; --n) s += fragments[pick(rng)];
  return s;
}

/// About `size` bytes in one of several styles.
std::string random_large_input(std::mt19937 &rng, std::size_t size, int style) {
  std::string s;
  s.reserve(size + 16);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(fragments) - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  static constexpr std::string_view words[] = {"the ",   "quick ", "brown\t", "fox\n",
                                               "jumps ", "over ",  "lazy ",   "dog.\n"};
  static constexpr std::string_view intl[] = {"Привет ",    "мир ",      "中文字 ",   "日本語の",
                                              "テキスト\n", "Ελληνικά ", "العربية ",  "😀 ",
                                              "café ",      "naïve\t",   "“quoted” ", "—\n"};
  while (s.size() < size) {
    switch (style) {
      case 0:  // English-like ASCII
        s += words[static_cast<std::size_t>(percent(rng)) % std::size(words)];
        break;
      case 1:  // multilingual UTF-8, with long ASCII runs now and then
        if (percent(rng) < 20)
          s += words[static_cast<std::size_t>(percent(rng)) % std::size(words)];
        else
          s += intl[static_cast<std::size_t>(percent(rng)) % std::size(intl)];
        break;
      case 2:  // the boundary fragments
        s += fragments[pick(rng)];
        break;
      default:  // random bytes
        s += static_cast<char>(byte(rng));
        break;
    }
  }
  return s;
}

ChunkSummary summarize(const ChunkSummarizer &counter, std::string_view s) {
  return counter.summarize(as_bytes(s));
}

}  // namespace

TEST_CASE("column maps compose like the tab rule they summarize") {
  // Segments of widths and tabs, simulated with GNU's rule from many start
  // columns, against the map built op by op and against then().
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> op(0, 9);
  for (int round = 0; round < 2000; ++round) {
    std::vector<int> ops;  // -1 = tab, else a width
    for (int n = op(rng); n > 0; --n) ops.push_back(op(rng) < 3 ? -1 : op(rng) % 4);
    const std::size_t split =
        ops.empty() ? 0 : static_cast<std::size_t>(op(rng)) % (ops.size() + 1);
    ColumnMap whole{}, first{}, second{};
    for (std::size_t i = 0; i < ops.size(); ++i) {
      for (ColumnMap *m : {&whole, i < split ? &first : &second}) {
        if (ops[i] < 0)
          Ops::add_tab(*m);
        else
          Ops::add_width(*m, static_cast<std::uint64_t>(ops[i]));
      }
    }
    CHECK(Ops::then(first, second) == whole);
    for (std::uint64_t start = 0; start < 40; ++start) {
      std::uint64_t col = start;
      for (const int o : ops) col = o < 0 ? col + 8 - col % 8 : col + static_cast<std::uint64_t>(o);
      REQUIRE(Ops::apply(whole, start) == col);
    }
  }
  // The column depends on the start column only through the first tab.
  ColumnMap m{};
  Ops::add_width(m, 3);
  Ops::add_tab(m);
  Ops::add_width(m, 2);
  CHECK(Ops::apply(m, 0) == 10);
  CHECK(Ops::apply(m, 4) == 10);
  CHECK(Ops::apply(m, 5) == 18);
  CHECK(Ops::apply(ColumnMap{}, 7) == 7);
}

TEST_CASE("-L's 64 units at a time equal the units one at a time") {
  // Accumulate::widths has a path without branches for blocks with no tab
  // and at most one break, and a loop for the others: both against the
  // unit-at-a-time steps (the scalar kernel's), from lines in progress with
  // and without a tab, before and after the chunk's first break, with bits
  // past `end` set.
  using Acc = fastwc::count::Accumulate<BaselineTag>;
  using fastwc::count::UnitAccumulator;
  std::mt19937_64 rng(29);
  const auto sparse = [&rng](unsigned per_block) {
    std::uint64_t m = 0;
    for (unsigned k = rng() % (per_block + 1); k > 0; --k) m |= std::uint64_t{1} << (rng() % 64);
    return m;
  };
  int fast = 0;
  for (int round = 0; round < 20000; ++round) {
    UnitAccumulator start{};
    if (rng() % 2 != 0) {
      // A chunk past its first break, and a line whose columns were added.
      Acc::width(start, rng() % 50);
      Acc::line_break(start);
      Acc::width(start, rng() % 200);
    }
    if (rng() % 3 == 0) {
      Acc::tab(start);
      Acc::width(start, rng() % 20);
    }
    const std::uint64_t breaks = sparse(round % 4);
    const std::uint64_t tabs = round % 3 == 0 ? sparse(2) : 0;
    const std::uint64_t two = rng() & rng();
    const std::uint64_t one = rng() & ~two;
    const unsigned end = rng() % 4 == 0 ? static_cast<unsigned>(rng() % 65) : 64;
    UnitAccumulator blockwise = start;
    Acc::widths(blockwise, one, two, tabs, breaks, end);
    UnitAccumulator unitwise = start;
    for (unsigned i = 0; i < end; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << i;
      if ((tabs & bit) != 0)
        Acc::tab(unitwise);
      else if ((breaks & bit) != 0)
        Acc::line_break(unitwise);
      else
        Acc::width(unitwise, (one & bit) != 0 ? 1 : (two & bit) != 0 ? 2 : 0);
    }
    const std::uint64_t live = end == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << end) - 1;
    if ((tabs & live) == 0 && !start.line.has_tab && std::popcount(breaks & live) <= 1) ++fast;
    REQUIRE(blockwise.summary.width == unitwise.summary.width);
    REQUIRE(blockwise.line == unitwise.line);
  }
  CHECK(fast > 5000);  // both paths taken many times
  CHECK(fast < 15000);
}

TEST_CASE("summaries: identity, every split point, associativity, reference counts") {
  std::mt19937 rng(3);
  std::vector<std::string> inputs;
  for (int i = 0; i < 150; ++i) inputs.push_back(random_small_input(rng));
  for (const std::string_view f : fragments) inputs.emplace_back(f);
  inputs.emplace_back("");
  inputs.emplace_back("\200\200\200\200\200");
  inputs.emplace_back("a\tb\rcd\f\n\t\t12345678\tx");

  std::uint64_t checks = 0;
  for (const Config &config : all_configs()) {
    CAPTURE(config.name);
    const ChunkSummarizer counter(config.options, classes_for(config.options.encoding),
                                  config.kernel);
    for (const std::string &input : inputs) {
      CAPTURE(input);
      const ChunkSummary whole = summarize(counter, input);
      REQUIRE(show(counter.finish(whole)) == show(reference_counts(input, config.options)));
      REQUIRE(counter.merge(ChunkSummary{}, whole) == whole);
      REQUIRE(counter.merge(whole, ChunkSummary{}) == whole);
      for (std::size_t cut = 0; cut <= input.size(); ++cut) {
        const std::string_view s(input);
        const ChunkSummary merged =
            counter.merge(summarize(counter, s.substr(0, cut)), summarize(counter, s.substr(cut)));
        CAPTURE(cut);
        REQUIRE(merged == whole);
        ++checks;
      }
    }
    // Associativity of merge itself, on triples of summaries.
    std::uniform_int_distribution<std::size_t> pick(0, inputs.size() - 1);
    for (int i = 0; i < 200; ++i) {
      const ChunkSummary a = summarize(counter, inputs[pick(rng)]);
      const ChunkSummary b = summarize(counter, inputs[pick(rng)]);
      const ChunkSummary c = summarize(counter, inputs[pick(rng)]);
      REQUIRE(counter.merge(counter.merge(a, b), c) == counter.merge(a, counter.merge(b, c)));
      ++checks;
    }
  }
  MESSAGE("split and associativity checks: " << checks);
}

TEST_CASE("summaries: random k-way splits of large inputs") {
  std::mt19937 rng(17);
  const std::vector<Config> configs = all_configs();
  for (int style = 0; style < 4; ++style) {
    const std::string input = random_large_input(rng, sweep::size(150000, 50000), style);
    for (const Config &config : configs) {
      CAPTURE(config.name);
      CAPTURE(style);
      const ChunkSummarizer counter(config.options, classes_for(config.options.encoding),
                                    config.kernel);
      const ChunkSummary whole = summarize(counter, input);
      REQUIRE(show(counter.finish(whole)) == show(reference_counts(input, config.options)));
      // Pieces of every size from 1 byte to tens of KiB, the small ones
      // likely to be all continuation bytes or a cut sequence.
      std::uniform_int_distribution<std::size_t> big(1, 40000);
      std::uniform_int_distribution<std::size_t> small(1, 7);
      std::uniform_int_distribution<int> coin(0, 2);
      ChunkSummary folded{};
      std::vector<ChunkSummary> pieces;
      for (std::size_t pos = 0; pos < input.size();) {
        std::size_t len = coin(rng) == 0 ? small(rng) : big(rng);
        if (len > input.size() - pos) len = input.size() - pos;
        pieces.push_back(summarize(counter, std::string_view(input).substr(pos, len)));
        folded = counter.merge(folded, pieces.back());
        pos += len;
      }
      REQUIRE(folded == whole);
      // The same pieces merged as a balanced tree (how a parallel pipeline
      // would combine them).
      while (pieces.size() > 1) {
        std::vector<ChunkSummary> next;
        for (std::size_t i = 0; i + 1 < pieces.size(); i += 2)
          next.push_back(counter.merge(pieces[i], pieces[i + 1]));
        if (pieces.size() % 2 == 1) next.push_back(pieces.back());
        pieces.swap(next);
      }
      REQUIRE(pieces.front() == whole);
    }
  }
}

TEST_CASE("summaries: runs of ASCII of every length, then each fragment") {
  // The scalar kernel counts runs of 32 ASCII bytes and more as 64-bit
  // masks, a whole or partial block at a time, and goes back to one
  // character at a time where a run ends: every run length across two
  // blocks, ended by each kind of character, sequence or error.
  const std::string ascii = "ab cd\tef\ngh\001i\177 jk  lm\rno\fpq  ";
  std::string text;
  while (text.size() < 160) text += ascii;
  // The scalar kernel's configurations: the others are compared with it
  // in test_kernels.cpp.
  std::vector<Config> configs;
  for (const Config &config : all_configs())
    if (config.kernel == KernelId::scalar) configs.push_back(config);
  std::uint64_t checks = 0;
  for (std::size_t run = 0; run <= 140; ++run)
    for (const std::string_view f : fragments) {
      const std::string input = text.substr(0, run) + std::string(f) + text.substr(run % 7, 70);
      CAPTURE(run);
      CAPTURE(input);
      for (const Config &config : configs) {
        CAPTURE(config.name);
        const ChunkSummarizer counter(config.options, classes_for(config.options.encoding),
                                      config.kernel);
        const ChunkSummary whole = summarize(counter, input);
        REQUIRE(show(counter.finish(whole)) == show(reference_counts(input, config.options)));
        const std::string_view v(input);
        REQUIRE(counter.merge(summarize(counter, v.substr(0, run)),
                              summarize(counter, v.substr(run))) == whole);
        ++checks;
      }
    }
  MESSAGE("run checks: " << checks);
}

TEST_CASE("finish after a read error drops a truncated sequence") {
  CountOptions o;
  o.selection = Selection::all();
  o.encoding = Encoding::utf8;
  o.word_rule = WordRule::non_space_constituents;
  const ChunkSummarizer counter(o, classes_for(Encoding::utf8));
  const ChunkSummary s = summarize(counter, "a \344\270");
  // 9.5 at end of input: the two bytes are a word; after a read error they
  // are dropped (GNU leaves its read loop at once).
  CHECK(counter.finish(s).words == 2);
  CHECK(counter.finish(s, true).words == 1);
  CHECK(counter.finish(s, true).bytes == 4);
  ReferenceCounter reference(o, classes_for(Encoding::utf8));
  reference.update(as_bytes("a \344\270"));
  CHECK(show(reference.finish_after_error()) == show(counter.finish(s, true)));
}

TEST_CASE("summaries record prefix and tail bytes") {
  CountOptions o;
  o.selection = Selection::all();
  o.encoding = Encoding::utf8;
  const ChunkSummarizer counter(o, classes_for(Encoding::utf8));
  const ChunkSummary s = summarize(counter, "\270\255x\344\270");
  CHECK(s.prefix_size == 2);
  CHECK(s.tail_size == 2);
  CHECK(s.units.chars == 1);
  // Six continuation bytes: five may belong to a character begun before,
  // the sixth cannot.
  const ChunkSummary six = summarize(counter, "\200\200\200\200\200\200");
  CHECK(six.prefix_size == 5);
  CHECK(six.bytes == 6);
  // A 6-byte glibc character cut after its lead byte completes across
  // chunks, and its bytes are counted once.
  const ChunkSummary lead = summarize(counter, "\375");
  CHECK(lead.tail_size == 1);
  const ChunkSummary joined = counter.merge(lead, summarize(counter, "\277\277\277\277\277z"));
  CHECK(counter.finish(joined).chars == 2);
  CHECK(counter.finish(joined).bytes == 7);
}
