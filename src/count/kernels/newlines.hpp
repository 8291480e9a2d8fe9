// SPDX-License-Identifier: GPL-3.0-or-later
// Counting 0x0A bytes (-l, -c, and -m in single-byte locales): the plan
// that every other count builds on, and the one that must run at memory
// speed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "count/kernels/blocks.hpp"
#include "count/kernels/c_byte_classes.hpp"

namespace fastwc::count::kernels {

template <class A>
struct Newlines : Blocks<A> {
  using Base = Blocks<A>;
  using Base::bits;
  using Base::lanes;
  using Base::live_mask;
  using Base::load;
  using Base::load_partial;
  using Base::popcount;
  using Base::sign_bits;
  using Base::width;
  using typename Base::B;
  using typename Base::Block;
  using typename Base::Isa;
  using typename Base::M;
  using Classes = CByteClasses<A>;

  static std::uint64_t count(const std::uint8_t *p, std::size_t n) noexcept {
    std::uint64_t total = 0;
    std::size_t i = 0;
    const B nl(0x0A);
    if constexpr (Isa::has_mask_registers) {
      // A compare yields a 64-bit mask: popcount it.
      for (; i + 256 <= n; i += 256) {
        const std::uint64_t m0 = Isa::bits(B::load_unaligned(p + i) == nl);
        const std::uint64_t m1 = Isa::bits(B::load_unaligned(p + i + 64) == nl);
        const std::uint64_t m2 = Isa::bits(B::load_unaligned(p + i + 128) == nl);
        const std::uint64_t m3 = Isa::bits(B::load_unaligned(p + i + 192) == nl);
        total += (popcount(m0) + popcount(m1)) + (popcount(m2) + popcount(m3));
      }
    } else {
      // Byte counters (0xFF per match, subtracted), summed before any of
      // them can pass 255.
      while (i + 64 <= n) {
        std::size_t rounds = (n - i) / 64;
        if (rounds > 255) rounds = 255;
        B acc[lanes];
        for (std::size_t l = 0; l < lanes; ++l) acc[l] = B(0);
        for (std::size_t r = 0; r < rounds; ++r, i += 64)
          for (std::size_t l = 0; l < lanes; ++l)
            acc[l] = acc[l] - Isa::to_bytes(B::load_unaligned(p + i + l * width) == nl);
        for (std::size_t l = 0; l < lanes; ++l) total += Isa::sum_bytes(acc[l]);
      }
    }
    const typename Classes::Constants k = Classes::constants();
    for (; i + 64 <= n; i += 64) total += popcount(Classes::newline_bits(load(p + i), k));
    if (i < n)
      total += popcount(Classes::newline_bits(load_partial(p + i, n - i), k) & live_mask(n - i));
    return total;
  }
};

}  // namespace fastwc::count::kernels
