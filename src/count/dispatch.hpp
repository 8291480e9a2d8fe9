// SPDX-License-Identifier: GPL-3.0-or-later
// Which counting kernel runs: the kernels this build has, what the CPU and
// its OS can run, the FASTWC_KERNEL override and GNU's GLIBC_TUNABLES
// masks. The choice is made once per process, on first use, so inputs that
// need no kernel (wc -c) never pay for it. Compiled with baseline flags only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "count/kernels/kernel.hpp"

namespace fastwc::count {

/// The kernels, slowest first. Names are xsimd's architecture names.
enum class KernelId : std::uint8_t { scalar, sse2, avx2, avx512bw };

inline constexpr KernelId all_kernels[] = {KernelId::scalar, KernelId::sse2, KernelId::avx2,
                                           KernelId::avx512bw};

/// "scalar", "sse2", "avx2" or "avx512bw".
const char *kernel_id_name(KernelId id) noexcept;

/// The kernel named `name`, if there is one.
std::optional<KernelId> kernel_id_from_name(std::string_view name) noexcept;

/// True when this build contains the kernel and this CPU (with its OS's
/// register state support) can run it. GLIBC_TUNABLES plays no part.
bool kernel_supported(KernelId id) noexcept;

using BodyFunction = kernels::BodyResult (*)(const kernels::Request &, const std::uint8_t *,
                                             std::size_t) noexcept;

/// The entry point of a kernel, or nullptr when !kernel_supported(id).
BodyFunction kernel_function(KernelId id) noexcept;

/// The kernel that counting uses: the one FASTWC_KERNEL names when it is
/// valid and supported, else the best supported kernel that GLIBC_TUNABLES
/// does not mask. Decided on the first call (thread-safe), then fixed.
KernelId active_kernel() noexcept;

/// kernel_id_name(active_kernel()), for --debug and --version.
const char *kernel_name() noexcept;

/// When FASTWC_KERNEL names an unknown kernel or one this build or CPU
/// lacks: a message for the user, without program name or newline (for
/// example "FASTWC_KERNEL=avx512bw: this CPU cannot run the avx512bw
/// kernel"); active_kernel() then made the automatic choice. nullptr
/// otherwise. Decides the kernel like active_kernel().
const char *kernel_error() noexcept;

/// The CPU features the kernels need, with the OS's support for the wider
/// register files folded in.
struct CpuFeatures {
  bool popcnt = false;
  bool bmi1 = false;
  bool bmi2 = false;
  bool avx2 = false;     ///< and the OS saves YMM state
  bool avx512f = false;  ///< and the OS saves ZMM and opmask state
  bool avx512cd = false;
  bool avx512dq = false;
  bool avx512bw = false;
  bool avx512vl = false;

  friend bool operator==(const CpuFeatures &, const CpuFeatures &) = default;
};

/// What the CPU has, from the C library's record of the CPUID instruction
/// that it ran at start-up (no CPUID here: it traps to the hypervisor in
/// virtual machines) where glibc publishes it, else from CPUID.
CpuFeatures detect_cpu_features() noexcept;

/// The same from the CPUID instruction itself (for tests).
CpuFeatures detect_cpu_features_with_cpuid() noexcept;

/// GNU's reading of GLIBC_TUNABLES (gnulib cpu-supports, coreutils 9.8+):
/// false when the last "glibc.cpu.hwcaps=" setting lists "-<hwcap>"
/// (hwcap like "AVX2") before the next ':'. `tunables` may be nullptr.
bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept;

}  // namespace fastwc::count
