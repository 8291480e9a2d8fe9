// SPDX-License-Identifier: GPL-3.0-or-later
// What one unit (a byte, a decoded character or an encoding error) does to
// each count, packed into one byte, for one locale, word rule and no-break
// space option. The kernels' scalar paths look units up here instead of
// asking locale::CharClasses each time; every answer is derived from
// CharClasses' word-class and width functions, so GNU's rules stay written
// in one place (src/locale/char_classes.cpp).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "count/cell_census.hpp"
#include "fastwc/options.hpp"
#include "support/lazy_block_table.hpp"
#include "support/zeroed_atomic_array.hpp"

namespace fastwc::locale {
class CharClasses;
}

namespace fastwc::count {

/// Bit layout of a unit's properties.
namespace unit_props {
inline constexpr std::uint8_t separator = 1;    ///< ends a word
inline constexpr std::uint8_t constituent = 2;  ///< starts or continues a word
inline constexpr std::uint8_t word_mask = 3;    ///< neither bit: transparent
inline constexpr unsigned width_shift = 2;      ///< -L columns (0..2) in bits 2-3
inline constexpr std::uint8_t width_mask = 3u << width_shift;
inline constexpr std::uint8_t newline = 16;     ///< 0x0A: counted by -l
inline constexpr std::uint8_t line_break = 32;  ///< LF, CR, FF: ends a line for -L
inline constexpr std::uint8_t tab = 64;         ///< moves -L to the next tab stop
}  // namespace unit_props

/// The separators among the characters of one lead byte, by the bytes that
/// follow it: a two-byte lead's characters by their second byte, a
/// three-byte lead's by their third byte, one group per second byte.
struct SeparatorGroup {
  std::uint8_t lead;
  std::uint8_t second;  ///< three-byte leads: the second byte; 0 for two-byte leads
  std::uint64_t last;   ///< bit k: the character whose last byte is 0x80 + k separates
};

/// Every character above U+007F that separates words under GNU 9.5+'s rule
/// (white space, and GNU's no-break spaces unless POSIXLY_CORRECT), as the
/// separator groups of their leads: there every other character and every
/// encoding error is a word constituent, so a kernel can count words by
/// matching these byte patterns, without decoding (in glibc's locales C2 A0
/// and a few three-byte forms led by E1, E2 and E3).
struct SeparatorCensus {
  const SeparatorGroup *groups;
  unsigned count;
  /// U+10000..U+10FFFF were walked too, and none of them separates; until
  /// then only two- and three-byte characters are known, and a kernel must
  /// decode four-byte ones.
  bool four_byte_clear;
};

/// What every character with a given UTF-8 lead byte has in common, as bit
/// planes over the 64 lead bytes C0..FF (bit b is lead 0xC0 + b), so that
/// kernels can classify most multibyte characters by their lead byte alone.
struct LeadPlanes {
  std::uint64_t same_class;   ///< all characters with this lead have one word class
  std::uint64_t constituent;  ///< ... and it is constituent (else transparent)
  std::uint64_t same_width;   ///< all have one -L width
  std::uint64_t width1;       ///< ... and it is 1
  std::uint64_t width2;       ///< ... and it is 2 (neither: 0)
  /// Every character with this lead is a constituent but the separators
  /// that `separators` lists (a few, in glibc's locales: white space
  /// U+1680, U+2000-U+200A, U+2028, U+3000..., and GNU's no-break spaces),
  /// so that the lead's word classes are a byte-pattern match.
  std::uint64_t separator_pattern;
  /// The groups of the leads in separator_pattern (at least theirs; the
  /// array never changes once published, it only grows).
  const SeparatorGroup *separators;
  unsigned separator_count;
  /// Three-byte leads whose row of `cells` is known (bit b: lead 0xC0 + b).
  std::uint64_t cells_known;
  /// For three-byte lead 0xE0 + h, entry s of row h describes the 64 code
  /// points that start with the lead and second byte 0x80 + s: their
  /// properties when all are the same, else cell_mixed. 64-byte rows, for
  /// one byte permute by second byte; complete before the lead's bit is
  /// published in cells_known, never changed afterwards.
  const std::uint8_t (*cells)[64];
  /// The properties of every code point of planes 0 and 1 (U+0000..U+1FFFF:
  /// the BMP, and emoji), one byte each, plus three bytes of padding (so
  /// that a 32-bit load at any code point stays inside), or nullptr until
  /// UnitClasses::bmp_table_threshold characters have gone the
  /// per-character way. Complete when published, never changed afterwards.
  const std::uint8_t *bmp;
};

/// In LeadPlanes::cells: the cell's code points do not all have the same
/// properties (no property uses this bit).
inline constexpr std::uint8_t cell_mixed = 0x80;

/// 64 consecutive code points from a multiple of 64 (a cell): those share
/// every byte of their UTF-8 form but the last, so a cell is a two-byte lead
/// byte, a three-byte lead with its second byte, or a four-byte lead with
/// its second and third bytes.
struct CellInfo {
  std::uint64_t exceptions;  ///< bit k: code point 64 * cell + k has other properties
  std::uint8_t props;        ///< the properties that the other code points share
  bool planes_changed;       ///< lead_planes() learned something (reload them)
  /// The properties of all 64 code points in order (a 64-byte table that a
  /// byte permute looks up by the last byte's low six bits), valid as long
  /// as the UnitClasses; null when no memory could be had for it.
  const std::uint8_t *table;
};

/// Unit properties of one (locale, word rule, no-break-space option).
///
/// Byte properties are computed in the constructor. Properties of decoded
/// characters below U+110000 are cached in blocks of 256 code points filled
/// on first use and published with one compare-and-swap, like CharClasses'
/// own cache, so all const members may be called from several threads.
class UnitClasses {
 public:
  UnitClasses(const locale::CharClasses &classes, WordRule rule, bool nbsp_separates);
  ~UnitClasses();
  UnitClasses(const UnitClasses &) = delete;
  UnitClasses &operator=(const UnitClasses &) = delete;

