// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing of GNU version numbers for FASTWC_COMPAT and the build default.
#include "cli/compat.hpp"

#include <charconv>
#include <cstdlib>

#include "fastwc_config.hpp"

namespace fastwc::cli {

namespace {

std::optional<int> parse_number(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<Compat> parse_compat(std::string_view text) {
  auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto major = parse_number(text.substr(0, dot));
  auto minor = parse_number(text.substr(dot + 1));
  if (!major || !minor) return std::nullopt;
  GnuVersion version{*major, *minor};
  if (version < oldest_supported) return std::nullopt;
  return Compat{version};
}

std::optional<Compat> compat_from_environment(std::string *error) {
  const char *requested = std::getenv("FASTWC_COMPAT");
  std::string_view text = requested && *requested ? requested : FASTWC_DEFAULT_COMPAT;
  if (auto compat = parse_compat(text)) return compat;
  if (error) {
    *error = "unsupported FASTWC_COMPAT value '" + std::string(text) +
             "' (expected a GNU wc version, 8.30 or later)";
  }
  return std::nullopt;
}

}  // namespace fastwc::cli
