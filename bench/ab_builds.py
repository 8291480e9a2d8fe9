#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two builds of fastwc side by side on the same files, interleaved (bench/lib/startup.py's round-robin, so that
the drifts of a shared machine hit both alike): the median wall time of each count on each file, and the ratio.
For a change to the kernels or the engine, measured end to end on all CPUs:

  bench/ab_builds.py --base OLD/src/fastwc --new build/src/fastwc --env FASTWC_COMPAT=9.10 \\
      --flags=-w --flags= --runs 7 FILE...

Each build's counts are checked against the other's (the run stops at the first difference). Prints a Markdown
table; --out also writes it to a file, with the CPU model and the command line."""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from harness import command_env, cpu_model  # noqa: E402
from startup import interleaved  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True, help="the fastwc binary before the change")
    p.add_argument("--new", required=True, help="the fastwc binary after it")
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for both (repeatable)")
    p.add_argument("--flags", action="append", default=None,
                   help="one count's options, as one argument (repeatable; --flags= is the default count)")
    p.add_argument("--runs", type=int, default=7, help="rounds per file and count (default 7)")
    p.add_argument("--out", help="also write the table here")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    env = command_env(args.env)
    counts = args.flags if args.flags is not None else ["-w"]
    rows = []
    for path in args.files:
        size = os.path.getsize(path)
        for flags in counts:
            argv = flags.split()
            outputs = [subprocess.run([b] + argv + [path], capture_output=True, env=env, check=False).stdout
                       for b in (args.base, args.new)]
            if outputs[0] != outputs[1]:
                sys.exit(f"ab_builds: the builds disagree on {' '.join(argv)} {path}: {outputs}")
            # interleaved() appends the path; the options go before it.
            result = interleaved([[args.base] + argv, [args.new] + argv], path, args.runs, env)
            base, new = (r["wall_us"] for r in result)
            rows.append((os.path.basename(path), flags or "(default)", size / base / 1e3, size / new / 1e3,
                         base / new))
            print(f"  {rows[-1][0]} {rows[-1][1]}: {rows[-1][2]:.2f} -> {rows[-1][3]:.2f} GB/s", file=sys.stderr)
    lines = ["| file | count | before GB/s | after GB/s | speed-up |", "|---|---|---:|---:|---:|"]
    lines += [f"| {f} | `{c}` | {a:.2f} | {b:.2f} | {r:.2f}x |" for f, c, a, b, r in rows]
    ratios = [r[4] for r in rows]
    lines.append(f"\nMedian speed-up {statistics.median(ratios):.2f}x over {len(rows)} rows; median wall time "
                 f"of {args.runs} interleaved rounds each, env {' '.join(args.env) or '(none)'}; CPU: {cpu_model()}, "
                 f"{os.cpu_count()} CPUs.")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(f"Command: `{' '.join(sys.argv)}`\n\n" + table)


if __name__ == "__main__":
    main()
