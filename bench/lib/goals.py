# SPDX-License-Identifier: GPL-3.0-or-later
"""The speed goals (every count on every core, in every GNU version's semantics; and the pipeline's
earlier goals that those do not replace), judged from the rows bench/run measured.

Each goal is a ratio between two rows of the same run (never an absolute
figure: these machines are shared and their speed drifts), a target, and a
verdict. A goal that is not met names the resource that stops it, from the
study that shows it; a goal whose rows were not measured (--only, no root
for cold cache) says so instead of guessing.
"""
import os
import re
import subprocess

import harness
from harness import code, md_table

RSS_FILE_BYTES = 4 << 30  # the "4 GiB file"
RSS_LIMIT_KB = 64 * 1024


def _fast(b, group, scenario, cache="warm"):
    """fastwc's row for scenario with its defaults (not a --io=... variant)."""
    rows = [r for r in b.find(group=group, tool="fastwc", scenario=scenario, cache=cache)
            if r.get("mean") and not r.get("variant")]
    return rows[0] if rows else None


def _gnu(b, group, scenario, cache="warm", tool="GNU wc"):
    row = b.one(group=group, tool=tool, scenario=scenario, cache=cache)
    return row if row and row.get("mean") else None


def nearest_loop(rows, row):
    """The bare read loop row measured closest in time to `row` (on the same file, input kind and cache state):
    the one that saw the same machine. bench/run's tables pair rows the same way."""
    kind = "pipe" if row.get("input") == "pipe" else "file"
    index = next(i for i, r in enumerate(rows) if r is row)
    best = None
    for i, r in enumerate(rows):
        if (r["tool"] == "read loop" and r.get("mode") == "read()" and r.get("corpus") == row.get("corpus")
                and r.get("input") == kind and r["cache"] == row["cache"] and r.get("mean")):
            if best is None or abs(i - index) < abs(best[0] - index):
                best = (i, r)
    return best[1] if best else None


def _gbps(row):
    return row["bytes"] / row["mean"] / 1e9


def _show(row):
    if row is None:
        return "–"
    prefix = "" if row["tool"] in ("read loop", "cat", "dd", "fio") else f"LC_ALL={row['locale']} "
    return code(prefix + row["display"]) + f" {harness.format_time(row['mean'])}"


def _goal(name, target, ratio, measured, limit, why_unmeasured=""):
    if ratio is None:
        verdict = "not measured" + (f" ({why_unmeasured})" if why_unmeasured else "")
    else:
        verdict = "met" if ratio >= target else "**not met**"
    return {"goal": name, "target": target, "ratio": ratio, "measured": measured, "verdict": verdict,
            "limit": limit if ratio is not None and ratio < target else ""}


def _vs_gnu(b, name, target, group, scenario, limit, tool="GNU wc", why_unmeasured=""):
    """A goal on GNU wc's time over fastwc's for the same scenario."""
    fast, gnu = _fast(b, group, scenario), _gnu(b, group, scenario, tool=tool)
    return _goal(name, target, gnu["mean"] / fast["mean"] if fast and gnu else None,
                 f"{_show(fast)} vs {_show(gnu)}", limit, why_unmeasured)


def _ratio(num, den):
    """den's time over num's: above 1 when num is faster."""
    return den["mean"] / num["mean"] if num and den else None


RSS_MODES = [("-l", ["-l"]), ("default", []), ("-w", ["-w"]), ("-m", ["-m"]), ("-L", ["-L"]), ("-c", ["-c"])]


