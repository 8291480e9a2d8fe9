// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of kernel dispatch (count/dispatch.hpp): names, GNU's reading of
// GLIBC_TUNABLES (gnulib's own test cases), CPU features from glibc's
// record against the CPUID instruction, and that the kernel in use is the
// one FASTWC_KERNEL forces or, without it, the best one the CPU runs that
// GLIBC_TUNABLES leaves on, and the kernel table itself. tests/meson.build runs this suite again
// under each FASTWC_KERNEL value and tunables mask.
#include <doctest/doctest.h>

#include <cstdlib>
#include <iterator>
#include <string_view>

#include "count/dispatch.hpp"

using fastwc::count::hwcap_allowed;
using fastwc::count::KernelId;

TEST_CASE("dispatch: kernel names") {
  for (const KernelId id : fastwc::count::all_kernels) {
    const auto back = fastwc::count::kernel_id_from_name(fastwc::count::kernel_id_name(id));
    REQUIRE(back.has_value());
    CHECK(*back == id);
  }
  CHECK_FALSE(fastwc::count::kernel_id_from_name("avx").has_value());
  CHECK_FALSE(fastwc::count::kernel_id_from_name("").has_value());
  CHECK(fastwc::count::kernel_supported(KernelId::scalar));
  const bool scalar_function = fastwc::count::kernel_function(KernelId::scalar) != nullptr;
  CHECK(scalar_function);
  for (const KernelId id : fastwc::count::all_kernels) {
    const bool has_function = fastwc::count::kernel_function(id) != nullptr;
    CHECK(has_function == fastwc::count::kernel_supported(id));
  }
}

TEST_CASE("dispatch: GLIBC_TUNABLES as GNU reads it") {
  CHECK(hwcap_allowed(nullptr, "AVX"));
  CHECK(hwcap_allowed("", "AVX"));
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=", "AVX"));
  // A name counts only whole: -AVX2 does not disable AVX.
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=-AVX2", "AVX"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX2", "AVX2"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX,-AVX2", "AVX"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX,-AVX2", "AVX2"));
  // The last glibc.cpu.hwcaps setting wins.
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=-AVX:glibc.cpu.hwcaps=-AVX2", "AVX"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX:glibc.cpu.hwcaps=-AVX2", "AVX2"));
  // Other tunables before and after.
  CHECK_FALSE(hwcap_allowed(":foo=bar:glibc.cpu.hwcaps=-AVX,-AVX2", "AVX2"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX,-AVX2:foo=bar", "AVX"));
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=-AVX:foo=-AVX2", "AVX2"));
  CHECK_FALSE(hwcap_allowed("glibc.cpu.hwcaps=-AVX2,-AVX512F", "AVX512F"));
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=-AVX512F", "AVX512BW"));
  // Enabling is not disabling.
  CHECK(hwcap_allowed("glibc.cpu.hwcaps=AVX2", "AVX2"));
}

TEST_CASE("dispatch: CPU features agree with CPUID") {
  CHECK(fastwc::count::detect_cpu_features() == fastwc::count::detect_cpu_features_with_cpuid());
}

TEST_CASE("dispatch: the active kernel is the forced or the best allowed one") {
  const char *forced = std::getenv("FASTWC_KERNEL");
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  const KernelId active = fastwc::count::active_kernel();
  CHECK(fastwc::count::kernel_supported(active));
  const auto forced_id =
      forced != nullptr ? fastwc::count::kernel_id_from_name(forced) : std::nullopt;
  if (forced_id && fastwc::count::kernel_supported(*forced_id)) {
    CHECK(active == *forced_id);
    return;
  }
  // The last supported row of the table whose hwcaps are all allowed.
  KernelId expected = KernelId::scalar;
  for (const KernelId id : fastwc::count::all_kernels) {
    if (!fastwc::count::kernel_supported(id)) continue;
    bool allowed = true;
    std::string_view hwcaps = fastwc::count::kernel_info(id).masked_by;
    while (!hwcaps.empty()) {
      const std::size_t comma = hwcaps.find(',');
      allowed = allowed && hwcap_allowed(tunables, hwcaps.substr(0, comma));
      hwcaps = comma == std::string_view::npos ? std::string_view() : hwcaps.substr(comma + 1);
    }
    if (allowed) expected = id;
  }
  CHECK(active == expected);
}

TEST_CASE("dispatch: the kernel table") {
  // Every SIMD kernel's features include the baseline's, and a kernel never
  // needs less than the kernel before it (slowest first).
  for (std::size_t i = 1; i < std::size(fastwc::count::kernel_table); ++i) {
    const auto &previous = fastwc::count::kernel_table[i - 1];
    const auto &row = fastwc::count::kernel_table[i];
    CAPTURE(row.name);
    CHECK((row.needs & previous.needs) == previous.needs);
    const bool has_entry = row.entry != nullptr;
    CHECK(has_entry);
  }
#if FASTWC_KERNELS_X86
  // The AVX-512 kernels with and without VBMI both exist, so that either can
  // be forced where the CPU has VBMI.
  CHECK(fastwc::count::kernel_id_from_name("avx512bw").has_value());
  CHECK(fastwc::count::kernel_id_from_name("avx512vbmi").has_value());
#endif
}
