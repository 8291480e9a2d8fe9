// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware_report.hpp"

#include <cstdlib>
#include <string_view>

#include "fastwc/diagnostics.hpp"
#include "out/messages.hpp"

namespace fastwc::app {

void report_hardware_support(const cli::Compat &compat) {
  // GNU asks __builtin_cpu_supports (gnulib's cpu_supports from 9.8, which
  // also honours GLIBC_TUNABLES' glibc.cpu.hwcaps masks); fastwc asks the C
  // library's record of the same CPUID bits (fastwc::cpu_support),
  // because libgcc's __cpu_indicator_init, linked in by
  // __builtin_cpu_supports, runs CPUID at every start-up, and CPUID traps
  // to the hypervisor in virtual machines.
  const CpuSupport cpu = cpu_support();
  const char *tunables = compat.debug_honours_hwcaps() ? std::getenv("GLIBC_TUNABLES") : nullptr;
  auto supports = [tunables](bool present, std::string_view hwcap) {
    return present && hwcap_allowed(tunables, hwcap);
  };
  // 9.9+ try AVX-512 first (avx512f and avx512bw) and say so either way.
  if (compat.reports_avx512()) {
    if (supports(cpu.avx512f, "AVX512F") && supports(cpu.avx512bw, "AVX512BW")) {
      out::report(0, out::translate("using avx512 hardware support"));
      return;
    }
    out::report(0, out::translate("avx512 support not detected"));
  }
  out::report(0, out::translate(supports(cpu.avx2, "AVX2") ? "using avx2 hardware support"
                                                           : "avx2 support not detected"));
}

}  // namespace fastwc::app
