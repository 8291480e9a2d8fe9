# SPDX-License-Identifier: GPL-3.0-or-later
"""Start-up cost, interleaved: commands on a tiny file, run round-robin, so that the slow drifts of a shared machine
hit all of them alike (two hyperfine runs of 300 each, one after the other, drift apart by more than the few per
cent that separate fastwc's start-up from GNU wc's). Used by bench/startup_ab.py and bench/run's start-up goals."""
import os
import statistics
import time


def interleaved(commands, path, runs, env=None):
    """Runs every command (an argv list, its first element a path) on `path`, once per round for `runs` rounds
    (posix_spawn, stdout to /dev/null). Returns, per command, the medians of wall time and CPU time (user + system,
    from wait4) in microseconds and of minor page faults."""
    env = env if env is not None else {"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    devnull = os.open("/dev/null", os.O_WRONLY)
    wall = [[] for _ in commands]
    cpu = [[] for _ in commands]
    faults = [[] for _ in commands]
    try:
        for _ in range(runs):
            for j, c in enumerate(commands):
                t = time.perf_counter_ns()
                pid = os.posix_spawn(c[0], c + [path], env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
                _, _, ru = os.wait4(pid, 0)
                wall[j].append((time.perf_counter_ns() - t) / 1e3)
                cpu[j].append((ru.ru_utime + ru.ru_stime) * 1e6)
                faults[j].append(ru.ru_minflt)
    finally:
        os.close(devnull)
    return [{"wall_us": statistics.median(wall[j]), "cpu_us": statistics.median(cpu[j]),
             "faults": statistics.median(faults[j]), "runs": runs} for j in range(len(commands))]
