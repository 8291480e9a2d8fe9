// SPDX-License-Identifier: GPL-3.0-or-later
// Test locales that a Debian system does not have ready (ja_JP.SJIS,
// zh_HK.BIG5-HKSCS, ...): compiled on first use by
// tests/locales/compile_locale.sh into the build's locale directory and
// loaded through LOCPATH.
#pragma once

namespace fastwc::testing {

/// True when the LC_CTYPE locale `name` can be loaded, compiling it first
/// if the build said how (FASTWC_COMPILE_LOCALE, FASTWC_TEST_LOCALE_DIR).
/// Otherwise reports why with doctest's MESSAGE: the caller then skips.
bool prepare_test_locale(const char *name);

}  // namespace fastwc::testing
