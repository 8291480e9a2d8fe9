// SPDX-License-Identifier: GPL-3.0-or-later
// Which plans go in stride by cell (cells_in_stride.hpp, leads_alone.hpp)
// on which ISA, and when the stride hands blocks back to the UTF-8 loop's
// classifiers (kernel_driver.hpp): choices between ways that count the
// same, each one measured (bench/micro/RESULTS.md, 2026-12-03, an Intel
// Xeon with AVX-512 VBMI, every kernel with byte shuffles).
#pragma once

#include <algorithm>
#include <cstddef>

#include "count/kernels/cells_in_stride.hpp"
#include "count/kernels/isa_primitives.hpp"

namespace fastwc::count::kernels {

template <class A>
struct StridePolicy {
  using Isa = IsaOps<A>;
  using Stride = CellsInStride<A>;

  /// Blocks the stride leaves busy (Stride::Busy) go to the UTF-8 loop's
  /// classifiers, and so do the blocks after them up to `pause` bytes on,
  /// before the stride is tried again: busy blocks come in runs (text that
  /// mixes scripts or emoji), and each try costs a call. With VBMI, GNU
  /// 9.1's words gain most by leaving every block that needs a cell to the
  /// hot cells (Chinese 1.75x; now a cell that the stride's three-byte
  /// slots do not hold yet, and the try gives it one), but under 9.5's
  /// rule that cost emoji 0.6x, so there only blocks past the stride's
  /// inline looks go; with gathers alone (AVX2, AVX-512BW) those go (-mw
  /// 1.3-1.6x); without gathers (SSSE3) the stride keeps them (emoji -mw
  /// 0.7x otherwise). Pauses from 256 to 8192 bytes measured alike. -L
  /// counts in the stride too, as 9.1's words (Rule95 false): with VBMI its
  /// bit maps made that 1.1-1.26x on mixed text, Cyrillic, Greek, Arabic,
  /// Japanese and Korean, 0.9-0.95x on Chinese, emoji and typographic
  /// English, against the UTF-8 loop's hot cells. Without byte shuffles
  /// (SSE2), 9.1's words and -L leave the second of two blocks in a row
  /// whose cells need more than the inline looks to the scalar kernel's
  /// way (busy_cells): Japanese 0.77x in the stride, 0.92-0.97x so (runs
  /// and builds differ).
  template <bool Rule95>
  static constexpr auto busy = (Isa::has_permute64 || !Isa::has_shuffle) && !Rule95
                                   ? Stride::Busy::at_cells
                               : Isa::has_gather ? Stride::Busy::at_classify
                                                 : Stride::Busy::never;
  static constexpr std::size_t pause = 2048;
  /// Where the stride is tried again after a run from pos that stopped at a
  /// busy block at end: `pause` bytes on; without byte shuffles, twice as
  /// far again (up to 16 times) after each run of fewer than four blocks,
  /// since SSE2's busy blocks are text the scalar kernel's way counts
  /// faster (kana: Japanese leaves the stride at its first block; -w 9.1
  /// 0.91x -> 0.98x the scalar kernel, and with runs counted short up to 2
  /// KiB, mixed text lost 0.85x).
  static std::size_t after_busy(std::size_t pos, std::size_t end, unsigned &short_runs) noexcept {
    if constexpr (Isa::has_shuffle) return end + pause;
    if (end - pos >= 256) short_runs = 0;
    return end + (pause << std::min(short_runs++, 4u));
  }
  /// With byte shuffles alone, the cells met take CellSlotClassifier's
  /// slots (cell_looks.hpp) for GNU 9.1's words and for -L (Chinese,
  /// Japanese and Latin -w 1.3-1.7x); not for 9.5's words alone, whose
  /// unsettled leads are the few that lead separators (C2, E1..E3), which
  /// the stride's inline looks take for less (with the slots, Latin,
  /// Japanese and emoji -mw 0.92x).
  template <bool Rule95, bool Width>
  static constexpr bool cell_slots = Stride::uses_cell_slots && (Width || !Rule95);
  /// GNU 9.1's words without -m by lead_run over any bytes, where there is
  /// no VBMI: with it, valid text goes faster in the UTF-8 loop's stride
  /// with the hot cells for its busy blocks, and blocks that fail the
  /// validator are judged by their leads there too.
  static constexpr bool lead_run_first = !Isa::has_permute64;
  /// Which plans go in stride by cell: all that count words or widths.
  /// Without byte shuffles (SSE2) the stride's lookups are compares, a lead
  /// or a cell at a time, and a few characters a block the table of planes
  /// 0 and 1 (CellLooks::by_table). Measured against the scalar kernel's
  /// way, SSE2, 256 KiB: -mw 9.5 1.34-4.17x on every script; -w and -mw
  /// 9.1 (leaving busy blocks, as `busy` says) Cyrillic, Latin, Arabic and
  /// typographic English 3.0-3.8x, Greek, Devanagari and Korean 1.5-1.8x,
  /// mixed text 1.35-1.45x, Chinese and emoji 1.15-1.3x, Japanese
  /// 0.98-1.0x; -L Cyrillic, Latin 2.3-2.6x, Korean, Greek, Arabic,
  /// English 1.4-1.9x, mixed text and Chinese 1.07-1.1x, Devanagari, emoji
  /// and Japanese 0.91-1.0x (the scalar kernel's way alone: 0.95-1.0x).
  /// GNU 9.5+'s words with -m (without -L) in stride by the separators'
  /// patterns (separator_chars_in_stride.hpp), not by cell, on every ISA.
  /// Measured against the stride by cell, -mw 9.5, 256 KiB: VBMI 0.99-1.94x
  /// (emoji 1.94x; Latin, Chinese and Japanese 1.27-1.39x), AVX2 1.0-1.89x,
  /// SSE2 0.99-1.81x, SSSE3 0.96-1.53x, AVX-512BW 1.01-2.12x but 0.91x on
  /// Arabic, Devanagari and Korean (no separator lead in most blocks, and
  /// no permute to say so in one step).
  template <bool Rule95, bool Words, bool Width>
  static constexpr bool separators_with_chars = (Rule95 && Words && !Width);
  template <bool Rule95, bool Words, bool Width>
  static constexpr bool in_stride = Words || Width;
};

}  // namespace fastwc::count::kernels
