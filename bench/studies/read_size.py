#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Study A: read size. fastwc -l with each backend and read sizes 4 KiB..16 MiB: wall, user and system time.

`fastwc --io=uring|read|pread --read-size=N -l english.txt` (LC_ALL=C.UTF-8, warm cache), next to the bare
read() loop at the same size. -l is the cheapest count, so the I/O cost dominates. Read sizes whose file
would hold fewer than 8 reads are skipped (the pipeline needs several chunks to overlap anything).
Writes read_size.dat and read_size.png.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import harness  # noqa: E402
from harness import code, format_mean_sd, format_rate, format_time, md_table  # noqa: E402

NAME = "read-size"
TITLE = "read size"
READ_SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20]
BACKENDS = ["uring", "read", "pread"]


def run(b):
    path = b.corpus["english"]
    size = os.path.getsize(path)
    scenario = ("english", "-l", "file", "C.UTF-8")
    group = "study-read-size"
    gnu = b.gnu_row(group, scenario, ["-l"], path, size)
    chosen = common.default_read_size(b)
    table = []
    dat = ["# read_size_bytes fastwc_uring_GBps fastwc_read_GBps read_loop_GBps fastwc_pread_GBps"]
    skipped = []
    for rs in READ_SIZES:
        if size < 8 * rs:
            skipped.append(harness.format_size(rs))
            continue
        rates = {}
        for backend in BACKENDS:
            args = [f"--io={backend}", f"--read-size={harness.format_size(rs)}", "-l", path]
            stats = common.stats_summary(b.fastwc_stats(args))
            r = b.measure(group=group, tool="fastwc", command=[b.fastwc] + args, scenario=scenario, bytes_=size,
                          extra={"backend": backend, "read_size": rs, "stats": stats})
            rates[backend] = size / r["mean"] / 1e9 if r["mean"] else float("nan")
        loop = b.measure(group=group, tool="read loop", command=[b.read_loop, f"--size={rs}", path],
                         scenario=("english", f"read {rs}", "file", "C.UTF-8"), bytes_=size, compare=False,
                         extra={"backend": "read loop", "read_size": rs})
        rates["loop"] = size / loop["mean"] / 1e9 if loop["mean"] else float("nan")
        dat.append(f"{rs} {rates['uring']:.4f} {rates['read']:.4f} {rates['loop']:.4f} {rates['pread']:.4f}")
    for r in b.find(group=group):
        if r["tool"] == "GNU wc":
            continue
        label = harness.human_bytes(r["read_size"]) + (" (fastwc's default)" if r["read_size"] == chosen else "")
        backend = {"uring": "fastwc --io=uring", "read": "fastwc --io=read", "pread": "fastwc --io=pread",
                   "read loop": "read() loop"}[r["backend"]]
        table.append([label, backend, code(r["display"]), r["equal"], format_mean_sd(r["mean"], r["stddev"], r),
                      format_time(r["user"]), format_time(r["system"]), format_rate(r["bytes"], r["mean"]),
                      r.get("stats", "–")])
    with open(os.path.join(b.out, "read_size.dat"), "w") as f:
        f.write("\n".join(dat) + "\n")
    harness.gnuplot(os.path.join(common.REPO, "bench", "plots", "read_size.gp"), b.out,
                    title=f"fastwc -l by read size, {harness.human_bytes(size)} English text, warm cache",
                    gnu_rate=size / gnu["mean"] / 1e9 if gnu["mean"] else 0)
    text = [
        "## Study A: read size", "",
        f"Script: `bench/studies/read_size.py` (run by `bench/run`). LC_ALL=C.UTF-8, warm cache, "
        f"{harness.human_bytes(size)} `english.txt`. User and system are hyperfine's mean CPU times per run "
        f"(all threads). The last column is fastwc's own `--stats` summary of one run (path, buffers x size, "
        f"whether the pool was registered with io_uring, counting threads, kernel). GNU wc -l: "
        f"{format_mean_sd(gnu['mean'], gnu['stddev'], gnu)} ({format_rate(size, gnu['mean'])} GB/s).", "",
        md_table(["Read size", "Backend", "Command", "= GNU wc?", "Wall (mean ± σ)", "User", "System", "GB/s",
                  "fastwc --stats"], table, ["r", "l", "l", "c", "r", "r", "r", "r", "l"]),
        "",
    ]
    if skipped:
        text += [f"Skipped read sizes (the file holds fewer than 8 reads): {', '.join(skipped)}.", ""]
    text += ["![throughput by read size](read_size.png)", ""]
    return "\n".join(text)


if __name__ == "__main__":
    common.standalone(sys.modules[__name__])
