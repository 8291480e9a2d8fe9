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
import statistics
import sys
import tempfile
import time


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
    env = {"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    devnull = os.open("/dev/null", os.O_WRONLY)
    wall = [[] for _ in commands]
    cpu = [[] for _ in commands]
    faults = [[] for _ in commands]
    for _ in range(args.runs):
        for j, c in enumerate(commands):
            t = time.perf_counter_ns()
            pid = os.posix_spawn(c[0], c + [path], env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
            _, _, ru = os.wait4(pid, 0)
            wall[j].append((time.perf_counter_ns() - t) / 1e3)
            cpu[j].append((ru.ru_utime + ru.ru_stime) * 1e6)
            faults[j].append(ru.ru_minflt)
    base = statistics.median(wall[0])
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} rounds; file {path} ({os.path.getsize(path)} bytes)")
    print("| command | wall, median | vs first | CPU, median | minor faults |")
    print("|---|---:|---:|---:|---:|")
    for j, c in enumerate(commands):
        w = statistics.median(wall[j])
        print(f"| `{' '.join(c)}` | {w:.0f} µs | {w / base:.3f} | {statistics.median(cpu[j]):.0f} µs | "
              f"{statistics.median(faults[j]):.0f} |")


if __name__ == "__main__":
    main()
