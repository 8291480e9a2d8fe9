// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: split invariance. Byte 0 chooses the options
// (fuzz_support.hpp), byte 1 how many split points follow (0-15), each a
// 16-bit offset into the text (taken modulo its length + 1, then sorted, so
// empty pieces occur too); the rest is the text. Counting the whole text
// must equal counting its pieces every way fastwc does: the public Counter
// fed piece by piece, and for every kernel the pieces' ChunkSummaries
// merged left to right and right to left (merge must be associative) and
// compared with the whole text's summary; the reference engine fed piece
// by piece must equal itself on the whole (the oracle is split-invariant).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"

using namespace fastwc_fuzz;
namespace count = fastwc::count;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  Input input(data, size);
  const CountOptions options = decode_options(input.byte());
  const unsigned splits = input.byte() % 16;
  std::vector<std::uint16_t> raw;
  for (unsigned i = 0; i < splits; ++i) raw.push_back(input.u16());
  const auto text = input.rest();
  const auto &classes = use_locale(options);

  std::vector<std::size_t> cuts{0};
  for (const std::uint16_t r : raw) cuts.push_back(r % (text.size() + 1));
  cuts.push_back(text.size());
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::span<const std::byte>> pieces;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    pieces.push_back(text.subspan(cuts[i], cuts[i + 1] - cuts[i]));

  count::ReferenceCounter whole_reference(options, classes);
  whole_reference.update(text);
  const Counts reference_whole = whole_reference.finish();
  whole_reference.update(text);
  const Counts reference_whole_after_error = whole_reference.finish_after_error();
  const Counts expected = as_reported(reference_whole, options.selection);
  const Counts expected_after_error = as_reported(reference_whole_after_error, options.selection);

  count::ReferenceCounter piecewise_reference(options, classes);
  for (const auto piece : pieces) piecewise_reference.update(piece);
  expect_equal(piecewise_reference.finish(), reference_whole, "ReferenceCounter in pieces");

  fastwc::Counter counter(options);
  for (const auto piece : pieces) counter.update(piece);
  expect_equal(counter.finish(), expected, "Counter in pieces");
  for (const auto piece : pieces) counter.update(piece);
  expect_equal(counter.finish_after_error(), expected_after_error,
               "Counter in pieces, after an error");

  for (const count::KernelId kernel : count::all_kernels) {
    if (!count::kernel_supported(kernel)) continue;
    const count::ChunkSummarizer chunks(options, classes, kernel);
    std::vector<count::ChunkSummary> summaries;
    for (const auto piece : pieces) summaries.push_back(chunks.summarize(piece));
    count::ChunkSummary left{};  // ((s0 s1) s2) ...
    for (const auto &s : summaries) left = chunks.merge(left, s);
    count::ChunkSummary right{};  // ... (s1 (s2 s3))
    for (auto it = summaries.rbegin(); it != summaries.rend(); ++it)
      right = chunks.merge(*it, right);
    const count::ChunkSummary whole = chunks.summarize(text);
    expect(left == whole, "summaries merged left to right differ from the whole text's summary");
    expect(right == whole, "summaries merged right to left differ from the whole text's summary");
    expect_equal(chunks.finish(left), expected, count::kernel_id_name(kernel));
    expect_equal(chunks.finish(left, true), expected_after_error, count::kernel_id_name(kernel));

    count::StreamCounter stream(options, classes, kernel);
    for (const auto piece : pieces) stream.update(piece);
    expect_equal(stream.finish(), expected, "StreamCounter in pieces");
  }
  return 0;
}
