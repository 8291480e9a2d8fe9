// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the unit property tables of unit_classes.hpp from
// locale::CharClasses, and the process-wide registry of them.
#include "count/unit_classes.hpp"

#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <tuple>

#include "locale/char_classes.hpp"

namespace fastwc::count {

namespace {

/// Serializes the publishers of lead planes, separator groups and rows of
/// cells; readers never lock.
std::mutex &publish_mutex() noexcept {
  static std::mutex mutex;
  return mutex;
}

/// Serializes the walkers of the census by cell; readers never lock.
std::mutex &cell_census_mutex() noexcept {
  static std::mutex mutex;
  return mutex;
}

std::uint8_t word_bits(locale::WordClass c) noexcept {
  switch (c) {
    case locale::WordClass::separator:
      return unit_props::separator;
    case locale::WordClass::constituent:
      return unit_props::constituent;
    case locale::WordClass::transparent:
      break;
  }
  return 0;
}

std::uint8_t width_bits(unsigned width) noexcept {
  return static_cast<std::uint8_t>((width > 2 ? 2 : width) << unit_props::width_shift);
}

}  // namespace

UnitClasses::UnitClasses(const locale::CharClasses &classes, WordRule rule, bool nbsp_separates)
    : classes_(&classes), rule_(rule), nbsp_separates_(nbsp_separates) {
  for (auto &row : lead_cells_)
    for (std::uint8_t &entry : row) entry = cell_mixed;
  invalid_ = word_bits(locale::CharClasses::invalid_word_class(rule));
  bytes_match_c_ = true;
  ascii_match_c_ = true;
  for (unsigned b = 0; b < 256; ++b) {
    const auto byte = static_cast<unsigned char>(b);
    // The switch shared by all of wc's loops comes before any class test:
    // LF counts a line and, like CR and FF, ends the -L line; TAB moves to
    // the next tab stop. All of them also separate words.
    std::uint8_t props = word_bits(classes.byte_word_class(byte, rule, nbsp_separates));
    if (b == '\n') props |= unit_props::newline;
    if (b == '\n' || b == '\r' || b == '\f')
      props |= unit_props::line_break;
    else if (b == '\t')
      props |= unit_props::tab;
    else
      props |= width_bits(classes.byte_width(byte));
    bytes_[b] = props;
  }
  a0_separates_ = (bytes_[0xA0] & unit_props::separator) != 0;
  for (unsigned b = 0; b < 256; ++b) {
    if (bytes_[b] != c_locale_byte(static_cast<std::uint8_t>(b), rule, a0_separates_)) {
      bytes_match_c_ = false;
      if (b < 0x80) ascii_match_c_ = false;
    }
  }
}

UnitClasses::~UnitClasses() {
  delete[] bmp_table_.load(std::memory_order_acquire);
  std::free(cell_masks_table_.load(std::memory_order_acquire));
}

std::uint8_t UnitClasses::c_locale_byte(std::uint8_t b, WordRule rule, bool a0_separates) noexcept {
  std::uint8_t props = 0;
  const bool space = (b >= 0x09 && b <= 0x0D) || b == 0x20 || (a0_separates && b == 0xA0);
  if (space)
    props = unit_props::separator;
  else if (rule == WordRule::non_space_constituents || (b >= 0x21 && b <= 0x7E))
    props = unit_props::constituent;
  if (b == '\n') props |= unit_props::newline;
  if (b == '\n' || b == '\r' || b == '\f')
    props |= unit_props::line_break;
  else if (b == '\t')
    props |= unit_props::tab;
  else if (b >= 0x20 && b <= 0x7E)
    props |= width_bits(1);
  return props;
}

const UnitClasses &UnitClasses::get(const locale::CharClasses &classes, WordRule rule,
                                    bool nbsp_separates) {
  // Never destroyed: counters on other threads may still use an instance
  // while static destructors run.
  using Key = std::tuple<const locale::CharClasses *, WordRule, bool>;
  static auto *const instances = new std::map<Key, std::unique_ptr<UnitClasses>>();
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  auto &slot = (*instances)[Key{&classes, rule, nbsp_separates}];
  if (!slot) slot = std::make_unique<UnitClasses>(classes, rule, nbsp_separates);
  return *slot;
}

std::uint8_t UnitClasses::compute_wide(char32_t c) const noexcept {
  // No character above U+007F is one of the switch's characters, so only
  // the class and the width matter.
  return static_cast<std::uint8_t>(word_bits(classes_->wide_word_class(c, rule_, nbsp_separates_)) |
                                   width_bits(classes_->wide_width(c, rule_)));
}

std::uint8_t UnitClasses::wide_uncached(char32_t c) const noexcept {
  return wide_.get(c, [this](std::size_t key) { return compute_wide(static_cast<char32_t>(key)); });
}

LeadPlanes UnitClasses::lead_planes() const noexcept {
  LeadPlanes planes{};
  planes.same_class = same_class_.load(std::memory_order_acquire);
  planes.constituent = constituent_.load(std::memory_order_acquire);
  planes.same_width = same_width_.load(std::memory_order_acquire);
  planes.width1 = width1_.load(std::memory_order_acquire);
  planes.width2 = width2_.load(std::memory_order_acquire);
  planes.bmp = bmp_table_.load(std::memory_order_acquire);
  // The plane first: the groups of every lead in it were counted before it.
  planes.separator_pattern = separator_pattern_.load(std::memory_order_acquire);
  planes.separators = separator_groups_.data();
  planes.cells_known = cells_known_.load(std::memory_order_acquire);
  planes.cells = lead_cells_;
  planes.separator_count = separator_count_.load(std::memory_order_acquire);
  return planes;
}

bool UnitClasses::build_bmp_table() const noexcept {
  static std::mutex mutex;  // one builder; readers never lock
  const std::lock_guard<std::mutex> lock(mutex);
  if (bmp_table_.load(std::memory_order_relaxed) != nullptr) return true;
  constexpr std::size_t code_points = 0x20000;
  auto *table = new (std::nothrow) std::uint8_t[code_points + 3];
  if (table == nullptr) return false;
  // The surrogates never decode (the kernels never look them up); the
  // block cache fills the rest 256 code points at a time. Plane 1 is
  // mostly unassigned, but emoji live there.
  for (char32_t c = 0; c < code_points; ++c) {
    table[c] = c < 0x80 ? bytes_[c] : (c >= 0xD800 && c <= 0xDFFF) ? 0 : wide(c);
  }
  table[code_points] = table[code_points + 1] = table[code_points + 2] = 0;
  bmp_table_.store(table, std::memory_order_release);
  return true;
}

bool UnitClasses::add_census_range(char32_t first, char32_t last, unsigned &count) const noexcept {
  // Under the 9.5 rule a character above U+007F separates exactly when it
  // is white space or (unless POSIXLY_CORRECT) a no-break space
  // (CharClasses::wide_word_class); wide() has the last word on each.
  constexpr std::size_t capacity = 64;
  char32_t candidates[capacity + std::size(locale::gnu_nbsp_chars)];
  std::size_t found = classes_->wide_spaces(first, last, candidates, capacity);
  if (found > capacity) return false;
  for (const char32_t nbsp : locale::gnu_nbsp_chars)
    if (nbsp >= first && nbsp <= last) candidates[found++] = nbsp;
  for (std::size_t k = 0; k < found; ++k) {
    const char32_t c = candidates[k];
    if ((wide(c) & unit_props::word_mask) != unit_props::separator) continue;
    const auto lead = static_cast<std::uint8_t>(c < 0x800 ? 0xC0 | (c >> 6) : 0xE0 | (c >> 12));
    const auto second = static_cast<std::uint8_t>(c < 0x800 ? 0 : 0x80 | ((c >> 6) & 0x3F));
    unsigned g = 0;
    while (g < count && (census_groups_[g].lead != lead || census_groups_[g].second != second)) ++g;
    if (g == count) {
      if (count == max_separator_groups) return false;
      census_groups_[count++] = {lead, second, 0};
    }
    census_groups_[g].last |= std::uint64_t{1} << (c & 0x3F);
  }
  return true;
}

bool UnitClasses::take_separator_census(bool four_byte) const noexcept {
  if (rule_ != WordRule::non_space_constituents) return false;
  static std::mutex mutex;  // one walker; readers never lock
  const std::lock_guard<std::mutex> lock(mutex);
  if (census_refused_.load(std::memory_order_relaxed)) return false;
  const SeparatorCensus *known = census_.load(std::memory_order_relaxed);
  if (known == nullptr) {
    unsigned count = 0;
    if (!add_census_range(0x80, 0xFFFF, count)) {
      census_refused_.store(true, std::memory_order_relaxed);
      return false;
    }
    census_parts_[0] = {census_groups_.data(), count, false};
    known = &census_parts_[0];
    census_.store(known, std::memory_order_release);
  }
  if (four_byte && !four_byte_walked_) {
    four_byte_walked_ = true;
    // No no-break space lies above U+FFFF, so white space alone decides.
    if (classes_->wide_spaces(0x10000, 0x10FFFF, nullptr, 0) == 0) {
      census_parts_[1] = {known->groups, known->count, true};
      census_.store(&census_parts_[1], std::memory_order_release);
    }
  }
  return true;
}

const SeparatorCensus *UnitClasses::separator_census(std::uint64_t bytes) const noexcept {
  if (const SeparatorCensus *known = census_.load(std::memory_order_acquire)) return known;
  if (rule_ != WordRule::non_space_constituents || census_refused_.load(std::memory_order_relaxed))
    return nullptr;
  // Relaxed, like note_slow_lead's tally: a lost count only delays.
  const std::uint64_t demand = census_demand_.load(std::memory_order_relaxed) + bytes;
  census_demand_.store(demand, std::memory_order_relaxed);
  if (demand < census_threshold || !take_separator_census(false)) return nullptr;
  return census_.load(std::memory_order_acquire);
}

const CellCensus *UnitClasses::take_cell_census() const noexcept {
  const std::lock_guard<std::mutex> lock(cell_census_mutex());
  return walk_cell_census_locked();
}

const CellCensus *UnitClasses::walk_cell_census_locked() const noexcept {
  if (const CellCensus *known = cell_census_.load(std::memory_order_relaxed)) return known;
  // Without memory for it, cell_masks computes every cell it is asked for.
  cell_masks_table_.store(static_cast<std::uint64_t *>(std::calloc(
                              masks_per_cell * unicode_cell_count + unicode_cell_count / 64, 8)),
                          std::memory_order_release);
  cell_census_data_ = walk_cell_census(*this);
  cell_census_.store(&cell_census_data_, std::memory_order_release);
  return &cell_census_data_;
}

CellMasks UnitClasses::cell_masks(std::uint32_t cell) const noexcept {
  std::uint64_t *const table = cell_masks_table_.load(std::memory_order_acquire);
  if (table == nullptr || cell >= unicode_cell_count) return compute_cell_masks(*this, cell);
  const std::atomic_ref<std::uint64_t> ready(
      table[masks_per_cell * unicode_cell_count + cell / 64]);
  std::uint64_t *const entry = table + masks_per_cell * cell;
  const std::atomic_ref<std::uint64_t> separators(entry[0]);
  const std::atomic_ref<std::uint64_t> transparent(entry[1]);
  const std::atomic_ref<std::uint64_t> narrow(entry[2]);
  const std::atomic_ref<std::uint64_t> wide(entry[3]);
  const std::uint64_t bit = std::uint64_t{1} << (cell % 64);
  if ((ready.load(std::memory_order_acquire) & bit) != 0)
    return {separators.load(std::memory_order_relaxed), transparent.load(std::memory_order_relaxed),
            narrow.load(std::memory_order_relaxed), wide.load(std::memory_order_relaxed)};
  // Racing threads compute and store the same values.
  const CellMasks m = compute_cell_masks(*this, cell);
  separators.store(m.separators, std::memory_order_relaxed);
  transparent.store(m.transparent, std::memory_order_relaxed);
  narrow.store(m.narrow, std::memory_order_relaxed);
  wide.store(m.wide, std::memory_order_relaxed);
  ready.fetch_or(bit, std::memory_order_release);
  return m;
}

const CellCensus *UnitClasses::cell_census(std::uint64_t bytes) const noexcept {
  if (const CellCensus *known = cell_census_.load(std::memory_order_acquire)) return known;
  // Relaxed, like note_slow_lead's tally: a lost count only delays.
  const std::uint64_t demand = cell_census_demand_.load(std::memory_order_relaxed) + bytes;
  cell_census_demand_.store(demand, std::memory_order_relaxed);
  if (demand < cell_census_threshold) return nullptr;
  // A thread that finds another walking counts this call the slower way
  // rather than wait the walk's milliseconds.
  const std::unique_lock<std::mutex> lock(cell_census_mutex(), std::try_to_lock);
  return lock.owns_lock() ? walk_cell_census_locked() : nullptr;
}

void UnitClasses::note_four_byte_lookups(std::uint64_t characters) const noexcept {
  const std::uint64_t before = four_byte_demand_.load(std::memory_order_relaxed);
  four_byte_demand_.store(before + characters, std::memory_order_relaxed);
  if (before < four_byte_census_threshold && before + characters >= four_byte_census_threshold)
    take_separator_census(true);
}

bool UnitClasses::note_slow_lead(std::uint8_t lead, std::uint32_t count) const noexcept {
  if (bmp_table_.load(std::memory_order_relaxed) == nullptr) {
    const std::uint64_t before = slow_chars_.load(std::memory_order_relaxed);
    slow_chars_.store(before + count, std::memory_order_relaxed);
    if (before < bmp_table_threshold && before + count >= bmp_table_threshold &&
        build_bmp_table()) {
      // Every code point below U+20000 is cached now, so examining a lead
      // costs a pass over cached bytes (all leads: 0.2 ms, a twentieth of
      // the table), and the lead byte classifies where the table's gathers
      // would (characters the table serves never count toward their lead).
      resolve_all_leads();
      return true;
    }
  }
  if (lead < 0xC2 || lead >= 0xF0) return false;  // 4- to 6-byte leads stay per character
  const std::size_t i = lead - 0xC0u;
  // Examining a lead asks the C library about all its code points (64 for
  // two-byte leads, 4096 for three-byte ones); wait until per-character
  // lookups would have cost about as much (the ski-rental rule: a
  // three-byte lead's 4096 cost about 0.15 ms, its characters one by one
  // about 20 ns each at first; unit_classes.hpp's bmp_table_threshold has
  // the measurements). The tally is a relaxed load and store, not an
  // atomic increment: losing a count to a race only delays the examination.
  const std::uint32_t threshold = lead < 0xE0 ? 1024 : 8192;
  const std::uint32_t before = lead_hits_[i].load(std::memory_order_relaxed);
  if (before >= threshold) return false;
  lead_hits_[i].store(before + count, std::memory_order_relaxed);
  if (before + count < threshold) return false;
  resolve_lead(lead);
  return true;
}

void UnitClasses::resolve_lead(std::uint8_t lead) const noexcept {
  const std::lock_guard<std::mutex> lock(publish_mutex());
  const std::size_t i = lead - 0xC0u;
  if (lead_resolved_[i].load(std::memory_order_relaxed)) return;
  // The code points this lead can start in glibc's decoder: two-byte leads
  // carry 5 bits, three-byte ones 4; E0 starts at U+0800 (shorter forms are
  // overlong) and ED stops before the surrogates.
  char32_t first = 0;
  char32_t last = 0;
  if (lead < 0xE0) {
    first = static_cast<char32_t>(lead & 0x1F) << 6;
    last = first + 0x3F;
  } else {
    first = static_cast<char32_t>(lead & 0x0F) << 12;
    last = first + 0xFFF;
    if (lead == 0xE0) first = 0x800;
    if (lead == 0xED) last = 0xD7FF;
  }
  const std::uint8_t props = wide(first);
  bool same_class = true;
  bool same_width = true;
  for (char32_t c = first + 1; c <= last; ++c) {
    const std::uint8_t p = wide(c);
    same_class = same_class && (p & unit_props::word_mask) == (props & unit_props::word_mask);
    same_width = same_width && (p & unit_props::width_mask) == (props & unit_props::width_mask);
  }
  if (lead >= 0xE0) publish_cell_row(lead, first, last);
  // A lead whose characters all separate words would need its own plane;
  // none exists in glibc's locales, so such a lead just stays per character.
  if ((props & unit_props::separator) != 0) same_class = false;
  const std::uint64_t bit = std::uint64_t{1} << i;
  const unsigned width = (props & unit_props::width_mask) >> unit_props::width_shift;
  if (same_class) {
    if ((props & unit_props::constituent) != 0)
      constituent_.fetch_or(bit, std::memory_order_release);
    same_class_.fetch_or(bit, std::memory_order_release);
  }
  if (same_width) {
    if (width == 1) width1_.fetch_or(bit, std::memory_order_release);
    if (width == 2) width2_.fetch_or(bit, std::memory_order_release);
    same_width_.fetch_or(bit, std::memory_order_release);
  }
  if (!same_class) publish_separator_groups(lead, first, last);
  lead_resolved_[i].store(true, std::memory_order_relaxed);
}

void UnitClasses::publish_cell_row(std::uint8_t lead, char32_t first,
                                   char32_t last) const noexcept {
  // Every second byte the lead cannot take stays mixed: no valid character
  // has it.
  std::uint8_t(&row)[64] = lead_cells_[lead & 0x0F];
  for (unsigned s = 0; s < 64; ++s) {
    const char32_t cell = (static_cast<char32_t>(lead & 0x0F) << 12) | (s << 6);
    std::uint8_t shared = cell_mixed;
    if (cell >= first && cell + 63 <= last) {
      shared = wide(cell);
      for (char32_t c = cell + 1; c <= cell + 63 && shared != cell_mixed; ++c)
        if (wide(c) != shared) shared = cell_mixed;
    }
    row[s] = shared;
  }
  cells_known_.fetch_or(std::uint64_t{1} << (lead - 0xC0u), std::memory_order_release);
}

void UnitClasses::publish_separator_groups(std::uint8_t lead, char32_t first,
                                           char32_t last) const noexcept {
  // Only when every character is a separator or a constituent (never under
  // GNU 9.1's rule for a lead with non-printable characters, which are
  // transparent there), and the separators fit in a few groups.
  constexpr unsigned max_groups_per_lead = 4;
  SeparatorGroup groups[max_groups_per_lead] = {};
  unsigned count = 0;
  for (char32_t c = first; c <= last; ++c) {
    const std::uint8_t word = wide(c) & unit_props::word_mask;
    if (word == unit_props::constituent) continue;
    if (word != unit_props::separator) return;
    const auto second = static_cast<std::uint8_t>(lead < 0xE0 ? 0 : 0x80 | ((c >> 6) & 0x3F));
    unsigned g = 0;
    while (g < count && groups[g].second != second) ++g;
    if (g == count) {
      if (count == max_groups_per_lead) return;
      groups[count++] = {lead, second, 0};
    }
    groups[g].last |= std::uint64_t{1} << (c & 0x3F);
  }
  const unsigned used = separator_count_.load(std::memory_order_relaxed);
  if (used + count > max_separator_groups) return;
  for (unsigned g = 0; g < count; ++g) separator_groups_[used + g] = groups[g];
  separator_count_.store(used + count, std::memory_order_release);
  separator_pattern_.fetch_or(std::uint64_t{1} << (lead - 0xC0u), std::memory_order_release);
}

void UnitClasses::resolve_all_leads() const noexcept {
  for (unsigned lead = 0xC2; lead < 0xF0; ++lead) resolve_lead(static_cast<std::uint8_t>(lead));
}

CellInfo UnitClasses::cell(std::uint32_t index, std::uint32_t count) const noexcept {
  CellInfo info{0, 0, false, nullptr};
  if (index >= cell_count) return info;
  std::uint8_t props = cell_props_[index].load(std::memory_order_acquire);
  if ((props & cell_ready) == 0) {
    // The most common properties of the 64 code points, and the others as
    // exceptions. Racing threads compute the same values.
    const auto first = static_cast<char32_t>(index) << 6;
    std::uint8_t values[64];
    for (unsigned k = 0; k < 64; ++k) values[k] = wide(first + k);
    unsigned best = 0;
    for (unsigned k = 0; k < 64; ++k) {
      unsigned n = 0;
      for (unsigned j = 0; j < 64; ++j) n += values[j] == values[k] ? 1 : 0;
      if (n > best) {
        best = n;
        props = values[k];
      }
      if (best > 32) break;
    }
    std::uint64_t exceptions = 0;
    for (unsigned k = 0; k < 64; ++k)
      if (values[k] != props) exceptions |= std::uint64_t{1} << k;
    cell_exceptions_[index].store(exceptions, std::memory_order_relaxed);
    cell_props_[index].store(static_cast<std::uint8_t>(props | cell_ready),
                             std::memory_order_release);
  }
  info.props = static_cast<std::uint8_t>(props & ~cell_ready);
  info.exceptions = cell_exceptions_[index].load(std::memory_order_relaxed);
  // The cell's code points lie in one block of the lazy table (64 divides
  // its block size), which computing the cell filled (unless no memory
  // could be had for it: then there is no table).
  static_assert(block_bits >= 6);
  info.table = wide_.find(std::size_t{index} << 6);
  // The cell's lead byte: two-byte forms below U+0800, three-byte below
  // U+10000 (four-byte leads are never examined).
  if (index >= 1024) return info;
  const auto lead = static_cast<std::uint8_t>(index < 32 ? 0xC0 | index : 0xE0 | (index >> 6));
  if (index < 32 && index >= 2 && !lead_resolved_[index].load(std::memory_order_relaxed)) {
    // A two-byte lead is one cell: examining it costs no more than this.
    resolve_lead(lead);
    info.planes_changed = true;
  } else {
    info.planes_changed = note_slow_lead(lead, count);
  }
  return info;
}

}  // namespace fastwc::count