  /// The process-wide instance for these classes and options (at most four
  /// per locale; never destroyed, like CharClasses::current()).
  static const UnitClasses &get(const locale::CharClasses &classes, WordRule rule,
                                bool nbsp_separates);

  /// A byte in a single-byte locale, or an ASCII byte in a multibyte one.
  std::uint8_t byte(std::uint8_t b) const noexcept { return bytes_[b]; }
  /// A decoded character that is not ASCII. (Inline for the scalar paths,
  /// which are all compiled with baseline flags; SIMD kernels do not call it.)
  std::uint8_t wide(char32_t c) const noexcept {
    if (const std::uint8_t *known = wide_.find(c)) return *known;
    return wide_uncached(c);
  }
  /// A byte that does not decode: no width, never a line end; transparent
  /// under GNU <= 9.4, a word constituent from 9.5 on.
  std::uint8_t invalid() const noexcept { return invalid_; }

  /// True when every byte has the properties the SIMD kernels hard-code for
  /// single-byte locales (those of the C locale): separators 09-0D and 20,
  /// and A0 when a0_separates(); width 1 for 20-7E; 21-7E constituents with
  /// every other byte transparent (9.1) or every non-separator a
  /// constituent (9.5).
  bool bytes_match_c_locale() const noexcept { return bytes_match_c_; }
  /// The same for the ASCII bytes alone (what UTF-8 kernels hard-code).
  bool ascii_matches_c_locale() const noexcept { return ascii_match_c_; }
  /// Byte A0 separates words. In the C locale that is GNU >= 9.5 without
  /// POSIXLY_CORRECT: gnulib's btoc32 maps bytes 80-FF to U+0080-U+00FF
  /// there, so A0 is a no-break space (char_classes.cpp).
  bool a0_separates() const noexcept { return a0_separates_; }

  /// The lead bytes found uniform so far. A lead is examined (all of its
  /// up to 4096 code points) only after note_slow_lead() has counted enough
  /// of its characters on the per-character path to pay for it, so small
  /// inputs never pay; until then, and for 4- to 6-byte leads always, its
  /// bits are 0.
  LeadPlanes lead_planes() const noexcept;
  /// The cell of code points 64 * index .. 64 * index + 63 (index < 2048:
  /// planes 0 and 1, where emoji are), computed on first use; also counts
  /// `count` characters of the cell toward its lead byte's examination (as
  /// note_slow_lead does).
  CellInfo cell(std::uint32_t index, std::uint32_t count) const noexcept;

  /// Counts `count` characters with this lead classified one by one;
  /// returns true when that made the lead's planes or the BMP table known
  /// (the caller may reload them).
  bool note_slow_lead(std::uint8_t lead, std::uint32_t count) const noexcept;

  /// Examines every two- and three-byte lead now (tests use it to reach the
  /// lead planes and separator patterns on small inputs).
  void resolve_all_leads() const noexcept;

