// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel selection (dispatch.hpp): CPU features from glibc's start-up CPUID
// record plus XGETBV, GNU's GLIBC_TUNABLES rule, and FASTWC_KERNEL, over the
// kernel table. This
// file must stay free of ISA flags: it is what runs before anyone knows
// which instructions the CPU has.
#include "count/dispatch.hpp"

#include <cstdlib>

#if FASTWC_KERNELS_X86
#include <cpuid.h>
#if __has_include(<sys/platform/x86.h>)
#if defined(__clang__)
// glibc 2.36's header is C: it returns _Bool, which g++ accepts in C++ as
// an extension and clang++ 14 rejects.
#define _Bool bool
#include <sys/platform/x86.h>
#undef _Bool
#else
#include <sys/platform/x86.h>
#endif
#define FASTWC_HAVE_GLIBC_CPU_FEATURES 1
#endif
#endif

namespace fastwc::count {

namespace {

#if FASTWC_KERNELS_X86
/// XCR0: which register files the OS saves on context switches. Only
/// meaningful when CPUID reports OSXSAVE.
std::uint64_t read_xcr0() noexcept {
  std::uint32_t eax = 0;
  std::uint32_t edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (std::uint64_t{edx} << 32) | eax;
}

/// Folds the OS's register state support into the raw CPUID bits.
CpuFeatures with_os_support(CpuFeatures f, bool osxsave, bool avx) noexcept {
  const std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool ymm = avx && (xcr0 & 0x6) == 0x6;  // SSE and AVX state
  // ... plus the opmask registers and both halves of the ZMM file.
  const bool zmm = ymm && (xcr0 & 0xE0) == 0xE0;
  if (!ymm) f.bits &= ~cpu_feature::avx2;
  if (!zmm)
    f.bits &= ~(cpu_feature::avx512f | cpu_feature::avx512cd | cpu_feature::avx512dq |
                cpu_feature::avx512bw | cpu_feature::avx512vl | cpu_feature::avx512vbmi);
  return f;
}

std::uint32_t feature_if(bool present, std::uint32_t feature) noexcept {
  return present ? feature : 0;
}
#endif

const CpuFeatures &cpu_features() noexcept {
  static const CpuFeatures features = detect_cpu_features();
  return features;
}

/// True when no hwcap of the comma-separated list `hwcaps` is masked.
bool hwcaps_allowed(const char *tunables, std::string_view hwcaps) noexcept {
  while (!hwcaps.empty()) {
    const std::size_t comma = hwcaps.find(',');
    if (!hwcap_allowed(tunables, hwcaps.substr(0, comma))) return false;
    if (comma == std::string_view::npos) break;
    hwcaps.remove_prefix(comma + 1);
  }
  return true;
}

KernelId automatic_choice() noexcept {
  // GNU wc 9.8+ lets glibc.cpu.hwcaps switch its accelerated loops off:
  // AVX-512 needs both -AVX512F and -AVX512BW unset, AVX2 needs -AVX2
  // unset (coreutils tests/wc/wc-cpu.sh checks both). The table says which
  // hwcaps mask each kernel; the fastest kernel left wins.
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  for (std::size_t i = std::size(all_kernels); i-- > 0;) {
    const KernelId id = all_kernels[i];
    if (kernel_supported(id) && hwcaps_allowed(tunables, kernel_info(id).masked_by)) return id;
  }
  return KernelId::scalar;
}

KernelId decide() noexcept {
  // An explicit choice wins over GLIBC_TUNABLES: only the hardware limits
  // it. Any other value is ignored (fastwc(1)).
  const char *forced = std::getenv("FASTWC_KERNEL");
  if (forced != nullptr) {
    const std::optional<KernelId> id = kernel_id_from_name(forced);
    if (id && kernel_supported(*id)) return *id;
  }
  return automatic_choice();
}

}  // namespace

std::optional<KernelId> kernel_id_from_name(std::string_view name) noexcept {
  for (const KernelId id : all_kernels)
    if (name == kernel_id_name(id)) return id;
  return std::nullopt;
}

CpuFeatures detect_cpu_features() noexcept {
#if defined(FASTWC_HAVE_GLIBC_CPU_FEATURES)
  CpuFeatures f;
  f.bits = feature_if(CPU_FEATURE_PRESENT(SSSE3), cpu_feature::ssse3) |
           feature_if(CPU_FEATURE_PRESENT(POPCNT), cpu_feature::popcnt) |
           feature_if(CPU_FEATURE_PRESENT(BMI1), cpu_feature::bmi1) |
           feature_if(CPU_FEATURE_PRESENT(BMI2), cpu_feature::bmi2) |
           feature_if(CPU_FEATURE_PRESENT(AVX2), cpu_feature::avx2) |
           feature_if(CPU_FEATURE_PRESENT(AVX512F), cpu_feature::avx512f) |
           feature_if(CPU_FEATURE_PRESENT(AVX512CD), cpu_feature::avx512cd) |
           feature_if(CPU_FEATURE_PRESENT(AVX512DQ), cpu_feature::avx512dq) |
           feature_if(CPU_FEATURE_PRESENT(AVX512BW), cpu_feature::avx512bw) |
           feature_if(CPU_FEATURE_PRESENT(AVX512VL), cpu_feature::avx512vl) |
           feature_if(CPU_FEATURE_PRESENT(AVX512_VBMI), cpu_feature::avx512vbmi);
  // PRESENT is the raw CPUID bit: GLIBC_TUNABLES does not touch it, so
  // GNU's own reading of the tunables (hwcap_allowed) applies, as in wc.
  return with_os_support(f, CPU_FEATURE_PRESENT(OSXSAVE), CPU_FEATURE_PRESENT(AVX));
#else
  return detect_cpu_features_with_cpuid();
#endif
}

CpuFeatures detect_cpu_features_with_cpuid() noexcept {
  CpuFeatures f;
#if FASTWC_KERNELS_X86
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf < 1) return f;
  __cpuid_count(1, 0, eax, ebx, ecx, edx);
  f.bits = feature_if((ecx & bit_SSSE3) != 0, cpu_feature::ssse3) |
           feature_if((ecx & bit_POPCNT) != 0, cpu_feature::popcnt);
  const bool osxsave = (ecx & bit_OSXSAVE) != 0;
  const bool avx = (ecx & bit_AVX) != 0;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    f.bits |= feature_if((ebx & bit_BMI) != 0, cpu_feature::bmi1) |
              feature_if((ebx & bit_BMI2) != 0, cpu_feature::bmi2) |
              feature_if((ebx & bit_AVX2) != 0, cpu_feature::avx2) |
              feature_if((ebx & bit_AVX512F) != 0, cpu_feature::avx512f) |
              feature_if((ebx & bit_AVX512CD) != 0, cpu_feature::avx512cd) |
              feature_if((ebx & bit_AVX512DQ) != 0, cpu_feature::avx512dq) |
              feature_if((ebx & bit_AVX512BW) != 0, cpu_feature::avx512bw) |
              feature_if((ebx & bit_AVX512VL) != 0, cpu_feature::avx512vl) |
              feature_if((ecx & bit_AVX512VBMI) != 0, cpu_feature::avx512vbmi);
  }
  f = with_os_support(f, osxsave, avx);
