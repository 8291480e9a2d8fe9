// SPDX-License-Identifier: GPL-3.0-or-later
// doctest's runner, compiled once for every test program (engine, cli,
// io): each program's main is its own small file. In a sanitizer build
// this one translation unit takes a minute to compile.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
