// SPDX-License-Identifier: GPL-3.0-or-later
// bench_kernels' speed goals, one table: what the active kernel should
// reach per mode and corpus, one core, and for each goal what limits it on
// the machines measured so far (bench/micro/RESULTS.md has the
// measurements behind each line); and the goals between ISAs, which hold
// for every row. bench_kernels prints a goal's limit under its table when
// a row falls short of it.
#pragma once

#include <cstddef>
#include <string_view>

namespace bench_goals {

/// A goal for the rows whose mode starts with one of `modes` and whose
/// corpus is one of `corpora` (both '|'-separated; an empty `corpora`:
/// every corpus but the adversarial ones).
struct Goal {
  std::string_view modes;
  std::string_view corpora;
  double gbps;
  bool cache_resident_only;
  std::string_view limit;
};

inline constexpr std::string_view word_modes = "-w UTF-8|-lwc UTF-8|-mw UTF-8";
inline constexpr std::string_view adversarial = "invalid-heavy|random binary";

/// First match wins.
inline constexpr Goal goals[] = {
    {"-l ", "English ASCII", 100, true,
     "a compare and a popcount per 64 bytes: the loads (two a cycle)"},
    {"", adversarial, 1.5, false,
     "blocks that fail the validator go a unit at a time (exact_units, as glibc's decoder takes "
     "invalid bytes); random binary under 9.1 with -m is the slowest: every block fails and most "
     "of its leads need their cell"},
    {"-w C|-lwc C", "English ASCII", 30, false,
     "per 64 bytes the space and printable masks (compares) and the word state's carry chain; the "
     "same code runs 42 GB/s on the AMD EPYC (Zen 5) and 28 on the Intel Xeon, whose core is "
     "slower at every mode (0.6-0.75x)"},
    {"-L ", "English ASCII", 5, false,
     "the printable, tab and line-break masks and a loop step per tab or line break"},
    {"-m UTF-8", "English ASCII", 40, false, "the test that each block is ASCII, then 64 bytes"},
    {word_modes, "English ASCII", 30, false,
     "ASCII blocks go -w C's way (ascii_run), after the test that each block is ASCII; the Intel "
     "Xeon's core as for -w C"},
    {"-m UTF-8", "", 15, false,
     "the validator (simdutf's nibble lookups) and a popcount per block: met everywhere"},
    {word_modes, "multilingual UTF-8", 6, false,
     "every script's leads in turn: the bit maps, the three-byte slots and the emoji's, and the "
     "hot cells for the blocks whose cells the slots lack (busy blocks)"},
    {"-L UTF-8", "multilingual UTF-8", 4, false,
     "as the words, with each character's width; without VBMI the table's gathers"},
    {word_modes, "cyrillic|greek|latin", 12, false,
     "each block passes the validator (without it, unsafely, 9.1's words ran 1.12-1.51x on the "
     "Intel Xeon: about 8 of its 24-40 cycles a block), then the leads that do not settle their "
     "class go through the bit maps and slots: Latin's C2 and E2 (no-break spaces, guillemets, "
     "quotes, the euro sign) and Greek's CE (a cell with unassigned code points) in nearly every "
     "block; with -m under 9.5 the separators' patterns and the validator both. On new text "
     "Latin's blocks with and without three-byte characters alternate unpredictably (branch "
     "mispredictions: 4.4 GB/s against 7.8 repeated on the AMD EPYC)"},
    {"-L UTF-8", "cyrillic|greek|latin", 12, false,
     "the words' lookups with widths instead of classes (wide marks, bit maps and slots), each "
     "behind a branch on whether the block holds such characters, which new text mispredicts "
     "(Cyrillic 4.9 GB/s on new text against 9.3 repeated, AMD EPYC); the column sums take no "
     "branch in a block with at most one line break and no tab"},
    {word_modes, "chinese|japanese|korean", 6, false,
     "every character is three bytes: its cell's slot (kana's cells mix assigned and unassigned "
     "code points, so Japanese needs the slots' permutes on every block), and under 9.1 with -m "
     "the validator besides"},
    {"-L UTF-8", "chinese|japanese|korean", 6, false,
     "each character's width from its lead's wide mark or its cell's slot (kana's cells mix "
     "widths and unassigned code points, full-width punctuation is in cells of its own)"},
    {word_modes, "devanagari", 5, false, "combining marks: their cells by slot in every block"},
    {"-L UTF-8", "devanagari", 5, false,
     "combining marks (zero columns) by slot in every block, besides the letters' widths"},
    {word_modes, "emoji", 3, false,
     "three lookups a block: the emoji (F0 9F) by slot one byte on, their joiners and variation "
     "selectors (E2 80 8D, EF B8 8F) by the three-byte slots, and the flags' regional indicators "
     "(F0 9F 87) in cells of their own"},
    {"-L UTF-8", "emoji", 3, false,
     "the words' three lookups with widths: two columns for most emoji, none for joiners, "
     "variation selectors and skin tones"},
};

/// Goals between the kernels of each row (every row, adversarial included).
struct IsaGoal {
  std::string_view name;
  double ratio;
  std::string_view limit;
};

inline constexpr IsaGoal avx2_vs_avx512{
    "AVX2 at least 0.6x AVX-512", 0.6,
    "half the bytes an instruction: where the core runs 512-bit vectors at full width (the AMD "
    "EPYC, Zen 5) even -l and -m run AVX2 at 0.46-0.5x of AVX-512 (on the Intel Xeon 0.64-0.74x); "
    "and for multibyte words and -L no 64-byte permute (VBMI's vpermb): the bit maps and slots "
    "become vpshufb lookups in 16-byte lanes (CellSlotClassifier: eight cells, where emoji's "
    "widths mix eleven), the cells they do not hold go to the table's gathers; widest under 9.1 "
    "and for -L (0.3-0.5x), where VBMI does the most"};
inline constexpr IsaGoal sse2_vs_scalar{
    "SSE2 at least 2x scalar", 2.0,
    "no byte shuffle (pshufb is SSSE3): leads and cells that do not settle their class are "
    "looked at with compares, a lead or a cell at a time, or a character at a time through the "
    "table of planes 0 and 1 (CellLooks::by_table); runs of blocks with many such characters "
    "(kana, Devanagari's and emoji's widths) go the scalar kernel's way (StridePolicy, "
    "busy_cells), where SSE2 runs 0.85-1.0x the scalar kernel: its per-block tests on top of "
    "that way"};

/// Whether `pred` holds for one of the '|'-separated items of `list`.
template <class Pred>
bool any_item(std::string_view list, Pred pred) {
  for (;;) {
    const std::size_t bar = list.find('|');
    if (pred(list.substr(0, bar))) return true;
    if (bar == std::string_view::npos) return false;
    list.remove_prefix(bar + 1);
  }
}

inline bool listed(std::string_view list, std::string_view item) {
  return any_item(list, [item](std::string_view x) { return x == item; });
}

inline bool starts_any(std::string_view prefixes, std::string_view mode) {
  return any_item(prefixes, [mode](std::string_view x) { return mode.starts_with(x); });
}

/// The goal of a row, or nullptr.
inline const Goal *goal_of(std::string_view mode, std::string_view corpus, bool cache_resident) {
  for (const Goal &g : goals) {
    if (!starts_any(g.modes, mode)) continue;
    const bool in = g.corpora.empty() ? !listed(adversarial, corpus) : listed(g.corpora, corpus);
    if (!in) continue;
    if (g.cache_resident_only && !cache_resident) return nullptr;
    return &g;
  }
  return nullptr;
}

}  // namespace bench_goals
