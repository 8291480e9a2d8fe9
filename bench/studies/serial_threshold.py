#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Study D: the serial threshold. Where counting on the calling thread alone stops paying, for the pread threads.

fastwc counts a regular file with fewer than `serial_threshold` bytes on the calling thread (one 256 KiB
buffer, no thread started) and a larger one with the pread threads (every thread reads and counts its own
chunks); a stream is counted serially for its first `serial_threshold` bytes, then by the reader thread.
FASTWC_SERIAL_THRESHOLD moves that line. For prefixes of english.txt (and multilingual.txt) of 16 KiB to
16 MiB, each count runs three ways, one right after the other:
  serial        FASTWC_SERIAL_THRESHOLD=2^60: the calling thread alone, whatever the size;
  after 256K    FASTWC_SERIAL_THRESHOLD=262145: the first 256 KiB read serially, then fstat and the pread
                threads for the rest (what any threshold above 256 KiB does to a file above it);
  threads       FASTWC_SERIAL_THRESHOLD=0: the pread threads from the first byte.
and `cat FILE | fastwc` the same three ways on the largest prefixes (where a stream goes past the
threshold the reader thread takes over). The crossover is the smallest size at which the threads win for
every count.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import harness  # noqa: E402
from harness import code, format_mean_sd, md_table  # noqa: E402

NAME = "serial_threshold"
TITLE = "serial threshold"
SIZES = [16 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20]
SETTINGS = [("serial", str(1 << 60)), ("after 256K", str((256 << 10) + 1)), ("threads", "0")]
MODES = [("-l", ["-l"], {}), ("-w", ["-w"], {}), ("default", [], {}), ("-m", ["-m"], {}), ("-L", ["-L"], {}),
         ("-w 9.10", ["-w"], {"FASTWC_COMPAT": "9.10"})]
PIPE_SIZES = [1 << 20, 16 << 20]
PIPE_MODES = [("-l", ["-l"]), ("-w", ["-w"])]


def prefix_file(b, corpus_name, size):
    """The first `size` bytes of a corpus file, cut at a newline boundary's byte count (exactly size bytes)."""
    src = b.corpus[corpus_name]
    size = min(size, os.path.getsize(src))
    path = os.path.join(os.path.dirname(src), "threshold", f"{corpus_name}-{harness.format_size(size)}.txt")
    if not os.path.exists(path) or os.path.getsize(path) != size:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(src, "rb") as f, open(path + ".tmp", "wb") as g:
            g.write(f.read(size))
        os.replace(path + ".tmp", path)
    return path, size


def run(b):
    group = "study-threshold"
    gnu = b.tool("GNU wc")
    gnu910 = b.gnu_910
    sections = ["## Study D: the serial threshold", "",
                f"Script: `bench/studies/serial_threshold.py`. LC_ALL=C.UTF-8, warm cache, prefixes of the corpus "
                f"files, {os.cpu_count()} CPUs, {harness.cpu_model()}, 1-minute load "
                f"{harness.load_average():.2f} at the start. Each cell is hyperfine's mean; the three settings of "
                "a count and size ran one right after the other. The ratio is serial time / threads time "
                "(above 1: the threads win).", ""]
    table = []
    crossover = {}
    for corpus_name in ("english", "multilingual"):
        for size in SIZES:
            path, size = prefix_file(b, corpus_name, size)
            for label, flags, env in MODES:
                scenario = (f"{corpus_name}-{harness.format_size(size)}", label, "file", "C.UTF-8")
                ref_tool = gnu910 if env.get("FASTWC_COMPAT") == "9.10" else gnu
                if ref_tool:
                    b.reference_only(ref_tool.name, ref_tool.argv + flags + [path], scenario)
                times = {}
                cells = []
                for name, value in SETTINGS:
                    r = b.measure(group=group, tool="fastwc", command=[b.fastwc] + flags + [path], scenario=scenario,
                                  bytes_=size, compare=scenario in b.reference, max_runs=300, target=0.5,
                                  env_extra={**env, "FASTWC_SERIAL_THRESHOLD": value},
                                  extra={"study": "threshold", "setting": name, "size": size, "corpus": corpus_name,
                                         "mode": label, "input": "file"})
                    times[name] = r["mean"]
                    cells.append(format_mean_sd(r["mean"], r["stddev"], r) + ("" if r["equal"] in ("yes", "n/a")
                                                                              else f" ({r['equal']})"))
                ratio = times["serial"] / times["threads"] if times["serial"] and times["threads"] else None
                ratio_256 = times["serial"] / times["after 256K"] if times["serial"] and times["after 256K"] else None
                if ratio and ratio > 1 and (corpus_name, label) not in crossover:
                    crossover[(corpus_name, label)] = size
                elif ratio and ratio <= 1:
                    crossover.pop((corpus_name, label), None)
                table.append([corpus_name, harness.human_bytes(size), label, *cells,
                              f"{ratio_256:.2f}" if ratio_256 else "–", f"{ratio:.2f}" if ratio else "–"])
    sections += [md_table(["Corpus", "Size", "Count", "serial", "after 256K", "threads", "serial / after 256K",
                           "serial / threads"], table, ["l", "r", "l", "r", "r", "r", "r", "r"]), ""]
    pipe_rows = []
    for size in PIPE_SIZES + [os.path.getsize(b.corpus["english"])]:
        path, size = prefix_file(b, "english", size)
        for label, flags in PIPE_MODES:
            scenario = (f"english-{harness.format_size(size)}", label, "pipe", "C.UTF-8")
            b.reference_only(gnu.name, "cat " + path + " | " + " ".join(gnu.argv + flags), scenario, shell=True)
            cells = []
            for name, value in SETTINGS:
                r = b.measure(group=group, tool="fastwc", command="cat " + path + " | " + " ".join([b.fastwc] + flags),
                              shell=True, scenario=scenario, bytes_=size, max_runs=100, target=0.5,
                              env_extra={"FASTWC_SERIAL_THRESHOLD": value},
                              extra={"study": "threshold", "setting": name, "size": size, "corpus": "english",
                                     "mode": label, "input": "pipe"})
                cells.append(r["mean"])
            pipe_rows.append(["english", harness.human_bytes(size), label,
                              *[format_mean_sd(t, 0) if t else "–" for t in cells],
                              f"{cells[0] / cells[2]:.2f}" if cells[0] and cells[2] else "–"])
    sections += ["Through a pipe (`cat FILE | fastwc`): past the threshold the reader thread (read(2)) takes over.",
                 "", md_table(["Corpus", "Size", "Count", "serial", "after 256K", "threads", "serial / threads"],
                              pipe_rows, ["l", "r", "l", "r", "r", "r", "r"]), ""]
    summary = ", ".join(f"{c} {m}: {harness.human_bytes(s)}" for (c, m), s in sorted(crossover.items()))
    sections += [f"Smallest size from which the threads win at every larger size measured: {summary or 'none'}.", ""]
    b.rows.append({"group": group, "tool": "summary", "scenario": [], "equal": "n/a", "mean": None,
                   "crossover": {f"{c} {m}": s for (c, m), s in crossover.items()}})
    return "\n".join(sections)


if __name__ == "__main__":
    common.standalone(sys.modules[__name__])
