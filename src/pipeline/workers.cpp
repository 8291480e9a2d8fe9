// SPDX-License-Identifier: GPL-3.0-or-later
// Loading fastwc-workers.so (workers.hpp).
#include "pipeline/workers.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <string>

#include "fastwc_config.hpp"

// Defined only in a binary that links the module's code directly.
extern "C" __attribute__((weak)) const fastwc_workers_api *fastwc_workers_api_v1(void);

namespace fastwc::pipeline {

namespace {

constexpr const char *module_name = "fastwc-workers.so";

struct Loaded {
  const fastwc_workers_api *api = nullptr;
  std::string error;
};

const fastwc_workers_api *open_module(const std::string &path, std::string &error) {
  // RTLD_LOCAL: oneTBB and the shared C++ runtime stay out of the global
  // scope, where the binary's own (static) C++ runtime lives.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *why = dlerror();
    error = why != nullptr ? why : path + ": cannot be loaded";
    return nullptr;
  }
  using Entry = const fastwc_workers_api *(*)();
  auto entry = reinterpret_cast<Entry>(dlsym(handle, "fastwc_workers_api_v1"));
  const fastwc_workers_api *api = entry != nullptr ? entry() : nullptr;
  if (api == nullptr || api->abi_version != FASTWC_WORKERS_ABI_VERSION) {
    error = path + ": not a fastwc-workers module of this version";
    dlclose(handle);
    return nullptr;
  }
  return api;  // never closed: its threads live until exit
}

Loaded load() {
  Loaded loaded;
  if (fastwc_workers_api_v1 != nullptr) {
    loaded.api = fastwc_workers_api_v1();
    return loaded;
  }
  std::string candidates[3];
  if (const char *path = std::getenv("FASTWC_WORKERS_MODULE"); path != nullptr && *path != '\0') {
    candidates[0] = path;
  } else {
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      std::string dir(self, static_cast<std::size_t>(n));
      dir.resize(dir.rfind('/') + 1);
      candidates[1] = dir + module_name;
    }
    candidates[2] = std::string(FASTWC_WORKERS_MODULE_DIR) + "/" + module_name;
  }
  for (const std::string &path : candidates) {
    if (path.empty()) continue;
    if (candidates[0].empty() && access(path.c_str(), F_OK) != 0) continue;
    loaded.api = open_module(path, loaded.error);
    if (loaded.api != nullptr) return loaded;
  }
  if (loaded.error.empty()) loaded.error = std::string(module_name) + ": not found";
  return loaded;
}

const Loaded &loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

const fastwc_workers_api *workers() noexcept {
  try {
    return loaded().api;
  } catch (...) {
    return nullptr;
  }
}

const char *workers_error() noexcept {
  try {
    return loaded().api == nullptr ? loaded().error.c_str() : nullptr;
  } catch (...) {
    return nullptr;
  }
}

}  // namespace fastwc::pipeline
