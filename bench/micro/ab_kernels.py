#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two or more bench_kernels binaries (builds before and after a change) interleaved, one run of each a round
(every other round in reverse order), so that a shared machine's drifts (2x within minutes on some hosts)
hit every build alike: each row's best and median GB/s per build, and the last build's ratio to the first.
For a change to a kernel:

  bench/micro/ab_kernels.py --rounds 10 --kernel avx512vbmi --mode "-w UTF-8 9.1" --size 4096 \\
      --scripts /tmp/scripts64 old=OLD/bench/micro/bench_kernels new=build/bench/micro/bench_kernels

--size 4096 with the 64 MiB per-script corpora (bench/lib/corpus.py --scripts DIR --size 67108864) measures
text the branch predictor has not seen (HACKING.md); --size 256 with the 1 MiB corpora, the goals' buffers.
A label=PATH:KERNEL argument runs that build with another kernel. Medians say more than the best run where
the host's speed is bimodal; compare only figures of one invocation."""
import argparse
import collections
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import cpu_model  # noqa: E402

ROW = re.compile(r"\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*[^|]+\|\s*([0-9.]+)\s*\|")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("builds", nargs="+", metavar="LABEL=PATH[:KERNEL]",
                   help="a bench_kernels binary and its label (the first is the baseline)")
    p.add_argument("--kernel", required=True, help="the kernel measured (bench_kernels --kernel)")
    p.add_argument("--mode", default="", help="only modes whose name contains this (bench_kernels --mode)")
    p.add_argument("--corpus", default="", help="only corpora whose name contains this")
    p.add_argument("--size", default="256", help="buffer KiB (default 256)")
    p.add_argument("--scripts", default="", help="also the per-script corpora of this directory")
    p.add_argument("--rounds", type=int, default=8, help="rounds, one run of each build a round (default 8)")
    args = p.parse_args()

    builds = []
    for spec in args.builds:
        label, sep, rest = spec.partition("=")
        if not sep:
            p.error(f"{spec}: expected LABEL=PATH[:KERNEL]")
        path, _, kernel = rest.partition(":")
        builds.append((label, path, kernel or args.kernel))

    speeds = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in range(args.rounds):
        # Each round in the other order: the run that comes first in a round
        # measured slower on a busy host, whichever build it was.
        for label, path, kernel in builds if r % 2 == 0 else reversed(builds):
            command = [path, "--quick", f"--size={args.size}", "--no-reference", f"--kernel={kernel}"]
            if args.mode:
                command.append(f"--mode={args.mode}")
            if args.corpus:
                command.append(f"--corpus={args.corpus}")
            if args.scripts:
                command.append(f"--scripts={args.scripts}")
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                m = ROW.match(line)
                if m:
                    speeds[(m.group(1), m.group(2))][label].append(float(m.group(3)))

    labels = [b[0] for b in builds]
    print(f"CPU: {cpu_model()}; {args.rounds} rounds, {args.size} KiB; GB/s best / median\n")
    print("| mode | corpus | " + " | ".join(labels) + f" | {labels[-1]} / {labels[0]} (best, median) |")
    print("|---|---|" + "---:|" * (len(labels) + 1))
    for (mode, corpus), by_label in speeds.items():
        if any(not by_label[label] for label in labels):
            continue
        cells = [f"{max(by_label[label]):.2f} / {statistics.median(by_label[label]):.2f}" for label in labels]
        first, last = by_label[labels[0]], by_label[labels[-1]]
        ratio = (f"{max(last) / max(first):.2f}, "
                 f"{statistics.median(last) / statistics.median(first):.2f}")
        print(f"| {mode} | {corpus} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    main()