#endif
  return f;
}

bool hwcap_allowed(const char *tunables, std::string_view hwcap) noexcept {
  if (tunables == nullptr) return true;
  // Like glibc, the last glibc.cpu.hwcaps setting wins; settings are
  // separated by ':' and the list inside one by ','.
  static constexpr std::string_view key = "glibc.cpu.hwcaps=";
  const std::string_view all(tunables);
  const std::size_t at = all.rfind(key);
  if (at == std::string_view::npos) return true;
  std::string_view caps = all.substr(at + key.size());
  caps = caps.substr(0, caps.find(':'));
  // A whole "-NAME" item, found as a substring followed by ',' or the end
  // of the setting (gnulib's test: "-AVX2" does not disable "AVX").
  for (std::size_t from = 0;;) {
    const std::size_t hit = caps.find(hwcap, from);
    if (hit == std::string_view::npos) return true;
    const std::size_t after = hit + hwcap.size();
    if (hit > 0 && caps[hit - 1] == '-' && (after == caps.size() || caps[after] == ','))
      return false;
    from = hit + 1;
  }
}

bool kernel_supported(KernelId id) noexcept {
  return id == KernelId::scalar || cpu_features().has(kernel_info(id).needs);
}

BodyFunction kernel_function(KernelId id) noexcept {
  return kernel_supported(id) ? kernel_info(id).entry : nullptr;
}

KernelId active_kernel() noexcept {
  static const KernelId decided = decide();
  return decided;
}

}  // namespace fastwc::count
