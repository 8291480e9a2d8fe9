// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_locales.hpp"

#include <doctest/doctest.h>
#include <locale.h>

#include <cstdlib>
#include <map>
#include <string>

namespace fastwc::testing {

namespace {

bool loadable(const char *name) {
  const locale_t locale = newlocale(LC_CTYPE_MASK, name, static_cast<locale_t>(nullptr));
  if (locale == static_cast<locale_t>(nullptr)) return false;
  freelocale(locale);
  return true;
}

/// Single quotes for the shell (the paths come from the build).
std::string shell_quoted(const std::string &text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

bool prepare_test_locale(const char *name) {
  static std::map<std::string, bool> known;
  const auto found = known.find(name);
  if (found != known.end()) {
    if (!found->second)
      MESSAGE("skipped: test locale " << std::string(name) << " is not available");
    return found->second;
  }
  // Compile first, look up after: glibc remembers a locale it failed to
  // find under LOCPATH for the rest of the process.
  const char *script = std::getenv("FASTWC_COMPILE_LOCALE");
  const char *dir = std::getenv("FASTWC_TEST_LOCALE_DIR");
  if (script != nullptr && dir != nullptr) {
    const std::string command = shell_quoted(script) + " " + shell_quoted(dir) + " " + name;
    // glibc reads LOCPATH at every setlocale and newlocale; it searches
    // there first and then its default directory (C.UTF-8 stays found).
    if (std::system(command.c_str()) == 0) setenv("LOCPATH", dir, 1);
  }
  const bool ok = loadable(name);
  known[name] = ok;
  if (!ok)
    MESSAGE("skipped: test locale " << std::string(name) << " is not available (no localedef?)");
  return ok;
}

}  // namespace fastwc::testing
