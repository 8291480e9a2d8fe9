// SPDX-License-Identifier: GPL-3.0-or-later
// What the engine finds about the machine it runs on, for reports such as
// GNU wc's --debug lines. Unstable: this header may change in any release.
#pragma once

#include <string_view>

namespace fastwc {

/// The vector extensions the CPU has and the operating system saves the
/// registers of.
struct CpuSupport {
  bool avx2 = false;
  bool avx512f = false;
  bool avx512bw = false;
};

/// From the C library's record of the CPUID instruction that it ran at
/// start-up where glibc publishes it (CPUID traps to the hypervisor in a
/// virtual machine), else from CPUID. Detected once per process.
CpuSupport cpu_support() noexcept;

/// GNU's reading of GLIBC_TUNABLES (gnulib's cpu-supports, coreutils 9.8+):
/// false when the last "glibc.cpu.hwcaps=" setting lists "-<hwcap>"
/// (`hwcap` such as "AVX2") before the next ':'. `tunables` may be null.
bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept;

}  // namespace fastwc
