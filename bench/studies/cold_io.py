#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Study E: cold cache. The pread threads against the reader thread with io_uring, on this machine's disk.

A file of --cold-size bytes (1 GiB by default; english.txt repeated) is read with the page cache dropped before
every run (`sync; echo 3 > /proc/sys/vm/drop_caches`, so it needs root):
  fastwc -l and -w with their defaults (pread threads: every thread preads and counts its own chunks; the
  kernel's readahead runs ahead of each thread's reads), and with `--io=uring` (one reader thread keeping
  several reads in flight, the counting threads fed from it);
  the floors: `cat`, `dd bs=1M`, the bare read loop (one thread, 1 MiB read()), the same loop with io_uring
  and 4 reads in flight, and with O_DIRECT (no page cache, 4 x 1 MiB in flight, registered buffers); and fio's
  sequential read where fio is installed.
If the reader thread, which keeps the device busier than one pread per thread could, is not faster here than
the pread threads, handing a cold file over to it (a worker whose preadv2(RWF_NOWAIT) comes back EAGAIN or
short) cannot win either: the hand-over would add a probe to every read and end on the reader thread's speed.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import harness  # noqa: E402
from harness import code, format_mean_sd, format_rate, format_time, md_table  # noqa: E402

NAME = "cold_io"
TITLE = "cold cache: pread threads against the io_uring reader thread"
COLD_SIZE = 1 << 30


def cold_file(b, size):
    src = b.corpus["english"]
    path = os.path.join(os.path.dirname(src), f"cold-{harness.format_size(size)}.txt")
    if os.path.exists(path) and os.path.getsize(path) == size:
        return path
    with open(src, "rb") as f:
        block = f.read()
    with open(path + ".tmp", "wb") as g:
        left = size
        while left > 0:
            g.write(block[:left])
            left -= min(left, len(block))
    os.replace(path + ".tmp", path)
    return path


def run(b, size=None):
    size = size or int(os.environ.get("BENCH_COLD_SIZE", COLD_SIZE))
    if not b.cold_ok:
        return "## Study E: cold cache\n\nSkipped: /proc/sys/vm/drop_caches is not writable (run as root).\n"
    group = "study-cold"
    path = cold_file(b, size)
    gnu = b.tool("GNU wc")
    rows = []

    def row(r, what):
        rows.append([what, code(r["display"]), r["equal"], format_mean_sd(r["mean"], r["stddev"], r),
                     format_time(r["user"]), format_time(r["system"]), format_rate(size, r["mean"])])
        return r

    results = {}
    for label, flags in (("-l", ["-l"]), ("-w", ["-w"])):
        scenario = (f"cold-{harness.format_size(size)}", label, "file", "C.UTF-8")
        b.reference_only(gnu.name, gnu.argv + flags + [path], scenario)
        for io, what in (("auto", "pread threads (default)"), ("uring", "reader thread, io_uring")):
            argv = [b.fastwc] + ([f"--io={io}"] if io != "auto" else []) + flags + [path]
            stats = common.stats_summary(b.fastwc_stats(argv[1:]))
            r = b.measure(group=group, tool="fastwc", command=argv, scenario=scenario, bytes_=size, cold=True,
                          extra={"study": "cold", "io": io, "stats": stats})
            results[(label, io)] = row(r, f"fastwc {label}, {what}")
    floors = [("cat", "cat " + path + " >/dev/null", True),
              ("dd bs=1M", ["dd", "if=" + path, "of=/dev/null", "bs=1M", "status=none"], False),
              ("read loop, 1 MiB read()", [b.read_loop, "--size=1M", path], False),
              ("read loop, io_uring, 4 x 1 MiB in flight", [b.read_loop, "--uring", "--depth=4", "--size=1M", path],
               False),
              ("read loop, O_DIRECT, io_uring, 4 x 1 MiB, registered",
               [b.read_loop, "--direct", "--uring", "--depth=4", "--fixed", "--size=1M", path], False)]
    if shutil.which("fio"):
        floors.append(("fio, sequential 1 MiB psync", ["fio", "--name=seq", "--rw=read", "--bs=1M",
                                                          "--ioengine=psync", "--readonly", "--filename=" + path,
                                                          "--output=/dev/null"], False))
    best = None
    for name, command, shell in floors:
        r = b.measure(group=group, tool=name.split(",")[0], command=command, shell=shell, bytes_=size, cold=True,
                      compare=False, scenario=(f"cold-{harness.format_size(size)}", name, "file", "C.UTF-8"),
                      extra={"study": "cold", "floor": name})
        row(r, name)
        if r["mean"] and name in ("cat", "dd bs=1M") + (("fio, sequential 1 MiB psync",) if shutil.which("fio")
                                                        else ()):
            best = r if best is None or r["mean"] < best["mean"] else best
    lines = ["## Study E: cold cache, pread threads against the io_uring reader thread", "",
             f"Script: `bench/studies/cold_io.py`. {harness.human_bytes(size)} file (`english.txt` repeated), "
             f"LC_ALL=C.UTF-8, page cache dropped before every run, {os.cpu_count()} CPUs, {harness.cpu_model()}, "
             f"1-minute load {harness.load_average():.2f} at the end. fio: "
             f"{'installed' if shutil.which('fio') else 'not installed (cat and dd are the floors)'}.", "",
             md_table(["What", "Command", "= GNU wc?", "Wall (mean ± σ)", "User", "System", "GB/s"], rows,
                      ["l", "l", "c", "r", "r", "r", "r"]), ""]
    verdicts = []
    for label in ("-l", "-w"):
        p, u = results[(label, "auto")], results[(label, "uring")]
        if p["mean"] and u["mean"]:
            verdicts.append(f"`fastwc {label}`: io_uring reader thread / pread threads time = "
                            f"{u['mean'] / p['mean']:.2f}" +
                            (f"; pread threads vs the best of cat and dd: {best['mean'] / p['mean']:.2f}x"
                             if best else ""))
    lines += ["* " + v for v in verdicts] + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    common.standalone(sys.modules[__name__])
