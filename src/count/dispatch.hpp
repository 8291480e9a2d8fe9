// SPDX-License-Identifier: GPL-3.0-or-later
// Which counting kernel runs: the kernels this build has, what the CPU and
// its OS can run, the FASTWC_KERNEL override and GNU's GLIBC_TUNABLES
// masks, all read from one kernel table. The choice is made once per
// process, on first use, so inputs that need no kernel (wc -c) never pay for
// it. Compiled with baseline flags only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "count/kernels/kernel.hpp"

namespace fastwc::count {

/// Bits of the CPU features that kernels need (the kernel table's
/// "features" in src/count/meson.build), with the OS's support for the wider
/// register files folded in.
namespace cpu_feature {
inline constexpr std::uint32_t popcnt = 1u << 0;
inline constexpr std::uint32_t bmi1 = 1u << 1;
inline constexpr std::uint32_t bmi2 = 1u << 2;
inline constexpr std::uint32_t avx2 = 1u << 3;     ///< and the OS saves YMM state
inline constexpr std::uint32_t avx512f = 1u << 4;  ///< and the OS saves ZMM and opmask state
inline constexpr std::uint32_t avx512cd = 1u << 5;
inline constexpr std::uint32_t avx512dq = 1u << 6;
inline constexpr std::uint32_t avx512bw = 1u << 7;
inline constexpr std::uint32_t avx512vl = 1u << 8;
inline constexpr std::uint32_t avx512vbmi = 1u << 9;
inline constexpr std::uint32_t ssse3 = 1u << 10;
}  // namespace cpu_feature

/// The CPU features the kernels need, as cpu_feature bits.
struct CpuFeatures {
  std::uint32_t bits = 0;

  bool has(std::uint32_t features) const noexcept { return (bits & features) == features; }
  friend bool operator==(const CpuFeatures &, const CpuFeatures &) = default;
};

/// What the CPU has, from the C library's record of the CPUID instruction
/// that it ran at start-up (no CPUID here: it traps to the hypervisor in
/// virtual machines) where glibc publishes it, else from CPUID.
CpuFeatures detect_cpu_features() noexcept;

/// The same from the CPUID instruction itself (for tests).
CpuFeatures detect_cpu_features_with_cpuid() noexcept;

using BodyFunction = kernels::BodyResult (*)(const kernels::Request &, const std::uint8_t *,
                                             std::size_t) noexcept;

/// One row of the kernel table.
struct KernelInfo {
  const char *name;       ///< FASTWC_KERNEL's value, --stats' word
  std::uint32_t needs;    ///< cpu_feature bits its compiler flags allow it to use
  const char *masked_by;  ///< GLIBC_TUNABLES hwcaps, comma-separated, that switch it off
  BodyFunction entry;     ///< counts a chunk body
};

/// The kernel table: the scalar kernel, then the rows of src/count/meson.build
/// (slowest first). KernelId indexes it.
inline constexpr KernelInfo kernel_table[] = {{"scalar", 0, "", &kernels::count_body_scalar},
#define FASTWC_KERNEL_INFO(name, arch, needs, hwcaps) \
  {#name, needs, hwcaps, &kernels::count_body<arch>},
                                              FASTWC_KERNEL_ROWS(FASTWC_KERNEL_INFO)
#undef FASTWC_KERNEL_INFO
};

/// A row of kernel_table.
enum class KernelId : std::uint8_t {
  scalar,
#define FASTWC_KERNEL_ENUM(name, arch, needs, hwcaps) name,
  FASTWC_KERNEL_ROWS(FASTWC_KERNEL_ENUM)
#undef FASTWC_KERNEL_ENUM
};

/// Every kernel, slowest first.
inline constexpr KernelId all_kernels[] = {KernelId::scalar,
#define FASTWC_KERNEL_ENUM(name, arch, needs, hwcaps) KernelId::name,
                                           FASTWC_KERNEL_ROWS(FASTWC_KERNEL_ENUM)
#undef FASTWC_KERNEL_ENUM
};
static_assert(std::size(all_kernels) == std::size(kernel_table));

constexpr const KernelInfo &kernel_info(KernelId id) noexcept {
  return kernel_table[static_cast<std::size_t>(id)];
}

/// The kernel's name ("scalar", "sse2", "avx2", ...).
constexpr const char *kernel_id_name(KernelId id) noexcept { return kernel_info(id).name; }

/// The kernel named `name`, if this build has it.
std::optional<KernelId> kernel_id_from_name(std::string_view name) noexcept;

/// True when this CPU (with its OS's register state support) can run the
/// kernel. GLIBC_TUNABLES plays no part. Detects the CPU's features on
/// the first call.
bool kernel_supported(KernelId id) noexcept;

/// The entry point of a kernel, or nullptr when !kernel_supported(id).
BodyFunction kernel_function(KernelId id) noexcept;

/// The kernel that counting uses: the one FASTWC_KERNEL names when this
/// build has it and the CPU runs it, else the fastest supported kernel that
/// GLIBC_TUNABLES does not mask. Decided on the first call (thread-safe),
/// then fixed.
KernelId active_kernel() noexcept;

/// GNU's reading of GLIBC_TUNABLES (gnulib cpu-supports, coreutils 9.8+):
/// false when the last "glibc.cpu.hwcaps=" setting lists "-<hwcap>"
/// (hwcap like "AVX2") before the next ':'. `tunables` may be nullptr.
bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept;

}  // namespace fastwc::count
