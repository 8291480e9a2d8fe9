// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput of single AVX-512 instructions on the machine it runs on: eight
// independent chains of one instruction, so that latency does not bound them
// (the mask-producing ones feed one XOR chain, which costs one cycle each).
// The figures of README.md in this folder; not built by Meson:
//   cc -O2 -march=native -o port_probe port_probe.c && taskset -c 1 ./port_probe
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

#define N 50000000
#define EACH(X) X(a0) X(a1) X(a2) X(a3) X(a4) X(a5) X(a6) X(a7)
#define OPAQUE \
  __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(a6), "+v"(a7));
#define PROBE(name, X)                                         \
  start = now();                                               \
  for (long i = 0; i < N; i++) {                               \
    EACH(X) OPAQUE                                             \
  }                                                            \
  printf("%-14s %.3f ns\n", name, (now() - start) / N / 8 * 1e9);

int main(void) {
  const __m512i t0 = _mm512_set1_epi8(3), t1 = _mm512_set1_epi8(5);
  __m512i a0 = t0, a1 = t0, a2 = t0, a3 = t0, a4 = t0, a5 = t0, a6 = t0, a7 = t0;
  __mmask64 m = 0;
  double start;
#define VPERMB(a) a = _mm512_permutexvar_epi8(a, t0);
#define VPERMI2B(a) a = _mm512_permutex2var_epi8(t0, a, t1);
#define VPSHUFB(a) a = _mm512_shuffle_epi8(t0, a);
#define VPADDB(a) a = _mm512_add_epi8(t0, a);
#define VPSLLW(a) a = _mm512_slli_epi16(a, 1);
#define VPTESTMB(a) m ^= _mm512_test_epi8_mask(a, t0);
#define VPCMPEQB(a) m ^= _mm512_cmpeq_epi8_mask(a, t0);
#define VPSHUFBITQMB(a) m ^= _mm512_bitshuffle_epi64_mask(a, t0);
#define VPMOVB2M(a) m ^= _mm512_movepi8_mask(a);
#define VPMULTISHIFTQB(a) a = _mm512_multishift_epi64_epi8(t0, a);
#define VPBLENDMB(a) a = _mm512_mask_blend_epi8(m, a, t0);
  PROBE("vpermb", VPERMB)
  PROBE("vpermi2b", VPERMI2B)
  PROBE("vpshufb", VPSHUFB)
  PROBE("vpaddb", VPADDB)
  PROBE("vpsllw", VPSLLW)
  PROBE("vptestmb+kmov", VPTESTMB)
  PROBE("vpcmpeqb+kmov", VPCMPEQB)
  PROBE("vpshufbitqmb", VPSHUFBITQMB)
  PROBE("vpmovb2m+kmov", VPMOVB2M)
  PROBE("vpmultishiftqb", VPMULTISHIFTQB)
  PROBE("vpblendmb", VPBLENDMB)
  printf("(mask %llx)\n", (unsigned long long)m);
  return 0;
}
