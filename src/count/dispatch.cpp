// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel selection (dispatch.hpp): CPU features from glibc's start-up CPUID
// record plus XGETBV, GNU's GLIBC_TUNABLES rule, and FASTWC_KERNEL. This
// file must stay free of ISA flags: it is what runs before anyone knows
// which instructions the CPU has.
#include "count/dispatch.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

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

constexpr const char *kernel_names[] = {"scalar", "sse2", "avx2", "avx512bw"};

bool compiled_in(KernelId id) noexcept {
  switch (id) {
    case KernelId::scalar:
      return true;
    case KernelId::sse2:
      return FASTWC_KERNEL_SSE2 != 0;
    case KernelId::avx2:
      return FASTWC_KERNEL_AVX2 != 0;
    case KernelId::avx512bw:
      return FASTWC_KERNEL_AVX512BW != 0;
  }
  return false;
}

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
  f.avx2 = f.avx2 && ymm;
  if (!zmm) f.avx512f = f.avx512cd = f.avx512dq = f.avx512bw = f.avx512vl = false;
  return f;
}
#endif

const CpuFeatures &cpu_features() noexcept {
  static const CpuFeatures features = detect_cpu_features();
  return features;
}

struct Choice {
  KernelId id = KernelId::scalar;
  std::string error;
};

KernelId automatic_choice() noexcept {
  // GNU wc 9.8+ lets glibc.cpu.hwcaps switch its accelerated loops off:
  // AVX-512 needs both -AVX512F and -AVX512BW unset, AVX2 needs -AVX2
  // unset (coreutils tests/wc/wc-cpu.sh checks both).
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  if (kernel_supported(KernelId::avx512bw) && hwcap_allowed(tunables, "AVX512F") &&
      hwcap_allowed(tunables, "AVX512BW"))
    return KernelId::avx512bw;
  if (kernel_supported(KernelId::avx2) && hwcap_allowed(tunables, "AVX2")) return KernelId::avx2;
  if (kernel_supported(KernelId::sse2)) return KernelId::sse2;
  return KernelId::scalar;
}

Choice decide() {
  Choice choice;
  choice.id = automatic_choice();
  const char *forced = std::getenv("FASTWC_KERNEL");
  if (forced == nullptr || *forced == '\0') return choice;
  const std::string prefix = std::string("FASTWC_KERNEL=") + forced + ": ";
  const std::optional<KernelId> id = kernel_id_from_name(forced);
  if (!id) {
    choice.error = prefix + "unknown kernel (expected scalar, sse2, avx2 or avx512bw)";
  } else if (!compiled_in(*id)) {
    choice.error = prefix + "this build has no " + kernel_id_name(*id) + " kernel";
  } else if (!kernel_supported(*id)) {
    choice.error = prefix + "this CPU cannot run the " + kernel_id_name(*id) + " kernel";
  } else {
    // An explicit choice wins over GLIBC_TUNABLES: only the hardware limits it.
    choice.id = *id;
  }
  return choice;
}

const Choice &choice() noexcept {
  static const Choice decided = decide();
  return decided;
}

}  // namespace

const char *kernel_id_name(KernelId id) noexcept {
  return kernel_names[static_cast<std::size_t>(id)];
}

std::optional<KernelId> kernel_id_from_name(std::string_view name) noexcept {
  for (const KernelId id : all_kernels)
    if (name == kernel_id_name(id)) return id;
  return std::nullopt;
}

CpuFeatures detect_cpu_features() noexcept {
#if defined(FASTWC_HAVE_GLIBC_CPU_FEATURES)
  CpuFeatures f;
  f.popcnt = CPU_FEATURE_PRESENT(POPCNT);
  f.bmi1 = CPU_FEATURE_PRESENT(BMI1);
  f.bmi2 = CPU_FEATURE_PRESENT(BMI2);
  f.avx2 = CPU_FEATURE_PRESENT(AVX2);
  f.avx512f = CPU_FEATURE_PRESENT(AVX512F);
  f.avx512cd = CPU_FEATURE_PRESENT(AVX512CD);
  f.avx512dq = CPU_FEATURE_PRESENT(AVX512DQ);
  f.avx512bw = CPU_FEATURE_PRESENT(AVX512BW);
  f.avx512vl = CPU_FEATURE_PRESENT(AVX512VL);
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
  f.popcnt = (ecx & bit_POPCNT) != 0;
  const bool osxsave = (ecx & bit_OSXSAVE) != 0;
  const bool avx = (ecx & bit_AVX) != 0;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    f.bmi1 = (ebx & bit_BMI) != 0;
    f.bmi2 = (ebx & bit_BMI2) != 0;
    f.avx2 = (ebx & bit_AVX2) != 0;
    f.avx512f = (ebx & bit_AVX512F) != 0;
    f.avx512cd = (ebx & bit_AVX512CD) != 0;
    f.avx512dq = (ebx & bit_AVX512DQ) != 0;
    f.avx512bw = (ebx & bit_AVX512BW) != 0;
    f.avx512vl = (ebx & bit_AVX512VL) != 0;
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
  if (!compiled_in(id)) return false;
  const CpuFeatures &f = cpu_features();
  switch (id) {
    case KernelId::scalar:
    case KernelId::sse2:
      return true;  // SSE2 is part of x86-64
    case KernelId::avx2:
      // kernel_avx2.cpp is built with -mavx2 -mbmi -mbmi2 -mpopcnt.
      return f.avx2 && f.bmi1 && f.bmi2 && f.popcnt;
    case KernelId::avx512bw:
      // kernel_avx512bw.cpp adds -mavx512f/cd/dq/bw/vl (xsimd's avx512bw
      // arch builds on F, CD and DQ).
      return f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.avx512f && f.avx512cd && f.avx512dq &&
             f.avx512bw && f.avx512vl;
  }
  return false;
}

BodyFunction kernel_function(KernelId id) noexcept {
  if (!kernel_supported(id)) return nullptr;
  switch (id) {
    case KernelId::scalar:
      return &kernels::count_body_scalar;
#if FASTWC_KERNEL_SSE2
    case KernelId::sse2:
      return &kernels::count_body<xsimd::sse2>;
#endif
#if FASTWC_KERNEL_AVX2
    case KernelId::avx2:
      return &kernels::count_body<xsimd::avx2>;
#endif
#if FASTWC_KERNEL_AVX512BW
    case KernelId::avx512bw:
      return &kernels::count_body<xsimd::avx512bw>;
#endif
    default:
      break;
  }
  return nullptr;
}

KernelId active_kernel() noexcept { return choice().id; }

const char *kernel_name() noexcept { return kernel_id_name(active_kernel()); }

const char *kernel_error() noexcept {
  const Choice &c = choice();
  return c.error.empty() ? nullptr : c.error.c_str();
}

}  // namespace fastwc::count
