#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What --progress costs: fastwc with and without it, stderr on a terminal.

Usage: bench/progress_cost.py [--fastwc PATH] [--size 256M] [--runs 11]

--progress draws only where stderr is a terminal, so both variants run with
stderr on a pseudo-terminal (drained by this script) and stdout on
/dev/null; the runs alternate (off, on, off, on, ...) so that a change in
the machine's load hits both alike. Wall time and the process's CPU time
(user + system, from wait4) are reported; on a shared machine the CPU time
is the steadier of the two. The corpora are bench/run's English and
multilingual files (bench/lib/corpus.py, same seeds), written under
bench/corpus/progress/. One case takes more than a second, so that the
meter is drawn and redrawn ten times a second; the others end before it
appears and measure its thread and the counted reads alone. Without
--progress the reads go to the same system calls as before the option
existed, so "off" is fastwc's plain cost. Prints a Markdown table.
"""
import argparse
import os
import platform
import pty
import random
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
import corpus  # noqa: E402


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def ensure_files(root, size):
    english = os.path.join(root, "english.txt")
    multilingual = os.path.join(root, "multilingual.txt")
    if not (os.path.exists(english) and os.path.getsize(english) == size):
        os.makedirs(root, exist_ok=True)
        pool = corpus._pool(corpus._english_line, random.Random(corpus.SEED), 50000)
        corpus._write_lines(english, size, pool, random.Random(corpus.SEED + 1))
    if not (os.path.exists(multilingual) and os.path.getsize(multilingual) == size):
        pool = corpus._pool(corpus._multilingual_line, random.Random(corpus.SEED + 2), 50000)
        corpus._write_lines(multilingual, size, pool, random.Random(corpus.SEED + 3))
    return english, multilingual


def drain(master):
    while True:
        try:
            if not os.read(master, 65536):
                return
        except OSError:
            return


def timed_run(command, env):
    """(wall seconds, user + system CPU seconds) of one run."""
    master, slave = pty.openpty()
    reader = threading.Thread(target=drain, args=(master,))
    reader.start()
    started = time.perf_counter()
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=null, stderr=slave, env=env)
        _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    os.close(slave)
    reader.join()
    os.close(master)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit status {process.returncode}")
    return elapsed, usage.ru_utime + usage.ru_stime


def idle_meter_cpu(fastwc, seconds=5):
    """CPU time of fastwc counting a pipe that stays empty for `seconds`, with
    and without --progress: the meter thread's own cost (it redraws ten times
    a second from the first second on), free of the machine's load."""
    results = []
    for options in ([], ["--progress"]):
        feeder = subprocess.Popen(["sleep", str(seconds)], stdout=subprocess.PIPE)
        master, slave = pty.openpty()
        shown = []
        reader = threading.Thread(target=lambda: shown.append(drain_all(master)))
        reader.start()
        process = subprocess.Popen([fastwc] + options, stdin=feeder.stdout, stdout=subprocess.DEVNULL,
                                   stderr=slave)
        feeder.stdout.close()
        _pid, _status, usage = os.wait4(process.pid, 0)
        os.close(slave)
        reader.join()
        os.close(master)
        feeder.wait()
        results.append((usage.ru_utime + usage.ru_stime, shown[0].count(b"\r")))
    return results


def drain_all(master):
    data = []
    while True:
        try:
            piece = os.read(master, 65536)
        except OSError:
            break
        if not piece:
            break
        data.append(piece)
    return b"".join(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fastwc", default=os.path.join(HERE, "..", "build", "src", "fastwc"))
    parser.add_argument("--size", default="256M")
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    english, multilingual = ensure_files(os.path.join(HERE, "corpus", "progress"), parse_size(args.size))
    cases = [
        ("C", ["-l"], english, args.runs),
        ("C", [], english, args.runs),
        ("C.UTF-8", ["-w"], multilingual, args.runs),
        ("C.UTF-8", ["--jobs=1", "-mwL"], multilingual, max(5, args.runs // 2)),
    ]
    with open("/proc/cpuinfo") as f:
        cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    print(f"CPU: {cpu}, {os.cpu_count()} CPUs; Linux {platform.release()}; "
          f"load average before: {os.getloadavg()[0]:.2f}; {args.size} files, warm page cache\n")
    print("| command | runs | wall, off: median (min) | wall, --progress: median (min) | wall on / off, medians "
          "| CPU, off: median | CPU, --progress: median | CPU on / off, medians |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for locale, options, path, runs in cases:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "FASTWC_")) and k != "LANG"}
        env["LC_ALL"] = locale
        off_command = [args.fastwc] + options + [path]
        on_command = [args.fastwc, "--progress"] + options + [path]
        timed_run(off_command, env)  # warm the page cache
        off, on = [], []
        for _ in range(runs):
            off.append(timed_run(off_command, env))
            on.append(timed_run(on_command, env))
        shown = " ".join(["LC_ALL=" + locale, "fastwc"] + options + [os.path.basename(path)])
        off_wall, off_cpu = [w for w, _ in off], [c for _, c in off]
        on_wall, on_cpu = [w for w, _ in on], [c for _, c in on]
        print(f"| `{shown}` | {runs} | {statistics.median(off_wall) * 1e3:.1f} ms ({min(off_wall) * 1e3:.1f}) | "
              f"{statistics.median(on_wall) * 1e3:.1f} ms ({min(on_wall) * 1e3:.1f}) | "
              f"{statistics.median(on_wall) / statistics.median(off_wall):.3f} | "
              f"{statistics.median(off_cpu) * 1e3:.1f} ms | {statistics.median(on_cpu) * 1e3:.1f} ms | "
              f"{statistics.median(on_cpu) / statistics.median(off_cpu):.3f} |")
    (off_cpu, _), (on_cpu, carriage_returns) = idle_meter_cpu(args.fastwc)
    print(f"\nThe meter alone (`sleep 5 | fastwc`, stderr on a terminal): {off_cpu * 1e3:.2f} ms of CPU without "
          f"--progress, {on_cpu * 1e3:.2f} ms with it ({carriage_returns} carriage returns drawn), "
          f"{(on_cpu - off_cpu) / 5 * 100:.3f}% of one CPU.")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