def measure_rss(b):
    """Peak RSS of fastwc on a 4 GiB sparse file, every count, under the build's default rules and under
    FASTWC_COMPAT=9.10 (whose read-boundary walk preads on its own): the pool bounds memory whatever the size.
    Returns rows like bench/run's peak_rss()."""
    time_bin = "/usr/bin/time"
    if not os.access(time_bin, os.X_OK):
        return []
    path = os.path.join(os.path.dirname(b.corpus["english"]), "sparse-4G.bin")
    if not os.path.exists(path) or os.path.getsize(path) != RSS_FILE_BYTES:
        with open(path, "wb") as f:
            f.truncate(RSS_FILE_BYTES)
    rows = []
    for compat in (None, "9.10"):
        for label, flags in RSS_MODES:
            argv = [b.fastwc] + flags + [path]
            env = harness.clean_env("C.UTF-8")
            prefix = ""
            if compat:
                env["FASTWC_COMPAT"] = compat
                prefix = f"FASTWC_COMPAT={compat} "
            proc = subprocess.run([time_bin, "-v"] + argv, capture_output=True, text=True, env=env, cwd=b.repo)
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
            rows.append({"tool": "fastwc", "command": f"LC_ALL=C.UTF-8 {prefix}/usr/bin/time -v " + " ".join(argv),
                         "display": prefix + b.display(" ".join(argv)), "corpus": "sparse 4 GiB", "mode": label,
                         "rss_kb": int(m.group(1)) if m else None,
                         "output": proc.stdout.strip(), "returncode": proc.returncode})
    return rows


SHARED_CPUS = ("counting and the page-cache copy share the 2 CPUs: every count's pread threads copy and count "
               "their own chunks on every CPU, so the count's kernel time per byte is what separates it from "
               "-l (Study B's count-only column: the kernel's speed from memory, one thread).")


