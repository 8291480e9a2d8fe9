#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Study B: stage ablation. Read only, count only (from memory), read+count on one thread, the full program.

For each mode (LC_ALL=C.UTF-8, warm cache):
  read only      bench/pipeline/read_loop at fastwc's read size: read(2), and io_uring with 4 reads in
                 flight (registered buffers when fastwc registers them), nothing counted;
  count only     bench/micro/bench_kernels: the active kernel over an in-memory buffer of one read size
                 (hot in cache, as a chunk is right after its read), one thread, its own generated corpus
                 of the same kind (English ASCII, multilingual UTF-8); time = file size / its GB/s;
  read+count     fastwc --jobs=1 (one counting thread; the reader thread still overlaps the reads);
  full program   fastwc with its defaults (as many counting threads as CPUs).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import harness  # noqa: E402
from harness import code, format_mean_sd, format_rate, format_time, md_table  # noqa: E402

NAME = "ablation"
TITLE = "stage ablation"


def cases(b):
    version = b.tool("GNU wc").version.split()[-1]
    rule = "9.5" if tuple(int(x) for x in version.split(".")[:2]) >= (9, 5) else "9.1"
    return [
        ("english", "-l", ["-l"], "-l (any locale)", "English"),
        ("english", "-w", ["-w"], f"-w UTF-8 {rule}", "English"),
        ("english", "default", [], f"-lwc UTF-8 {rule}", "English"),
        ("multilingual", "-w", ["-w"], f"-w UTF-8 {rule}", "multilingual"),
        ("multilingual", "-m", ["-m"], "-m UTF-8", "multilingual"),
    ]


def kernel_gbps(b, mode, corpus_name, chunk):
    """(GB/s, ok) of the active kernel from bench_kernels, or (None, why)."""
    if not b.bench_kernels:
        return None, "bench_kernels not built (meson configure -Dbench=true)"
    argv = [b.bench_kernels, "--quick", "--no-reference", f"--kernel={b.kernel}", f"--mode={mode}",
            f"--corpus={corpus_name}", f"--size={max(1, chunk >> 10)}"]
    proc = subprocess.run(argv, capture_output=True, text=True, env=harness.clean_env("C.UTF-8"))
    for line in proc.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 8 and cells[0] == mode and cells[1].startswith(corpus_name):
            try:
                return float(cells[3]), cells[-1]
            except ValueError:
                break
    return None, f"no row in bench_kernels output (exit {proc.returncode})"


def run(b):
    group = "study-ablation"
    chunk = common.default_read_size(b)
    size = os.path.getsize(b.corpus["english"])
    registered = re.search(r"(?<!un)registered", common.stats_summary(b.fastwc_stats([b.corpus["english"]])))
    loops = {}
    for name in ("english", "multilingual"):
        path = b.corpus[name]
        read = b.measure(group=group, tool="read loop", command=[b.read_loop, f"--size={chunk}", path],
                         scenario=(name, "read only", "file", "C.UTF-8"), bytes_=size, compare=False,
                         extra={"stage": "read only"})
        uring_argv = [b.read_loop, "--uring", "--depth=4", f"--size={chunk}"] + (["--fixed"] if registered else [])
        uring = b.measure(group=group, tool="read loop", command=uring_argv + [path],
                          scenario=(name, "read only uring", "file", "C.UTF-8"), bytes_=size, compare=False,
                          extra={"stage": "read only"})
        loops[name] = (read, uring)
    sections = [
        "## Study B: stage ablation", "",
        f"Script: `bench/studies/ablation.py`. LC_ALL=C.UTF-8, warm cache, {harness.human_bytes(size)} files, "
        f"fastwc's read size here {harness.human_bytes(chunk)}, kernel `{b.kernel}`. \"count only\" is "
        f"`bench_kernels` (bench/micro) on an in-memory {harness.human_bytes(chunk)} buffer of its own corpus of "
        "the same kind, one thread, best of repeated runs, scaled to the file size (its \"ok\" column: the "
        "kernel's counts equal the reference engine's). \"no overlap\" adds read only (read()) and count only: "
        "what a single thread doing one after the other would take.", "",
    ]
    dat = []
    for corpus_name, label, flags, kmode, kcorpus in cases(b):
        path = b.corpus[corpus_name]
        scenario = (corpus_name, label, "file", "C.UTF-8")
        gnu = b.gnu_row(group, scenario, flags, path, size)
        gbps, ok = kernel_gbps(b, kmode, kcorpus, chunk)
        one = b.measure(group=group, tool="fastwc", command=[b.fastwc, "--jobs=1"] + flags + [path],
                        scenario=scenario, bytes_=size, extra={"stage": "read+count, 1 thread"})
        full = b.measure(group=group, tool="fastwc", command=[b.fastwc] + flags + [path], scenario=scenario,
                         bytes_=size, extra={"stage": "full program"})
        read, uring = loops[corpus_name]
        count_s = size / (gbps * 1e9) if gbps else None
        kcmd = (f"bench_kernels --quick --no-reference --kernel={b.kernel} --mode='{kmode}' "
                f"--corpus={kcorpus} --size={chunk >> 10}")
        rows = [
            ["read only, read()", code(read["display"]), "n/a", format_mean_sd(read["mean"], read["stddev"], read),
             format_rate(size, read["mean"])],
            ["read only, io_uring", code(uring["display"]), "n/a", format_mean_sd(uring["mean"], uring["stddev"], uring),
             format_rate(size, uring["mean"])],
            ["count only, 1 thread, memory", code(kcmd), f"kernel {ok}" if gbps else ok,
             format_time(count_s) if count_s else "–", f"{gbps:.2f}" if gbps else "–"],
            ["no overlap (read() + count)", "–", "–",
             format_time(read["mean"] + count_s) if count_s and read["mean"] else "–",
             format_rate(size, read["mean"] + count_s) if count_s and read["mean"] else "–"],
            ["read+count, 1 counting thread", code(one["display"]), one["equal"],
             format_mean_sd(one["mean"], one["stddev"], one), format_rate(size, one["mean"])],
            ["full program", code(full["display"]), full["equal"], format_mean_sd(full["mean"], full["stddev"], full),
             format_rate(size, full["mean"])],
            ["GNU wc", code(gnu["display"]), "reference", format_mean_sd(gnu["mean"], gnu["stddev"], gnu),
             format_rate(size, gnu["mean"])],
        ]
        title = "wc" if label == "default" else f"wc {label}"
        sections += [f"**`{title}` on `{os.path.basename(path)}`**", "",
                     md_table(["Stage", "Command", "= GNU wc?", "Time", "GB/s"], rows, ["l", "l", "c", "r", "r"]),
                     ""]
        dat.append({"mode": label, "corpus": corpus_name, "count_only_gbps": gbps, "count_only_cmd": kcmd})
    b.rows.append({"group": group, "tool": "bench_kernels", "scenario": [], "kernel_results": dat,
                   "equal": "n/a", "mean": None})
    return "\n".join(sections)


if __name__ == "__main__":
    common.standalone(sys.modules[__name__])
