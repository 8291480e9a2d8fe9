// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: kernel equivalence. The first byte chooses the locale, the
// word rule, the no-break-space rule and the selection (fuzz_support.hpp);
// the rest is the text. Every kernel this build and CPU can run (scalar,
// SSE2, AVX2, AVX-512 with and without VBMI: ChunkSummarizer with the kernel forced, as
// FASTWC_KERNEL forces it for the whole process), the public Counter and
// count_buffer (the dispatched kernel) must all give the reference
// engine's counts, after a normal end and after a read error. Half the
// option sets count with every lead byte examined (its lead planes and
// separator patterns, UnitClasses::resolve_all_leads) and the BMP table
// (UnitClasses::build_bmp_table), the census of word classes by cell
// (UnitClasses::take_cell_census) and under GNU 9.5's rule the census
// of separators (UnitClasses::take_separator_census), from the first input on,
// the other half without them, as before enough characters have been seen; the seeds
// kana_cells and hangul_rows keep to a few cells, which the VBMI kernel
// then matches as hot cells and rows (classify_by_cell.hpp).
#include <cstddef>
#include <cstdint>

#include "count/unit_classes.hpp"
#include "fuzz_support.hpp"

using namespace fastwc_fuzz;
namespace count = fastwc::count;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  Input input(data, size);
  const CountOptions options = decode_options(input.byte());
  const auto text = input.rest();
  const auto &classes = use_locale(options);
  if (options.nbsp_separates_words) {
    const auto &units = count::UnitClasses::get(classes, options.word_rule, true);
    units.resolve_all_leads();
    units.build_bmp_table();
    // GNU 9.5+'s words without -L then go by separator pattern (with -m
    // over valid text); other words in stride, by cell (cells_in_stride.hpp).
    units.take_separator_census(true);
    units.take_cell_census();
  }

  count::ReferenceCounter reference(options, classes);
  reference.update(text);
  const Counts expected = as_reported(reference.finish(), options.selection);
  reference.update(text);
  const Counts expected_after_error =
      as_reported(reference.finish_after_error(), options.selection);

  for (const count::KernelId kernel : count::all_kernels) {
    if (!count::kernel_supported(kernel)) continue;
    const count::ChunkSummarizer counter(options, classes, kernel);
    const count::ChunkSummary whole = counter.summarize(text);
    expect_equal(counter.finish(whole), expected, count::kernel_id_name(kernel));
    expect_equal(counter.finish(whole, true), expected_after_error, count::kernel_id_name(kernel));
  }

  fastwc::Counter counter(options);
  counter.update(text);
  expect_equal(counter.finish(), expected, "Counter::finish");
  // finish() resets the Counter: reusing it must count afresh.
  counter.update(text);
  expect_equal(counter.finish_after_error(), expected_after_error, "Counter::finish_after_error");
  expect_equal(fastwc::count_buffer(text, options), expected, "count_buffer");
  return 0;
}
