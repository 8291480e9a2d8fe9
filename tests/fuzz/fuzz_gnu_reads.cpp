// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: GNU >= 9.5's split rescan (src/engine/gnu_read_loop.hpp).
// count_with_gnu_reads (SIMD engine plus SplitRescanCorrector) must equal
// count_with_gnu_reads_reference (the reference engine re-reading split
// characters itself) read for read, whatever the reads return.
//
// Byte 0: the options (fuzz_support.hpp; always the 9.5 word rule; the
// quirk is off in single-byte locales and without -w, which must then
// change nothing). Byte 1: GNU's
// read size, 8-262 bytes (small, so that reads split the fuzzer's short
// texts), or 16 KiB for 255. Byte 2: the length n of a schedule of read
// results, then n bytes: 0 = EINTR (retried), 255 = EIO (the input ends
// with GNU's partial count and the errno), k = at most k bytes (a short
// read). Once the schedule is used up reads return all they are asked for,
// so every input ends. The rest is the text.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/gnu_read_loop.hpp"
#include "fuzz_support.hpp"

using namespace fastwc_fuzz;
namespace count = fastwc::count;

namespace {

/// A read(2) stand-in that replays the schedule over the text.
class ScriptedReads {
 public:
  ScriptedReads(std::span<const std::byte> text, const std::vector<std::uint8_t> &schedule)
      : text_(text), schedule_(schedule) {}

  ssize_t operator()(std::byte *buffer, std::size_t size) {
    expect(size > 0, "the GNU read loop asked for 0 bytes (it would take that for end of input)");
    std::size_t limit = size;
    if (next_ < schedule_.size()) {
      const std::uint8_t step = schedule_[next_++];
      if (step == 0) {
        errno = EINTR;
        return -1;
      }
      if (step == 255) {
        errno = EIO;
        return -1;
      }
      limit = std::min<std::size_t>(limit, step);
    }
    const std::size_t n = std::min(limit, text_.size() - offset_);
    if (n > 0) std::memcpy(buffer, text_.data() + offset_, n);
    offset_ += n;
    return static_cast<ssize_t>(n);
  }

 private:
  std::span<const std::byte> text_;
  const std::vector<std::uint8_t> &schedule_;
  std::size_t next_ = 0;
  std::size_t offset_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  Input input(data, size);
  CountOptions options = decode_options(input.byte());
  // The quirk exists only with GNU >= 9.5's word rule, and fastwc sets the
  // read size only together with it (cli::Compat); under the 9.1 rule the
  // corrector would add words GNU 9.1 never counts.
  options.word_rule = WordRule::non_space_constituents;
  const std::uint8_t read_size = input.byte();
  options.gnu_split_rescan_read_size = read_size == 255 ? 16384u : 8u + read_size;
  std::vector<std::uint8_t> schedule(input.byte());
  for (auto &step : schedule) step = input.byte();
  const auto text = input.rest();
  use_locale(options);

  const fastwc::CountResult fast =
      fastwc::engine::count_with_gnu_reads(options, ScriptedReads(text, schedule));
  const fastwc::CountResult reference =
      fastwc::engine::count_with_gnu_reads_reference(options, ScriptedReads(text, schedule));
  expect(fast.error == reference.error,
         "count_with_gnu_reads ended with another errno than the reference");
  // Both report every count (the reference ignores the selection); the
  // fast loop's Counter zeroes what was not selected, so compare those.
  expect_equal(as_reported(fast.counts, options.selection),
               as_reported(reference.counts, options.selection), "count_with_gnu_reads");
  return 0;
}
