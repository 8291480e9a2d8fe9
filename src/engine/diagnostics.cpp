// SPDX-License-Identifier: GPL-3.0-or-later
// include/fastwc/diagnostics.hpp, from the kernels' dispatch (count/dispatch).
#include "fastwc/diagnostics.hpp"

#include "count/dispatch.hpp"

namespace fastwc {

CpuSupport cpu_support() noexcept {
  const count::CpuFeatures cpu = count::detect_cpu_features();
  return CpuSupport{cpu.has(count::cpu_feature::avx2), cpu.has(count::cpu_feature::avx512f),
                    cpu.has(count::cpu_feature::avx512bw)};
}

bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept {
  return count::hwcap_allowed(tunables, hwcap);
}

}  // namespace fastwc
