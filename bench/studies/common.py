# SPDX-License-Identifier: GPL-3.0-or-later
"""What the three studies share: running one on its own, and fastwc's chosen read size."""
import argparse
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))

import corpus  # noqa: E402
import harness  # noqa: E402

STATS_PAREN = re.compile(r"\(([^()]*(?:io_uring|read\(\))[^()]*)\)")


def stats_summary(stats):
    """'io_uring, 6 x 1 MiB registered, 2 workers, avx512bw' from fastwc --stats output."""
    m = STATS_PAREN.search(stats)
    return m.group(1) if m else "?"


def default_read_size(b):
    """The read size fastwc picks on this machine for the English file (from --stats), in bytes."""
    m = re.search(r"\d+ x (\d+(?:\.\d+)?) (KiB|MiB|B)\b", b.fastwc_stats(["-l", b.corpus["english"]]))
    if not m:
        return 1 << 20
    return int(float(m.group(1)) * {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20}[m.group(2)])


def standalone(module):
    """`bench/studies/NAME.py [--size 1G] [--builddir build-bench] [--out DIR] [--quick]`: one study alone."""
    p = argparse.ArgumentParser(description=module.__doc__.splitlines()[0])
    p.add_argument("--size", default="1G")
    p.add_argument("--builddir", default="build-bench")
    p.add_argument("--out", help="default bench/corpus/studies/NAME (gitignored, not for committing)")
    p.add_argument("--corpus-dir", default="bench/corpus")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    os.chdir(REPO)
    size = harness.parse_size(args.size)
    out = args.out or os.path.join(args.corpus_dir, "studies", module.NAME)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    paths = corpus.ensure(args.corpus_dir, size, corpus.small_count_for(size))
    b = harness.Bench(repo=REPO, builddir=args.builddir, out=out, size=size, corpus_paths=paths,
                      small_count=corpus.small_count_for(size), quick=args.quick)
    b.ensure_read_loop()
    b.ensure_bench_kernels()
    section = module.run(b)
    b.save()
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(section)
    print(section)
