#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One count of GNU wc, of two fastwc builds, fastwc -l and a bare read() loop on the same files, round-robin in
the same run (the ratios the brief asks every committed figure to carry), where bench/run's hyperfine is not
installed or its whole matrix is not wanted:

  bench/side_by_side.py --base OLD/src/fastwc --new build/src/fastwc --gnu /usr/bin/wc \\
      --read-loop build/bench/pipeline/read_loop --flags=-w --runs 7 FILE...

GB/s from the median wall time of each command (GNU wc, much slower, runs --gnu-runs times); prints a Markdown
table with the CPU model."""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from harness import command_env, cpu_model  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True, help="fastwc before the change")
    p.add_argument("--new", required=True, help="fastwc after it")
    p.add_argument("--gnu", default="/usr/bin/wc", help="GNU wc (default /usr/bin/wc)")
    p.add_argument("--read-loop", required=True, help="bench/pipeline/read_loop of a build")
    p.add_argument("--flags", default="-w", help="the count's options, one argument (default -w)")
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for every command (repeatable)")
    p.add_argument("--runs", type=int, default=7, help="rounds per file (default 7)")
    p.add_argument("--gnu-runs", type=int, default=3, help="rounds of GNU wc (default 3)")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    env = command_env(args.env)
    flags = args.flags.split()
    commands = {
        "gnu": [args.gnu] + flags,
        "base": [args.base] + flags,
        "new": [args.new] + flags,
        "lines": [args.new, "-l"],
        "read": [args.read_loop],
    }
    shown = " ".join(flags) or "(default)"
    print(f"CPU: {cpu_model()}; env {' '.join(args.env) or '-'}; median of {args.runs} rounds "
          f"(GNU wc: {args.gnu_runs}), GB/s\n")
    print(f"| file | GNU wc `{shown}` | before | after | `fastwc -l` | read() loop | after / GNU | "
          "after / `-l` | after / read |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.files:
        times = {key: [] for key in commands}
        for r in range(args.runs):
            for key, command in commands.items():
                if key == "gnu" and r >= args.gnu_runs:
                    continue
                start = time.perf_counter()
                subprocess.run(command + [path], env=env, stdout=subprocess.DEVNULL, check=True)
                times[key].append(time.perf_counter() - start)
        size = os.path.getsize(path)
        median = {key: statistics.median(v) for key, v in times.items()}
        rate = {key: size / t / 1e9 for key, t in median.items()}
        print(f"| {os.path.basename(path)} | {rate['gnu']:.3f} | {rate['base']:.2f} | {rate['new']:.2f} | "
              f"{rate['lines']:.2f} | {rate['read']:.2f} | {median['gnu'] / median['new']:.0f}x | "
              f"{rate['new'] / rate['lines']:.2f} | {rate['new'] / rate['read']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