def evaluate(b, rss_rows):
    goals = []
    # 1. English ASCII, C.UTF-8: default, -w, -m against -l; -L against -l.
    base = _fast(b, "modes", ("english", "-l", "file", "C.UTF-8"))
    for label, target in (("default", 0.75), ("-w", 0.75), ("-m", 0.75), ("-L", 0.5)):
        row = _fast(b, "modes", ("english", label, "file", "C.UTF-8"))
        mode = "wc" if label == "default" else f"wc {label}"
        limit = SHARED_CPUS
        if label == "-L":
            limit += (" -L measures every line's display width: in C.UTF-8 each character's width class comes "
                      "from the decoder, a slower kernel than the word counter.")
        goals.append(_goal(f"`fast{mode}` vs `fastwc -l`, English, LC_ALL=C.UTF-8", target, _ratio(row, base),
                           f"{_show(row)} vs {_show(base)}", limit))
    # 2. The read-boundary rule of GNU 9.5+: every count under 9.10 at the speed of 9.1's, and 10x GNU 9.10.
    why_910 = "no GNU wc 9.10: give --gnu-wc-9.10 PATH or GNU_WC_9_10"
    for corpus_name in ("english", "multilingual"):
        for label in ("default", "-l", "-w", "-m", "-L"):
            old = b.one(group="compat", tool="fastwc", corpus=corpus_name, mode=label, compat="9.1")
            new = b.one(group="compat", tool="fastwc", corpus=corpus_name, mode=label, compat="9.10")
            old = old if old and old.get("mean") else None
            new = new if new and new.get("mean") else None
            mode = "wc" if label == "default" else f"wc {label}"
            if label in ("default", "-w"):
                limit = ("the walk over GNU's read boundaries after the parallel count (a few bytes preaded at "
                         "each 256 KiB boundary, on one thread) and, for files below the serial threshold, GNU's "
                         "own read loop on one thread.")
            else:
                # Only word counts depend on where GNU's reads end (count/gnu_reads.hpp).
                limit = ("none that differs: without words both rules read and count this file the same way "
                         "(the same pread threads and kernel plan, `--stats`), so the two rows differ by the "
                         "run-to-run spread of a shared machine (compare their ± and the other corpus's row).")
            goals.append(_goal(
                f"`FASTWC_COMPAT=9.10 fast{mode}` vs `FASTWC_COMPAT=9.1`, {corpus_name}", 0.95, _ratio(new, old),
                f"{_show(new)} vs {_show(old)}", limit))
    # -l is left out: GNU's -l is a memchr loop near the read loop's speed, so no count of newlines can be 10x it.
    for label in ("default", "-w", "-m", "-L"):
        new = b.one(group="compat", tool="fastwc", corpus="multilingual", mode=label, compat="9.10")
        gnu = b.one(group="compat", tool=harness.GNU_910, corpus="multilingual", mode=label, compat="9.10")
        new = new if new and new.get("mean") else None
        gnu = gnu if gnu and gnu.get("mean") else None
        mode = "wc" if label == "default" else f"wc {label}"
        goals.append(_goal(
            f"`FASTWC_COMPAT=9.10 fast{mode}` vs GNU wc 9.10, multilingual", 10.0, _ratio(new, gnu),
            f"{_show(new)} vs {_show(gnu)}",
            "counting on both CPUs (user time): multilingual text is decoded character by character where "
            "the lead bytes do not classify a block (see the pipeline's multilingual goals below).",
            why_910 if not b.gnu_910 else ""))
    # 3. -l against the bare 1 MiB read() loop; moonshot: the mapped file's newlines on every CPU.
    loop = nearest_loop(b.rows, base) if base else None
    goals.append(_goal(
        "`fastwc -l` vs a bare 1 MiB read() loop on one thread (English, warm)", 1.5, _ratio(base, loop),
        f"{_show(base)} vs {_show(loop)}",
        "system time: the page-cache copy itself, on every CPU (each pread thread copies its own 1 MiB chunks "
        "and counts them while they are in its L2); the copy is bounded by memory bandwidth per core."))
    mapped = next((r for r in b.rows if r["tool"] == "read loop" and r.get("mode") == "mmap" and r.get("mean")
                   and r.get("corpus") == "english"), None)
    goals.append(_goal(
        f"moonshot: `fastwc -l` vs `read_loop --mmap --threads={mapped['threads'] if mapped else 'N'}` "
        "(no copy at all)", 0.95, _ratio(base, mapped), f"{_show(base)} vs {_show(mapped)}",
        "the copy: fastwc reads (one copy from the page cache into an L2-sized buffer per thread) where the "
        "mapped loop reads the page cache in place; fastwc does not map files (a file truncated while mapped "
        "kills the reader with SIGBUS)."))
    # 4. Cold cache against the best of cat, dd and fio (fio where installed).
    best = None
    for r in b.rows:
        if r["group"] == "cold" and r["tool"] in ("cat", "dd", "fio") and r.get("mean"):
            if best is None or r["mean"] < best["mean"]:
                best = r
    have_fio = any(r["tool"] == "fio" for r in b.rows)
    for label in ("-l", "-w"):
        cold = _fast(b, "cold", ("english", label, "file", "C.UTF-8"), cache="cold")
        goals.append(_goal(
            f"`fastwc {label}`, cold cache, vs the best of `cat`, `dd bs=1M`" + (" and fio" if have_fio else
                                                                              " (fio not installed)"),
            0.95, _ratio(cold, best), f"{_show(cold)} vs {_show(best)}",
            "the device's sequential read speed: both wait on the same disk, and the kernel's readahead is "
            "what keeps it busy (see the cold table's user and system time, and the `--io=uring` rows).",
            "" if b.cold_ok else "needs root"))
    # 5. Pipes.
    goals.append(_vs_gnu(
        b, "`cat FILE | fastwc -l` vs `cat FILE | wc -l`", 2.0, "inputs", ("english", "-l", "pipe", "C.UTF-8"),
        "the pipe: `cat`'s writes and the kernel's pipe copies (compare the read loop through the same pipe "
        "in the stdin table)."))
    goals.append(_vs_gnu(
        b, "`cat FILE | fastwc -w` vs `cat FILE | wc -w`, multilingual", 10.0, "inputs",
        ("multilingual", "-w", "pipe", "C.UTF-8"),
        "the pipe: `cat` and the pipe's copies take one CPU, fastwc's counting the other."))
    goals.append(_vs_gnu(
        b, "`cat FILE | FASTWC_COMPAT=9.10 fastwc -w` vs `cat FILE | wc-9.10 -w`, multilingual", 10.0, "inputs",
        ("multilingual", "-w", "pipe", "C.UTF-8", "compat 9.10"),
        "the pipe: a pipe under GNU 9.5+ rules is read as GNU reads it (its read boundaries are the writer's, "
        "and it keeps its 64 KiB), by the reader thread, while `cat`'s writes and the counting share the "
        "2 CPUs.", tool=harness.GNU_910,
        why_unmeasured=why_910 if not b.gnu_910 else ""))
    # 6. Peak RSS on a 4 GiB file.
    worst = max((r for r in rss_rows if r.get("rss_kb") and r.get("corpus") == "sparse 4 GiB"),
                key=lambda r: r["rss_kb"], default=None)
    goals.append(_goal(
        "peak RSS of fastwc on a 4 GiB file at most 64 MiB, any count", 1.0,
        RSS_LIMIT_KB / worst["rss_kb"] if worst else None,
        f"{worst['rss_kb'] / 1024:.1f} MiB, the largest ({code('LC_ALL=C.UTF-8 ' + worst['display'])})"
        if worst else "–", "the buffer pool and the counting threads' stacks."))
    # 7. Start-up: every tiny input within GNU wc's time.
    for label in ("default", "-l", "-w", "-c"):
        mode = "wc" if label == "default" else f"wc {label}"
        name = f"one-line file: `fast{mode}` within GNU wc's wall time"
        limit = ("process start-up: the kernel's exec and page faults of a larger static-C++ binary; see the "
                 "startup table's user and system time.")
        both = b.startup_interleaved.get(label)
        if not both:
            goals.append(_vs_gnu(b, name, 1.0, "startup", ("oneline", label, "file", "C.UTF-8"), limit))
            continue
        # Interleaved medians (bench/lib/startup.py); the hyperfine rows, run one after the other, are shown too.
        fast, gnu = both["fastwc"], both["GNU wc"]
        rows = _fast(b, "startup", ("oneline", label, "file", "C.UTF-8")), \
            _gnu(b, "startup", ("oneline", label, "file", "C.UTF-8"))
        goals.append(_goal(
            name + " (interleaved)", 1.0, gnu["wall_us"] / fast["wall_us"],
            f"median wall over {fast['runs']} interleaved rounds: fastwc {fast['wall_us']:.0f} µs vs GNU wc "
            f"{gnu['wall_us']:.0f} µs (hyperfine, one after the other: {_show(rows[0])} vs {_show(rows[1])})",
            f"process start-up: the kernel's exec, and the page faults of a larger static-C++ binary "
            f"({fast['faults']:.0f} minor faults against GNU wc's {gnu['faults']:.0f}, medians); CPU time "
            f"{fast['cpu_us']:.0f} µs against {gnu['cpu_us']:.0f} µs."))
    # The pipeline's earlier goals that the list above does not replace.
    goals.append(_vs_gnu(
        b, f"`fastwc -l --files0-from` over {b.small_count} files of 1 KiB vs GNU wc", 6.0,
        "files0", ("small", "-l", "files0", "C.UTF-8"),
        "system time: per file a stat (pre-pass), openat, two reads and close on one of the CPUs, and the line's "
        "write on the main thread; both CPUs work (the pre-pass and the files are shared out, "
        "`support/ordered_fanout.hpp`). Batching the same calls through io_uring was only a few per cent faster "
        "than plain calls (`bench/pipeline/small_files_loop`)."))
    base_m = _fast(b, "multilingual", ("multilingual", "-l", "file", "C.UTF-8"))
    for label in ("default", "-w", "-m", "-L"):
        row = _fast(b, "multilingual", ("multilingual", label, "file", "C.UTF-8"))
        mode = "wc" if label == "default" else f"wc {label}"
        goals.append(_goal(
            f"`fast{mode}` vs `fastwc -l`, multilingual, LC_ALL=C.UTF-8", 0.5, _ratio(row, base_m),
            f"{_show(row)} vs {_show(base_m)}",
            "counting, on both CPUs (user time): the characters that their lead byte and the few cells a block "
            "keeps do not classify are looked up in the table of planes 0-1 with AVX-512/AVX2 gathers (about "
            "3.9 ns a gather whatever number of its lanes are active)." if label != "-m" else SHARED_CPUS))
    goals += script_goals(b)
    return goals


