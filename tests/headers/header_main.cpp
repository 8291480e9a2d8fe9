// SPDX-License-Identifier: GPL-3.0-or-later
// The header tests are checked when they compile; running them checks that
// version.hpp's number agrees with its parts.
#include <fastwc/version.hpp>

static_assert(FASTWC_VERSION_NUMBER ==
              FASTWC_VERSION_MAJOR * 10000 + FASTWC_VERSION_MINOR * 100 + FASTWC_VERSION_PATCH);

int main() { return sizeof(FASTWC_VERSION_STRING) > 1 ? 0 : 1; }
