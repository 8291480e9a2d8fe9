// SPDX-License-Identifier: GPL-3.0-or-later
// Microbenchmark of the counting kernels: GB/s of ChunkSummarizer::summarize
// per mode, kernel and corpus, on in-memory buffers of 256 KiB (cache
// resident) and 256 MiB, with the reference engine beside them, printed as
// one table against the kernels' speed goals. Every row also checks that each
// kernel's counts equal the reference's (the "ok" column), so a fast wrong
// kernel cannot pass.
//
// Usage: bench_kernels [--quick] [--size=KiB]... [--scripts=DIR]  (see --help)
// With --scripts, the per-script corpora that `python3 bench/lib/corpus.py
// --scripts DIR` writes get rows too.
#include <algorithm>
#include <chrono>
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/chunk_summarizer.hpp"
#include "count/dispatch.hpp"
#include "count/reference_counter.hpp"
#include "goals_report.hpp"
#include "kernel_goals.hpp"
#include "locale/char_classes.hpp"
#include "page_aligned.hpp"

namespace {

using fastwc::CountOptions;
using fastwc::Counts;
using fastwc::Encoding;
using fastwc::Selection;
using fastwc::WordRule;
using fastwc::count::ChunkSummarizer;
using fastwc::count::KernelId;

// ---- corpora ----

enum class Corpus { english, multilingual, invalid, binary };

const char *corpus_name(Corpus c) {
  switch (c) {
    case Corpus::english:
      return "English ASCII";
    case Corpus::multilingual:
      return "multilingual UTF-8";
    case Corpus::invalid:
      return "invalid-heavy";
    case Corpus::binary:
      return "random binary";
  }
  return "?";
}

/// Lines of words separated by spaces, with punctuation, an indented line
/// now and then (tabs), 40 to 100 columns per line.
std::string english(std::size_t size, std::mt19937 &rng) {
  static constexpr std::string_view words[] = {"the",
                                               "of",
                                               "and",
                                               "to",
                                               "in",
                                               "a",
                                               "is",
                                               "that",
                                               "for",
                                               "it",
                                               "as",
                                               "was",
                                               "with",
                                               "be",
                                               "by",
                                               "on",
                                               "not",
                                               "he",
                                               "this",
                                               "are",
                                               "or",
                                               "his",
                                               "from",
                                               "at",
                                               "which",
                                               "but",
                                               "have",
                                               "an",
                                               "had",
                                               "they",
                                               "you",
                                               "were",
                                               "their",
                                               "one",
                                               "all",
                                               "we",
                                               "can",
                                               "her",
                                               "has",
                                               "there",
                                               "been",
                                               "if",
                                               "more",
                                               "when",
                                               "will",
                                               "would",
                                               "who",
                                               "so",
                                               "no",
                                               "counting",
                                               "characters",
                                               "newline",
                                               "implementation",
                                               "performance",
                                               "(example)",
                                               "words,",
                                               "end."};
  std::uniform_int_distribution<std::size_t> pick(0, std::size(words) - 1);
  std::uniform_int_distribution<int> len(40, 100);
  std::string s;
  s.reserve(size + 128);
  while (s.size() < size) {
    if (pick(rng) % 8 == 0) s += '\t';
    const std::size_t start = s.size();
    const auto target = static_cast<std::size_t>(len(rng));
    while (s.size() - start < target) {
      s += words[pick(rng)];
      s += ' ';
    }
    s.back() = '\n';
  }
  s.resize(size);
  return s;
}

/// Paragraphs in several scripts: Cyrillic, Greek, CJK, Japanese kana,
/// Arabic, Latin with accents, plus typographic quotes, dashes and emoji.
std::string multilingual(std::size_t size, std::mt19937 &rng) {
  static constexpr std::string_view words[][8] = {
      {"Привет", "мир", "это", "пример", "текста", "на", "русском", "языке"},
      {"Καλημέρα", "κόσμε", "αυτό", "είναι", "ένα", "παράδειγμα", "κειμένου", "ελληνικά"},
      {"这是", "一个", "中文", "文本", "的", "例子", "我们", "计算字符"},
      {"これは", "日本語", "の", "テキスト", "です", "ひらがな", "カタカナ", "漢字"},
      {"هذا", "مثال", "على", "نص", "باللغة", "العربية", "مع", "كلمات"},
      {"café", "naïve", "façade", "über", "Größe", "déjà", "vu", "señor"},
      {"“quoted”", "—", "emoji", "😀", "🎉", "text", "and", "more"},
  };
  std::uniform_int_distribution<std::size_t> lang(0, std::size(words) - 1);
  std::uniform_int_distribution<std::size_t> pick(0, 7);
  std::uniform_int_distribution<int> line(8, 16);
  std::string s;
  s.reserve(size + 256);
  while (s.size() < size) {
    const std::size_t l = lang(rng);
    for (int n = line(rng); n > 0; --n) {
      s += words[l][pick(rng)];
      s += ' ';
    }
    s.back() = '\n';
  }
  s.resize(size);
  return s;
}

/// Latin-1 text read as UTF-8: ASCII with a lone byte >= 0x80 every few
/// words, plus some truncated and overlong sequences.
std::string invalid(std::size_t size, std::mt19937 &rng) {
  static constexpr std::string_view words[] = {"caf\xe9",
                                               "na\xef"
                                               "ve",
                                               "\xfc"
                                               "ber",
                                               "se\xf1"
                                               "or",
                                               "the",
                                               "and",
                                               "text",
                                               "\xe4\xb8",
                                               "\xc0\x80",
                                               "\xed\xa0\x80",
                                               "plain",
                                               "words",
                                               "\xff\xfe",
                                               "more"};
  std::uniform_int_distribution<std::size_t> pick(0, std::size(words) - 1);
  std::string s;
  s.reserve(size + 16);
  while (s.size() < size) {
    s += words[pick(rng)];
    s += pick(rng) % 10 == 0 ? '\n' : ' ';
  }
  s.resize(size);
  return s;
}

std::string binary(std::size_t size, std::mt19937 &rng) {
  std::string s(size, '\0');
  std::uniform_int_distribution<int> byte(0, 255);
  for (char &c : s) c = static_cast<char>(byte(rng));
  return s;
}

std::string make_corpus(Corpus c, std::size_t size) {
  std::mt19937 rng(42);
  switch (c) {
    case Corpus::english:
      return english(size, rng);
    case Corpus::multilingual:
      return multilingual(size, rng);
    case Corpus::invalid:
      return invalid(size, rng);
    case Corpus::binary:
      return binary(size, rng);
  }
  return {};
}

/// The per-script corpora of bench/lib/corpus.py (SCRIPTS), in its order.
constexpr const char *script_names[] = {"cyrillic", "greek",    "latin",  "arabic", "devanagari",
                                        "chinese",  "japanese", "korean", "emoji",  "english"};

/// A corpus file repeated to `size` bytes; empty when it cannot be read.
/// Only its first `size` bytes are read: with 64 MiB corpora and 4 MiB
/// buffers, reading (and growing a string to) the whole file took two
/// thirds of a run.
std::string script_corpus(const std::string &dir, std::string_view script, std::size_t size) {
  std::string path = dir + "/" + std::string(script) + ".txt";
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::string text;
  char buf[65536];
  for (std::size_t n; text.size() < size && (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    text.append(buf, n);
  std::fclose(f);
  if (text.empty()) return {};
  std::string s;
  s.reserve(size + text.size());
  while (s.size() < size) s += text;
  s.resize(size);
  return s;
}

// ---- modes and goals ----

struct Mode {
  const char *name;
  Encoding encoding;
  Selection selection;
  WordRule rule;
};

Selection sel(bool l, bool w, bool m, bool c, bool L) { return Selection{l, w, m, c, L}; }

const Mode modes[] = {
    {"-l (any locale)", Encoding::single_byte, sel(true, false, false, false, false),
     WordRule::printable_constituents},
    {"-w C 9.1", Encoding::single_byte, sel(false, true, false, false, false),
     WordRule::printable_constituents},
    {"-w C 9.5", Encoding::single_byte, sel(false, true, false, false, false),
     WordRule::non_space_constituents},
    {"-lwc C 9.1", Encoding::single_byte, sel(true, true, false, true, false),
     WordRule::printable_constituents},
    {"-L C", Encoding::single_byte, sel(false, false, false, false, true),
     WordRule::printable_constituents},
    {"-m UTF-8", Encoding::utf8, sel(false, false, true, false, false),
     WordRule::printable_constituents},
    {"-w UTF-8 9.1", Encoding::utf8, sel(false, true, false, false, false),
     WordRule::printable_constituents},
    {"-w UTF-8 9.5", Encoding::utf8, sel(false, true, false, false, false),
     WordRule::non_space_constituents},
    {"-lwc UTF-8 9.1", Encoding::utf8, sel(true, true, false, true, false),
     WordRule::printable_constituents},
    // The default count under GNU 9.5+'s rules: words by separator pattern.
    {"-lwc UTF-8 9.5", Encoding::utf8, sel(true, true, false, true, false),
     WordRule::non_space_constituents},
    // Words with -m: in stride over valid text, by cell.
    {"-mw UTF-8 9.1", Encoding::utf8, sel(false, true, true, false, false),
     WordRule::printable_constituents},
    {"-mw UTF-8 9.5", Encoding::utf8, sel(false, true, true, false, false),
     WordRule::non_space_constituents},
    {"-L UTF-8", Encoding::utf8, sel(false, false, false, false, true),
     WordRule::printable_constituents},
};

// ---- timing ----

using Clock = std::chrono::steady_clock;

/// Best GB/s of `run` over repetitions filling at least `min_seconds`.
template <class F>
double best_gbps(std::size_t bytes, double min_seconds, int min_reps, F run) {
  double best = 1e30;
  double total = 0;
  for (int rep = 0; rep < min_reps || total < min_seconds; ++rep) {
    const auto t0 = Clock::now();
    run();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    best = std::min(best, s);
    total += s;
    if (rep > 10000) break;
  }
  return static_cast<double>(bytes) / best / 1e9;
}

volatile std::uint64_t sink = 0;

void usage() {
  std::puts(
      "usage: bench_kernels [--quick] [--size=KiB]... [--no-reference]\n"
      "                     [--mode=TEXT] [--corpus=TEXT] [--kernel=NAME]\n"
      "  GB/s of each counting kernel per mode and corpus (default sizes:\n"
      "  256 KiB and 262144 KiB); --quick: less time per measurement;\n"
      "  --mode, --corpus: only rows whose mode or corpus name contains TEXT;\n"
      "  --kernel: only that kernel's column;\n"
      "  --scripts=DIR: also the per-script corpora DIR/<script>.txt\n"
      "  (python3 bench/lib/corpus.py --scripts DIR), repeated to each size.\n"
      "  Each buffer is counted again and again: at 256 KiB the branch\n"
      "  predictor learns it, so branchy kernels measure faster than on new\n"
      "  text; 64 MiB corpora (--size 67108864) with --size=4096 show the\n"
      "  speed on data not seen before (HACKING.md).");
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes;
  bool quick = false;
  bool reference = true;
  std::string_view mode_filter;
  std::string_view corpus_filter;
  std::string_view kernel_filter;
  std::string scripts_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--no-reference") {
      reference = false;
    } else if (a.starts_with("--mode=")) {
      mode_filter = a.substr(7);
    } else if (a.starts_with("--kernel=")) {
      kernel_filter = a.substr(9);
    } else if (a.starts_with("--corpus=")) {
      corpus_filter = a.substr(9);
    } else if (a.starts_with("--scripts=")) {
      scripts_dir = std::string(a.substr(10));
    } else if (a.starts_with("--size=")) {
      sizes.push_back(std::strtoull(argv[i] + 7, nullptr, 10) * 1024);
    } else {
      usage();
      return a == "--help" ? 0 : 2;
    }
  }
  if (sizes.empty()) sizes = {256 * 1024, std::size_t{256} * 1024 * 1024};

  const fastwc::locale::CharClasses c_classes("C");
  const fastwc::locale::CharClasses utf8_classes("C.UTF-8");
  std::vector<KernelId> kernels;
  for (const KernelId k : fastwc::count::all_kernels)
    if (fastwc::count::kernel_supported(k) &&
        (kernel_filter.empty() || kernel_filter == fastwc::count::kernel_id_name(k)))
      kernels.push_back(k);

  std::printf(
      "fastwc kernel microbenchmark: GB/s (1e9 bytes/s), single thread, in-memory buffer,\n"
      "best of repeated runs; active kernel: %s\n\n",
      fastwc::count::kernel_id_name(fastwc::count::active_kernel()));
  std::printf("| %-15s | %-18s | %9s |", "mode", "corpus", "size");
  for (const KernelId k : kernels) std::printf(" %8s |", fastwc::count::kernel_id_name(k));
  std::printf(" %9s | %6s | %-7s | %-19s | %-3s |\n", "reference", "goal", "met", "ISA goals",
              "ok");
  std::printf("|-----------------|--------------------|-----------|");
  for (std::size_t i = 0; i < kernels.size(); ++i) std::printf("----------|");
  std::printf("-----------|--------|---------|---------------------|-----|\n");

  int failures = 0;
  bench_goals::ShortOf short_of;
  for (const std::size_t size : sizes) {
    const bool small = size <= (std::size_t{4} << 20);
    const double min_seconds = quick ? 0.05 : (small ? 0.3 : 1.0);
    const int min_reps = small ? 20 : (quick ? 1 : 3);
    // The built-in corpora, then the per-script ones.
    struct Row {
      std::string name;
      int builtin;  // a Corpus, or -1
    };
    std::vector<Row> rows;
    for (const Corpus corpus :
         {Corpus::english, Corpus::multilingual, Corpus::invalid, Corpus::binary})
      rows.push_back({corpus_name(corpus), static_cast<int>(corpus)});
    if (!scripts_dir.empty())
      for (const char *script : script_names) rows.push_back({script, -1});
    for (const Row &row : rows) {
      if (row.name.find(corpus_filter) == std::string::npos) continue;
      const std::string text = row.builtin >= 0
                                   ? make_corpus(static_cast<Corpus>(row.builtin), size)
                                   : script_corpus(scripts_dir, row.name, size);
      if (text.size() != size) {
        std::fprintf(stderr, "bench_kernels: cannot read %s/%s.txt\n", scripts_dir.c_str(),
                     row.name.c_str());
        return 2;
      }
      const PageAligned aligned(text);
      const std::span<const std::byte> bytes = aligned.bytes();
      for (const Mode &mode : modes) {
        if (std::string_view(mode.name).find(mode_filter) == std::string_view::npos) continue;
        CountOptions options;
        options.selection = mode.selection;
        options.encoding = mode.encoding;
        options.word_rule = mode.rule;
        const auto &classes = mode.encoding == Encoding::utf8 ? utf8_classes : c_classes;

        // The reference's counts, for the ok column.
        fastwc::count::ReferenceCounter ref(options, classes);
        double ref_gbps = 0;
        if (reference && (small || !quick)) {
          ref_gbps = best_gbps(size, small ? min_seconds : 0, small ? 3 : 1, [&] {
            ref.update(bytes);
            sink = sink + ref.finish().bytes;
          });
        }
        ref.update(bytes);
        Counts want = ref.finish();
        const Selection &s = options.selection;
        if (!s.lines) want.lines = 0;
        if (!s.words) want.words = 0;
        if (!s.chars) want.chars = 0;
        if (!s.max_line_length) want.max_line_length = 0;

        std::printf("| %-15s | %-18s | %6zu %s |", mode.name, row.name.c_str(),
                    size >= (std::size_t{1} << 20) ? size >> 20 : size >> 10,
                    size >= (std::size_t{1} << 20) ? "MiB" : "KiB");
        bool all_ok = true;
        double active = 0;  // the active kernel's GB/s (0: not among the columns)
        double by_kernel[std::size(fastwc::count::all_kernels)] = {};
        for (const KernelId k : kernels) {
          const ChunkSummarizer counter(options, classes, k);
          const bool ok = counter.finish(counter.summarize(bytes)) == want;
          all_ok = all_ok && ok;
          const double gbps = best_gbps(size, min_seconds, min_reps, [&] {
            sink = sink + counter.summarize(bytes).units.lines;
          });
          if (k == fastwc::count::active_kernel()) active = gbps;
          by_kernel[static_cast<std::size_t>(k)] = gbps;
          std::printf(" %8.2f |", gbps);
        }
        const std::string label = std::string(mode.name) + ", " + row.name;
        const bench_goals::Goal *g = bench_goals::goal_of(mode.name, row.name, small);
        if (reference && ref_gbps > 0)
          std::printf(" %9.3f |", ref_gbps);
        else
          std::printf(" %9s |", "-");
        if (g != nullptr && active > 0) {
          std::printf(" %6.1f | %-7s |", g->gbps, active >= g->gbps ? "yes" : "NO");
          if (active < g->gbps) short_of.add(bench_goals::goal_name(*g), g->limit, label, active);
        } else if (g != nullptr) {
          std::printf(" %6.1f | %-7s |", g->gbps, "-");  // --kernel left the active one out
        } else {
          std::printf(" %6s | %-7s |", "-", "-");
        }
        std::printf(" %-19s |", bench_goals::isa_goals(by_kernel, label, short_of).c_str());
        std::printf(" %-3s |\n", all_ok ? "ok" : "BAD");
        std::fflush(stdout);
        if (!all_ok) ++failures;
      }
    }
  }
  std::printf(
      "\ngoal/met: the active kernel against the kernels' speed goal for that mode and corpus "
      "(bench/micro/kernel_goals.hpp); ISA goals: the ratios between kernels short of theirs, %s "
      "and %s;\nok: every kernel's counts equal the reference engine's.\n",
      bench_goals::avx2_vs_avx512.name.data(), bench_goals::sse2_vs_scalar.name.data());
  short_of.print();
  return failures == 0 ? 0 : 1;
}
