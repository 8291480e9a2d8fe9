// SPDX-License-Identifier: GPL-3.0-or-later
// The public counting API (include/fastwc/engine.hpp): Counter runs the
// chunk-summary engine with the dispatched SIMD kernel (count/chunk_summarizer)
// wherever it applies and the reference engine elsewhere (other multibyte
// locales, GNU 9.5+'s split rescan), and the helpers that count a
// buffer, a file descriptor and a path with wc's read loop and error
// reporting.
#include "fastwc/engine.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <optional>

#include "count/chunk_summarizer.hpp"
#include "count/reference_counter.hpp"
#include "engine/selected_counts.hpp"
#include "locale/char_classes.hpp"

namespace fastwc {

/// Exactly one of the two engines is engaged.
class Counter::Impl {
 public:
  explicit Impl(const CountOptions &options) : selection(options.selection) {
    const locale::CharClasses &classes = locale::CharClasses::current();
    if (count::ChunkSummarizer::supports(options))
      fast.emplace(options, classes);
    else
      reference.emplace(options, classes);
  }
  Selection selection;
  std::optional<count::StreamCounter> fast;
  std::optional<count::ReferenceCounter> reference;
};

Counter::Counter(const CountOptions &options) : impl_(std::make_unique<Impl>(options)) {}
Counter::~Counter() = default;
Counter::Counter(Counter &&) noexcept = default;
Counter &Counter::operator=(Counter &&) noexcept = default;

void Counter::update(std::span<const std::byte> bytes) noexcept {
  if (impl_->fast)
    impl_->fast->update(bytes);
  else
    impl_->reference->update(bytes);
}

Counts Counter::finish() noexcept {
  return engine::keep_selected(impl_->fast ? impl_->fast->finish() : impl_->reference->finish(),
                               impl_->selection);
}

Counts Counter::finish_after_error() noexcept {
  return engine::keep_selected(
      impl_->fast ? impl_->fast->finish(true) : impl_->reference->finish_after_error(),
      impl_->selection);
}

Counts count_buffer(std::span<const std::byte> bytes, const CountOptions &options) {
  Counter counter(options);
  counter.update(bytes);
  return counter.finish();
}

CountResult count_fd(int fd, const CountOptions &options) {
  // The reading strategies: engine/fd_counter.cpp.
  return count_fd(fd, options, ReadOptions{});
}

CountResult count_path(const char *path, const CountOptions &options) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {Counts{}, errno};
  CountResult result = count_fd(fd, options);
  // wc reports a close() failure too; the first error is the one kept.
  if (::close(fd) != 0 && result.error == 0) result.error = errno;
  return result;
}

}  // namespace fastwc
