#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Start-up cost, interleaved: commands on a tiny file, run round-robin N times each.

    bench/startup_ab.py [--runs N] [--file F] -- CMD ARGS... [-- CMD ARGS...]...

Each round runs every command once (posix_spawn, stdout to /dev/null, LC_ALL=C.UTF-8 and nothing else in the
environment), so slow drifts of a shared machine hit all of them alike; the median wall time, the median CPU time
(user + system, from wait4) and the median minor page faults of each are printed, wall time also as a ratio to the
first command. The input file (default: a 45-byte one-line file in a temporary directory) is appended to every
command.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import startup  # noqa: E402


def main():
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--file")
    args = p.parse_args(argv[:split])
    commands, current = [], None
    for a in argv[split:]:
        if a == "--":
            current = []
            commands.append(current)
        else:
            current.append(a)
    commands = [c for c in commands if c]
    if not commands:
        sys.exit("startup_ab: no command (give them after --)")
    path = args.file
    if not path:
        path = os.path.join(tempfile.mkdtemp(prefix="startup_ab."), "oneline.txt")
        with open(path, "w") as f:
            f.write("The quick brown fox jumps over the lazy dog.\n")
    results = startup.interleaved(commands, path, args.runs)
    base = results[0]["wall_us"]
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} rounds; file {path} ({os.path.getsize(path)} bytes)")
    print("| command | wall, median | vs first | CPU, median | minor faults |")
    print("|---|---:|---:|---:|---:|")
    for c, r in zip(commands, results):
        print(f"| `{' '.join(c)}` | {r['wall_us']:.0f} µs | {r['wall_us'] / base:.3f} | {r['cpu_us']:.0f} µs | "
              f"{r['faults']:.0f} |")

if __name__ == "__main__":
    main()
