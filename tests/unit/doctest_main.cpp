// SPDX-License-Identifier: GPL-3.0-or-later
// The engine and cli suites' main: doctest's own (the runner is
// tests/support/doctest_runner.cpp).
#include <doctest/doctest.h>

int main(int argc, char **argv) { return doctest::Context(argc, argv).run(); }
