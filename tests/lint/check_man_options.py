#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that the man page documents every option fastwc --help lists.

Usage: check_man_options.py FASTWC MAN_PAGE

--help is printed from the option table (src/cli/option_table.hpp) with the
newest GNU version's options, so every row of the table is checked: the man
page must have a tagged paragraph (.TP) whose tag names the long option,
its short name when it has one, and its argument's name when it takes one.
"""
import os
import re
import subprocess
import sys

HELP_LINE = re.compile(r"^  (?:-(?P<short>\w), |    )--(?P<long>[\w-]+)(?:=(?P<arg>\w+))?")


def roff(text):
    return text.replace("-", "\\-")


def main():
    fastwc, man_page = sys.argv[1], sys.argv[2]
    env = dict(os.environ, FASTWC_COMPAT="9.12", LC_ALL="C")
    help_text = subprocess.run([fastwc, "--help"], env=env, capture_output=True, text=True,
                               check=True).stdout
    options = [m.groupdict() for m in map(HELP_LINE.match, help_text.splitlines()) if m]
    if len(options) < 10:
        print(f"only {len(options)} options found in --help:\n{help_text}")
        return 1
    lines = open(man_page, encoding="utf-8").read().splitlines()
    tags = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line.strip() == ".TP"]
    missing = []
    for option in options:
        long_name = "\\-\\-" + roff(option["long"])
        found = False
        for tag in tags:
            if not re.search(re.escape(long_name) + r"(?![\w\\])", tag):
                continue
            if option["short"] and "\\-" + option["short"] not in tag:
                continue
            if option["arg"] and option["arg"] not in tag:
                continue
            found = True
        if not found:
            missing.append("--" + option["long"])
    if missing:
        print(f"{man_page} documents no .TP paragraph for: {', '.join(missing)}")
        return 1
    print(f"{man_page} documents all {len(options)} options of --help")
    return 0


if __name__ == "__main__":
    sys.exit(main())