# Per-script corpora: each count against `fastwc -l` on the same file (the multilingual end-to-end goals), under
# the installed GNU wc's rules and, for the counts with words, under GNU 9.5+'s (FASTWC_COMPAT=9.10).
SCRIPT_TARGETS = [("default", 0.4, ""), ("-w", 0.4, ""), ("-L", 0.3, ""), ("-m", 0.85, ""),
                  ("default", 0.4, "9.10"), ("-w", 0.4, "9.10")]


def script_goals(b):
    """One goal a count: its worst ratio over the per-script corpora, naming each corpus's."""
    names = sorted({r["corpus"] for r in b.find(group="scripts") if r.get("corpus")})
    goals = []
    for label, target, compat in SCRIPT_TARGETS:
        ratios = []
        for name in names:
            base = _fast(b, "scripts", (name, "-l", "file", "C.UTF-8"))
            scenario = (name, label, "file", "C.UTF-8") + ((f"compat {compat}",) if compat else ())
            row = _fast(b, "scripts", scenario)
            ratio = _ratio(row, base)
            if ratio is not None:
                ratios.append((ratio, name.split()[-1]))
        mode = "wc" if label == "default" else f"wc {label}"
        prefix = f"FASTWC_COMPAT={compat} " if compat else ""
        worst = min(ratios) if ratios else None
        goals.append(_goal(
            f"`{prefix}fast{mode}` vs `fastwc -l`, every per-script corpus (worst shown), LC_ALL=C.UTF-8", target,
            worst[0] if worst else None, ", ".join(f"{n} {r:.2f}" for r, n in sorted(ratios)),
            "counting, on both CPUs (user time): the kernel's work on characters whose lead byte does not settle "
            "them (with VBMI the bit maps' and slots' permutes, and the branches of text whose blocks now need "
            "them and now not, mispredicted on data the core has not seen: Latin, Cyrillic; without VBMI the "
            "looks at mixed cells and, for emoji and mixed scripts, the table's gathers); bench/micro/RESULTS.md "
            "has each corpus's kernel speed per ISA, on repeated and on new data."
            if label != "-m" and not compat else SHARED_CPUS,
            "no per-script rows (--only without scripts)"))
    return goals


def goals_md(goals):
    rows = []
    for g in goals:
        ratio = "–" if g["ratio"] is None else f"{g['ratio']:.2f}"
        rows.append([g["goal"], f"≥ {g['target']:.2f}", ratio, g["verdict"], g["measured"], g["limit"] or ""])
    return md_table(["Goal", "Target ratio", "Measured ratio", "Verdict", "Rows compared",
                     "What limits it (when not met)"], rows, ["l", "r", "r", "l", "l", "l"])


def goals_text(goals):
    """The goals for the terminal: one line each."""
    lines = []
    for g in goals:
        ratio = "   –" if g["ratio"] is None else f"{g['ratio']:5.2f}"
        verdict = g["verdict"].replace("*", "")
        lines.append(f"  {verdict:<13} {ratio} (target {g['target']:.2f})  {re.sub(r'`', '', g['goal'])}")
    return "\n".join(lines)
