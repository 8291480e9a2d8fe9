#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Study C: thread scaling (--jobs=1..N) and I/O backends (io_uring, read(), registered buffers or not).

Threads: `fastwc --jobs=N MODE english.txt` for N = 1..CPUs (powers of two beyond 8) and twice the CPUs,
modes -l, -w and the default, LC_ALL=C.UTF-8, warm cache. Writes threads.dat and threads.png.
Backends: fastwc --io=auto, --io=uring (also with FASTWC_URING_ASYNC=1, IOSQE_ASYNC), --io=read and
--io=pread (every thread reads and counts its own chunks; auto's choice for -l), for -l, the default
counts and -L: which counts the pread threads would also speed up.
fastwc has no switch for buffer registration (it registers its pool when the input is at least 8 times
the pool, and --stats says whether it did), so registered against unregistered buffers is measured on
the bare loops next to it: read(), io_uring with unregistered buffers, io_uring with registered ones.
Beyond one copy, the ways fastwc does not read, on the bare loop: the file mapped (mmap, no copy; its
newlines counted on 1 and on every CPU), and, cold, O_DIRECT reads (no page cache) against the buffered
loop.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import harness  # noqa: E402
from harness import code, format_mean_sd, format_rate, format_time, md_table, speedup  # noqa: E402

NAME = "scaling"
TITLE = "threads and I/O backends"
MODES = [("-l", ["-l"]), ("-w", ["-w"]), ("default", [])]


def job_counts():
    cpus = os.cpu_count() or 1
    counts = list(range(1, cpus + 1)) if cpus <= 8 else sorted({1 << i for i in range(cpus.bit_length())} | {cpus})
    return counts + [min(2 * cpus, 256)]


def run(b):
    group = "study-scaling"
    path = b.corpus["english"]
    size = os.path.getsize(path)
    jobs = job_counts()
    sections = ["## Study C: threads and I/O backends", "",
                f"Script: `bench/studies/scaling.py`. LC_ALL=C.UTF-8, warm cache, {harness.human_bytes(size)} "
                f"`english.txt`, {os.cpu_count()} CPUs. Speed-up is against `--jobs=1`.", ""]
    table = []
    rates = {}
    gnu = {}
    for label, flags in MODES:
        scenario = ("english", label, "file", "C.UTF-8")
        gnu[label] = b.gnu_row(group, scenario, flags, path, size)
        first = None
        for n in jobs:
            args = [f"--jobs={n}"] + flags + [path]
            stats = common.stats_summary(b.fastwc_stats(args))
            r = b.measure(group=group, tool="fastwc", command=[b.fastwc] + args, scenario=scenario, bytes_=size,
                          extra={"jobs": n, "study": "threads", "stats": stats})
            first = first or r
            rates[(label, n)] = size / r["mean"] / 1e9 if r["mean"] else float("nan")
            table.append([label if label != "default" else "default (-lwc)", n, code(r["display"]), r["equal"],
                          format_mean_sd(r["mean"], r["stddev"], r), format_time(r["user"]), format_time(r["system"]),
                          format_rate(size, r["mean"]), speedup(first, r), speedup(gnu[label], r), stats])
    sections += ["### Threads", "",
                 md_table(["Mode", "--jobs", "Command", "= GNU wc?", "Wall (mean ± σ)", "User", "System", "GB/s",
                           "vs --jobs=1", "vs GNU wc", "fastwc --stats"], table,
                          ["l", "r", "l", "c", "r", "r", "r", "r", "r", "r", "l"]),
                 "", "![throughput by thread count](threads.png)", ""]
    loop = next((r for r in b.find(tool="read loop", corpus="english", cache="warm") if r.get("mean")), None)
    if loop is None:
        loop = b.measure(group=group, tool="read loop", command=[b.read_loop, "--size=1M", path],
                         scenario=("english", "read 1 MiB", "file", "C.UTF-8"), bytes_=size, compare=False)
    dat = ["jobs " + " ".join(f'"fastwc {m}"' for m, _ in MODES)]
    for n in jobs:
        dat.append(f"{n} " + " ".join(f"{rates[(m, n)]:.4f}" for m, _ in MODES))
    with open(os.path.join(b.out, "threads.dat"), "w") as f:
        f.write("\n".join(dat) + "\n")
    harness.gnuplot(os.path.join(common.REPO, "bench", "plots", "threads.gp"), b.out,
                    title=f"fastwc by thread count, {harness.human_bytes(size)} English text, warm cache, "
                          f"{os.cpu_count()} CPUs",
                    gnu_rate=size / gnu["default"]["mean"] / 1e9 if gnu["default"]["mean"] else 0,
                    loop_rate=size / loop["mean"] / 1e9 if loop["mean"] else 0, ncols=len(MODES))

    # Backends.
    chunk = common.default_read_size(b)
    rows = []
    for label, flags in [("-l", ["-l"]), ("default", []), ("-L", ["-L"])]:
        scenario = ("english", label, "file", "C.UTF-8")
        for backend, env in (("auto", {}), ("uring", {}), ("uring", {"FASTWC_URING_ASYNC": "1"}), ("read", {}),
                             ("pread", {})):
            args = [f"--io={backend}"] + flags + [path]
            stats = common.stats_summary(b.fastwc_stats(args, env_extra=env))
            r = b.measure(group=group, tool="fastwc", command=[b.fastwc] + args, scenario=scenario, bytes_=size,
                          extra={"study": "backends", "backend": backend, "stats": stats}, env_extra=env)
            rows.append([code(r["display"]), r["equal"], format_mean_sd(r["mean"], r["stddev"], r),
                         format_time(r["user"]), format_time(r["system"]), format_rate(size, r["mean"]), stats])
    size_arg = f"--size={chunk}"
    bare_loops = [("read()", [size_arg]), ("io_uring, unregistered", ["--uring", "--depth=4", size_arg]),
                  ("io_uring, registered", ["--uring", "--depth=4", "--fixed", size_arg])]
    for threads in sorted({1, os.cpu_count() or 1}):
        bare_loops.append((f"mmap, newlines counted on {threads} thread{'s' if threads > 1 else ''}",
                           ["--mmap", f"--threads={threads}"]))
    for name, extra in bare_loops:
        r = b.measure(group=group, tool="read loop", command=[b.read_loop, *extra, path],
                      scenario=("english", "loop " + name, "file", "C.UTF-8"), bytes_=size, compare=False,
                      extra={"study": "backends", "backend": name})
        rows.append([code(r["display"]), "n/a", format_mean_sd(r["mean"], r["stddev"], r), format_time(r["user"]),
                     format_time(r["system"]), format_rate(size, r["mean"]), f"bare loop, {name}"])
    cold_rows = []
    if b.cold_ok:
        for name, extra in [("read(), buffered", []), ("read(), O_DIRECT", ["--direct"]),
                            ("io_uring, 4 in flight, O_DIRECT, registered",
                             ["--direct", "--uring", "--depth=4", "--fixed"])]:
            r = b.measure(group=group, tool="read loop", command=[b.read_loop, *extra, size_arg, path],
                          scenario=("english", "cold loop " + name, "file", "C.UTF-8"), bytes_=size,
                          compare=False, cold=True, extra={"study": "backends", "backend": name})
            cold_rows.append([code(r["display"]), format_mean_sd(r["mean"], r["stddev"], r),
                              format_time(r["user"]), format_time(r["system"]), format_rate(size, r["mean"]),
                              f"bare loop, cold cache, {name}"])
    sections += ["### I/O backends", "",
                 "fastwc has no option or variable for io_uring buffer registration (it registers its pool when "
                 "the input is at least 8 times the pool; the `--stats` column shows what it did), so registered "
                 "against unregistered buffers is measured with the bare loop "
                 f"(`read_loop --uring [--fixed]`, 4 reads of {harness.human_bytes(chunk)} in flight).", "",
                 md_table(["Command", "= GNU wc?", "Wall (mean ± σ)", "User", "System", "GB/s", "How it read"],
                          rows, ["l", "c", "r", "r", "r", "r", "l"]), "",
                 "The mmap rows map the file and count its newlines (AVX2 where there is AVX2): no copy at all, "
                 "compare them with `fastwc --io=auto -l` (pread threads, one copy on every CPU). fastwc does not "
                 "map files: a file truncated while mapped kills the reader with SIGBUS.", ""]
    if cold_rows:
        sections += ["Cold cache (the page cache dropped before every run): buffered reads, whose readahead "
                     "keeps the device busy, against O_DIRECT reads into the loop's own buffers.", "",
                     md_table(["Command", "Wall (mean ± σ)", "User", "System", "GB/s", "How it read"],
                              cold_rows, ["l", "r", "r", "r", "r", "l"]), ""]
    return "\n".join(sections)


if __name__ == "__main__":
    common.standalone(sys.modules[__name__])
