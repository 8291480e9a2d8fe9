// SPDX-License-Identifier: GPL-3.0-or-later
// The plain-C boundary between fastwc and its counting threads (oneTBB),
// which live in a module of their own, fastwc-workers.so, loaded with
// dlopen() the first time a large input needs more than one thread. A
// process that counts only small inputs, pipes that stay small, or -l on
// files that the calling thread keeps up with, never loads oneTBB, nor the
// shared libstdc++ and libgcc_s that it needs: their start-up (relocations,
// and libgcc's CPU detection, whose CPUID instructions trap to the
// hypervisor in virtual machines) cost more than GNU wc's whole run on a
// one-line file. Only C types cross this boundary: the fastwc binary links
// its own C++ runtime statically, the module the shared one, and no
// exception, allocation or C++ object passes from one to the other.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#define FASTWC_WORKERS_ABI_VERSION 1u

struct fastwc_workers_api {
  unsigned abi_version; /* FASTWC_WORKERS_ABI_VERSION */
  /* The process-wide pool for `jobs` counting threads (the caller's
     included), created on first use and kept until exit; NULL if it could
     not be created. */
  void *(*pool)(unsigned jobs);
  /* A group of tasks run on a pool, for one input; NULL when out of memory. */
  void *(*group_create)(void);
  /* Runs task(argument) on one of the pool's threads: 0, or -1 when it
     could not be queued (the caller then does that work itself). */
  int (*enqueue)(void *pool, void *group, void (*task)(void *), void *argument);
  /* Returns once every task of the group has ended. */
  void (*wait)(void *pool, void *group);
  void (*group_destroy)(void *group);
};

/* The module's one entry point (and the symbol a test binary that links the
   module's code directly provides). */
const struct fastwc_workers_api *fastwc_workers_api_v1(void);

#ifdef __cplusplus
}
#endif