  /// At most this many separator groups in all: a lead that would pass it
  /// keeps its other ways of classification.
  static constexpr unsigned max_separator_groups = 16;

  /// Characters classified one by one (or by cell) before the table of
  /// planes 0 and 1 (LeadPlanes::bmp) is built. Building it asks the C
  /// library about 129,000 code points (4-5 ms here); by the ski-rental
  /// rule it is built once per-character lookups have cost about as much:
  /// at a file's start, where those also fill the lazy tables, about 20 ns
  /// each (measured: the first MiB of Chinese took 8 ms). Halving it from
  /// 2^19, with the three-byte leads' 32768 -> 8192: `fastwc -w` on 2 MB of
  /// Chinese 12.4 -> 6.2 ms, on 128 MiB 61 -> 50 ms, 200 KB 5.5 -> 3.9 ms.
  static constexpr std::uint64_t bmp_table_threshold = std::uint64_t{1} << 18;
  /// Builds the table of planes 0 and 1 now (tests use it to reach the
  /// table's kernels on small inputs); false when there is no memory for it.
  bool build_bmp_table() const noexcept;
  /// LeadPlanes::bmp alone (one load, where the other planes are not needed).
  const std::uint8_t *bmp_table() const noexcept {
    return bmp_table_.load(std::memory_order_acquire);
  }

  /// GNU 9.5+'s rule: the census of separators, or nullptr (always under
  /// 9.1's rule, and when the separators would not fit in
  /// max_separator_groups). It is taken once callers have announced
  /// census_threshold bytes in all (`bytes`: what this caller is about to
  /// count), so that small inputs never pay for it. Complete when
  /// published, never changed afterwards.
  const SeparatorCensus *separator_census(std::uint64_t bytes) const noexcept;
  /// Counts four-byte characters that a kernel decoded and looked up one
  /// by one for want of the census of U+10000..U+10FFFF; takes that part of
  /// the census once they reach four_byte_census_threshold.
  void note_four_byte_lookups(std::uint64_t characters) const noexcept;
  /// Takes the census now, of U+10000..U+10FFFF too when `four_byte`
  /// (tests use it to reach the pattern kernels on small inputs); false
  /// when there is none for this rule.
  bool take_separator_census(bool four_byte) const noexcept;
  /// By the ski-rental rule, as bmp_table_threshold: walking U+0080..U+FFFF
  /// costs 0.4-0.7 ms, about what decoding 1 MiB of text costs in the
  /// kernels that the census replaces; the planes above cost 4-7 ms, about
  /// what looking up 2^18 four-byte characters one by one costs (a decode
  /// and a lookup each, 15-25 ns).
  static constexpr std::uint64_t census_threshold = std::uint64_t{1} << 20;
  static constexpr std::uint64_t four_byte_census_threshold = std::uint64_t{1} << 18;

  /// The census of word classes and widths by cell (cell_census.hpp),
  /// under either rule, or nullptr until callers have announced cell_census_threshold
  /// bytes in all, as separator_census. Complete when published.
  const CellCensus *cell_census(std::uint64_t bytes) const noexcept;
  /// Takes it now (tests use it to reach the kernels that need it on small
  /// inputs).
  const CellCensus *take_cell_census() const noexcept;
  /// The word classes and widths of a cell (compute_cell_masks), kept once the census
  /// is taken: text that mixes many cells (each kernel call has a small
  /// cache of its own) asks the C library about each cell once.
  CellMasks cell_masks(std::uint32_t cell) const noexcept;
  /// By the ski-rental rule, as census_threshold: the walk asks for the
  /// classes of about 63,000 code points (measured on the AMD EPYC of
  /// bench/results/2026-12-02-amd-word-cells: 4.2 ms when CharClasses has
  /// none of them yet, 2 ms when it has), what the decoding kernels it
  /// replaces, at 0.3-1 GB/s a core, spend on about 2 MiB.
  static constexpr std::uint64_t cell_census_threshold = std::uint64_t{1} << 21;

  const locale::CharClasses &classes() const noexcept { return *classes_; }
  WordRule rule() const noexcept { return rule_; }
  bool nbsp_separates() const noexcept { return nbsp_separates_; }

  /// The properties the kernels assume for byte b in the C locale.
  static std::uint8_t c_locale_byte(std::uint8_t b, WordRule rule, bool a0_separates) noexcept;

 private:
  /// A cell a block, as CharClasses' blocks (char_classes.hpp says why).
  static constexpr unsigned block_bits = 6;

  std::uint8_t compute_wide(char32_t c) const noexcept;
  std::uint8_t wide_uncached(char32_t c) const noexcept;
  void resolve_lead(std::uint8_t lead) const noexcept;
  /// For a three-byte lead (under the publishers' lock, unit_classes.cpp):
  /// LeadPlanes::cells' row of the code points first..last it starts, and
  /// its cells_known bit.
  void publish_cell_row(std::uint8_t lead, char32_t first, char32_t last) const noexcept;
  /// For a lead whose characters are not all of one class (resolve_lead,
  /// which holds the lock): its separators as groups, when they are few.
  void publish_separator_groups(std::uint8_t lead, char32_t first, char32_t last) const noexcept;
  /// take_cell_census with its lock held.
  const CellCensus *walk_cell_census_locked() const noexcept;

  const locale::CharClasses *classes_;
  WordRule rule_;
  bool nbsp_separates_;
  bool bytes_match_c_ = false;
  bool ascii_match_c_ = false;
  bool a0_separates_ = false;
  std::uint8_t invalid_ = 0;
  std::array<std::uint8_t, 256> bytes_{};
  /// Below U+110000, computed a block at a time (glibc's 5- and 6-byte
  /// forms above it are computed on every use).
  support::LazyBlockTable<std::uint8_t, block_bits, 0x110000> wide_;
  /// Characters per lead byte seen one by one (relaxed, may lose counts).
  mutable std::array<std::atomic<std::uint32_t>, 64> lead_hits_{};
  mutable std::array<std::atomic<bool>, 64> lead_resolved_{};
  static constexpr std::size_t cell_count = 2048;
  static constexpr std::uint8_t cell_ready = 0x80;  ///< in cell_props_: computed
  support::ZeroedAtomicArray<std::uint8_t, cell_count> cell_props_;
  support::ZeroedAtomicArray<std::uint64_t, cell_count> cell_exceptions_;
  mutable std::atomic<std::uint64_t> same_class_{0}, constituent_{0}, same_width_{0}, width1_{0},
      width2_{0}, separator_pattern_{0};
  /// LeadPlanes::separators: entries below separator_count_ are complete
  /// (written before the count's release store) and never change.
  mutable std::array<SeparatorGroup, max_separator_groups> separator_groups_{};
  mutable std::atomic<unsigned> separator_count_{0};
  /// Characters noted by note_slow_lead (relaxed; losing counts only delays).
  mutable std::atomic<std::uint64_t> slow_chars_{0};
  /// LeadPlanes::cells and cells_known (written under the publishers'
  /// lock; every entry cell_mixed until its row is published).
  alignas(64) mutable std::uint8_t lead_cells_[16][64];
  mutable std::atomic<std::uint64_t> cells_known_{0};
  /// LeadPlanes::bmp: published once, complete (release / acquire).
  mutable std::atomic<std::uint8_t *> bmp_table_{nullptr};
  /// Adds the separators among first..last (both below U+10000) to
  /// census_groups_; false when they do not fit.
  bool add_census_range(char32_t first, char32_t last, unsigned &count) const noexcept;
  /// The census: census_[0] of U+0080..U+FFFF, census_[1] the same groups
  /// with four_byte_clear; census_ points at one of them once it is
  /// complete (written under the census lock, before the release store).
  mutable std::array<SeparatorGroup, max_separator_groups> census_groups_{};
  mutable SeparatorCensus census_parts_[2]{};
  mutable std::atomic<const SeparatorCensus *> census_{nullptr};
  mutable std::atomic<std::uint64_t> census_demand_{0};
  mutable std::atomic<std::uint64_t> four_byte_demand_{0};
  mutable std::atomic<bool> census_refused_{false};
  mutable bool four_byte_walked_ = false;  ///< under the census lock
  /// The census by cell: written once, under its lock, before the release
  /// store of cell_census_.
  mutable CellCensus cell_census_data_{};
  mutable std::atomic<const CellCensus *> cell_census_{nullptr};
  mutable std::atomic<std::uint64_t> cell_census_demand_{0};
  /// cell_masks' memory, allocated with the census (calloc: zero pages
  /// until used): each cell's masks_per_cell masks (CellMasks' fields in
  /// order), then a bit a cell, set (release) once they are stored.
  mutable std::atomic<std::uint64_t *> cell_masks_table_{nullptr};
  static constexpr std::size_t masks_per_cell = 4;
};

}  // namespace fastwc::count
