# SPDX-License-Identifier: GPL-3.0-or-later
"""The measuring machinery shared by bench/run and bench/studies/*.py.

One Bench object holds the paths (repository, build directory, results
directory), the tools found on this machine and every measured row. Its
measure() method is the only place a command is timed:

 1. the command runs once, outside hyperfine, with its output captured; the
    output is compared byte for byte with GNU wc's output for the same
    scenario (that comparison is the "= GNU" column of every table), and
    the time of that run sizes the hyperfine run;
 2. hyperfine times it (--export-json into raw/), with an explicit LC_ALL and
    otherwise a cleaned environment (no LANG, LC_*, POSIXLY_CORRECT or
    FASTWC_* variables from the caller), and for cold-cache rows a
    --prepare that drops the page cache before every run.

Throughput is bytes / mean wall time, in GB/s (1e9 bytes per second).
"""
import datetime
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

DROP_CACHES = "sync; echo 3 > /proc/sys/vm/drop_caches"
PREPARE_COLD = "bash -c " + shlex.quote(DROP_CACHES)
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text):
    """'256M', '1G', '64K', '4096', also with 'iB' ('256MiB')."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"invalid size {text!r} (expected a number with an optional K, M or G suffix)")
    return int(m.group(1)) * SIZE_UNITS[m.group(2).upper()]


def format_size(n):
    for unit, factor in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= factor and n % factor == 0:
            return f"{n // factor}{unit}"
    return str(n)


def human_bytes(n):
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= factor:
            value = n / factor
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def format_time(seconds):
    if seconds is None:
        return "–"
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms" if seconds < 0.1 else f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def format_mean_sd(mean, sd, row=None):
    """'12.3 ms ± 0.4'; with a row measured while other work kept BUSY_MARK CPUs busy, a trailing †."""
    if row is not None and row.get("other_cpus", 0) >= BUSY_MARK:
        return format_mean_sd(mean, sd) + " †"
    if mean is None:
        return "failed"
    sd = sd or 0.0
    if mean >= 1:
        return f"{mean:.3f} s ± {sd:.3f}"
    if mean >= 1e-3:
        digits = 2 if mean < 0.1 else 1
        return f"{mean * 1e3:.{digits}f} ms ± {sd * 1e3:.{digits}f}"
    return f"{mean * 1e6:.0f} µs ± {sd * 1e6:.0f}"


def format_rate(bytes_, seconds):
    if not bytes_ or not seconds:
        return "–"
    rate = bytes_ / seconds / 1e9
    return f"{rate:.2f}" if rate >= 1 else f"{rate:.3f}"


def run_text(argv, **kwargs):
    """stdout of a command (stripped), or '' when it cannot run."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs).stdout.strip()
    except OSError:
        return ""


def clean_env(locale):
    """The caller's environment without locale, POSIX or fastwc variables, plus LC_ALL."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("LC_") or k in ("LANG", "LANGUAGE", "POSIXLY_CORRECT") or k.startswith("FASTWC_"))}
    env["LC_ALL"] = locale
    return env


def command_env(assignments, locale="C.UTF-8"):
    """A bare environment for timed commands (LC_ALL, the system's PATH) plus NAME=VALUE assignments (the
    scripts' repeatable --env)."""
    env = {"LC_ALL": locale, "PATH": "/usr/bin:/bin"}
    for item in assignments:
        name, _, value = item.partition("=")
        env[name] = value
    return env


class Tool:
    """A wc implementation: how to call it, and what it supports."""

    def __init__(self, name, argv, version, files0=True):
        self.name = name
        self.argv = argv
        self.version = version
        self.files0 = files0

    def short(self):
        return {"fastwc": "fastwc", "GNU wc": "wc", "busybox wc": "busybox wc", "uutils wc": "uu-wc",
                GNU_910: "wc-9.10"}[self.name]


# GNU wc 9.10, when given (bench/run --gnu-wc-9.10 PATH or $GNU_WC_9_10): the newest read-boundary rule (9.5+,
# 256 KiB reads), next to which fastwc's FASTWC_COMPAT=9.10 rows are checked and timed. It is not on PATH on
# Debian 12 (coreutils 9.1), so its rows are skipped, with a note, without it.
GNU_910 = "GNU wc 9.10"


def find_gnu_910(path):
    """The Tool for GNU wc 9.10 at path (or $GNU_WC_9_10), or None when absent or not 9.10."""
    path = path or os.environ.get("GNU_WC_9_10")
    if not path or not os.access(path, os.X_OK):
        return None
    version = run_text([path, "--version"]).splitlines()
    if not version or "9.10" not in version[0]:
        return None
    return Tool(GNU_910, [path], version[0])


def find_tools(fastwc):
    """fastwc plus GNU wc (required), busybox wc and uutils wc (when installed)."""
    tools = [Tool("fastwc", [fastwc], run_text([fastwc, "--version"]).splitlines()[0])]
    gnu = shutil.which("wc")
    version = run_text([gnu, "--version"]).splitlines()[0] if gnu else ""
    if "GNU coreutils" not in version:
        sys.exit("bench: GNU wc not found on PATH (it is the reference every row is compared with)")
    tools.append(Tool("GNU wc", [gnu], version))
    busybox = shutil.which("busybox")
    if busybox and "wc" in run_text([busybox, "--list"]).split():
        head = subprocess.run([busybox], capture_output=True, text=True).stdout.splitlines()
        tools.append(Tool("busybox wc", [busybox, "wc"], head[0] if head else "busybox", files0=False))
    for candidate in ("/usr/lib/cargo/bin/coreutils/wc", shutil.which("uu-wc")):
        if candidate and os.access(candidate, os.X_OK):
            tools.append(Tool("uutils wc", [candidate], "uutils " + run_text([candidate, "--version"])))
            break
    return tools


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average():
    return os.getloadavg()[0]


def cpu_busy_seconds():
    """CPU time all CPUs have spent busy since boot (user, nice, system, irq, softirq), in seconds."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:8]]
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / os.sysconf("SC_CLK_TCK")


def own_children_seconds():
    t = os.times()
    return t.children_user + t.children_system


# Rows during which other processes (or kernel threads) kept at least this many
# CPUs busy on average are marked in the tables.
BUSY_MARK = 0.2


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Bench:
    def __init__(self, *, repo, builddir, out, size, corpus_paths, small_count, quick=False, log=print,
                 gnu_910=None):
        self.repo = repo
        self.builddir = builddir
        self.out = out
        self.size = size
        self.corpus = corpus_paths
        self.small_count = small_count
        self.quick = quick
        self.log = log
        self.fastwc = os.path.join(builddir, "src", "fastwc")
        # Start-up, interleaved with GNU wc (bench/lib/startup.py): {count: {"fastwc": ..., "GNU wc": ...}}.
        self.startup_interleaved = {}
        self.tools = find_tools(self.fastwc)
        # Tools measured only where a row asks for them (not in every scenario).
        self.gnu_910 = find_gnu_910(gnu_910)
        self.extra_tools = [self.gnu_910] if self.gnu_910 else []
        self.rows = []
        self.reference = {}  # scenario key -> (stdout, returncode) of GNU wc
        self.read_loop = None
        self.bench_kernels = None
        self.cold_ok = os.access("/proc/sys/vm/drop_caches", os.W_OK)
        os.makedirs(os.path.join(out, "raw"), exist_ok=True)
        self.hyperfine_log = open(os.path.join(out, "hyperfine.log"), "a")
        self.kernel = self.fastwc_kernel()

    # ---- helpers used by the tables ----

    def tool(self, name):
        for t in self.tools:
            if t.name == name:
                return t
        return None

    def display(self, text):
        """A command as shown in tables: short tool names and corpus file names."""
        text = text.replace(self.fastwc, "fastwc")
        for t in self.tools + self.extra_tools:
            text = text.replace(shlex.join(t.argv), t.short())
        if self.read_loop:
            text = text.replace(self.read_loop, "read_loop")
        corpus_dir = os.path.dirname(self.corpus["english"]) + "/"
        return text.replace(corpus_dir, "")

    def fastwc_kernel(self):
        """The kernel fastwc's dispatch picks on this CPU (from --stats)."""
        proc = subprocess.run([self.fastwc, "--stats", "--jobs=1", self.corpus["oneline"]],
                              capture_output=True, text=True, env=clean_env("C.UTF-8"))
        m = re.search(r", ([a-z0-9]+)\)\s*$", proc.stderr.splitlines()[0] if proc.stderr else "")
        return m.group(1) if m else "unknown"

    def fastwc_stats(self, args, locale="C.UTF-8", env_extra=None):
        """fastwc's --stats lines for one run of args (stderr), joined."""
        env = clean_env(locale)
        env.update(env_extra or {})
        proc = subprocess.run([self.fastwc, "--stats", *args], capture_output=True, text=True, env=env)
        return " | ".join(line.split(": ", 2)[-1] for line in proc.stderr.splitlines())

    # ---- the measurement ----

    def runs_for(self, seconds, cold, runs=None, min_runs=3, max_runs=30, target=1.0):
        if runs:
            return runs, 0
        if self.quick:
            return 2, 0
        if cold:
            # Each run drops the page cache first; one slow disk episode
            # moves the mean of a few runs a lot.
            return max(min_runs, 7), 0
        n = int(target / max(seconds, 1e-4))
        n = max(min_runs, min(max_runs, n))
        # The correctness run just warmed the cache; one more warm-up run
        # only where it is cheap.
        return n, (1 if seconds < 0.3 else 0)

    def measure(self, *, group, tool, command, scenario, bytes_, shell=False, locale="C.UTF-8", cold=False,
                runs=None, min_runs=3, max_runs=30, target=1.0, compare=True, extra=None, env_extra=None):
        """Times one command; returns its row (also appended to self.rows).

        command: argv list (run without a shell) or, with shell=True, a string
        for /bin/sh. scenario: a tuple naming what is counted (corpus, mode,
        input kind, locale); GNU wc's row for the same scenario is the
        reference output. compare=False for rows that print no counts (the
        read loop). env_extra: variables added to the command's environment
        (shown in front of the command in the tables).
        """
        text = command if shell else shlex.join(command)
        env = clean_env(locale)
        env.update(env_extra or {})
        shown = "".join(f"{k}={shlex.quote(v)} " for k, v in (env_extra or {}).items()) + text
        started = time.perf_counter()
        proc = subprocess.run(command if not shell else ["/bin/sh", "-c", command], capture_output=True,
                              env=env, cwd=self.repo)
        first = time.perf_counter() - started
        key = tuple(scenario)
        if compare and tool in ("GNU wc", GNU_910):
            self.reference[key] = (proc.stdout, proc.returncode)
        if not compare:
            equal = "n/a"
        elif tool in ("GNU wc", GNU_910):
            equal = "reference"
        elif key not in self.reference:
            equal = "?"
        else:
            equal = compare_outputs(self.reference[key], (proc.stdout, proc.returncode))
        n, warmup = self.runs_for(first, cold, runs, min_runs, max_runs, target)
        ident = re.sub(r"[^A-Za-z0-9.]+", "-", f"{group}-{tool}-{'-'.join(map(str, scenario))}-{text}" +
                       ("-cold" if cold else ""))
        ident = re.sub(r"-+", "-", ident.replace(self.fastwc, "fastwc").replace(self.repo, "")).strip("-")[:150]
        ident = ident + "-" + "".join(f"{k}{v}" for k, v in (env_extra or {}).items())
        ident = ident.strip("-")
        while os.path.exists(os.path.join(self.out, "raw", ident + ".json")):
            ident += "+"
        raw = os.path.join("raw", ident + ".json")
        args = ["hyperfine", "--style", "basic", "--export-json", os.path.join(self.out, raw),
                "--runs", str(n), "--warmup", str(warmup)]
        if not shell:
            args.append("-N")
        if cold:
            args += ["--prepare", PREPARE_COLD]
        if proc.returncode != 0:
            args.append("-i")
        args.append(text)
        self.hyperfine_log.write(f"\n$ LC_ALL={locale} {shlex.join(args)}\n")
        self.hyperfine_log.flush()
        # How busy the machine was with anything but this measurement: all
        # CPU time spent meanwhile minus what hyperfine and its children used.
        busy0, own0, wall0 = cpu_busy_seconds(), own_children_seconds(), time.perf_counter()
        hf = subprocess.run(args, stdout=self.hyperfine_log, stderr=subprocess.STDOUT, env=env, cwd=self.repo)
        wall = time.perf_counter() - wall0
        other = max(0.0, (cpu_busy_seconds() - busy0) - (own_children_seconds() - own0)) / max(wall, 1e-9)
        other = min(other, float(os.cpu_count() or 1))  # clock-tick rounding on very short runs
        result = {}
        if hf.returncode == 0:
            with open(os.path.join(self.out, raw)) as f:
                result = json.load(f)["results"][0]
        row = {
            "group": group, "tool": tool, "scenario": list(scenario), "locale": locale,
            "corpus": scenario[0], "mode": scenario[1], "input": scenario[2],
            "cache": "cold" if cold else "warm", "command": shown, "display": self.display(shown),
            "shell": shell, "bytes": bytes_, "runs": n, "raw": raw if result else None,
            "mean": result.get("mean"), "stddev": result.get("stddev") or 0.0, "median": result.get("median"),
            "min": result.get("min"), "max": result.get("max"), "user": result.get("user"),
            "system": result.get("system"), "output": summarize_output(proc.stdout, self.corpus),
            "returncode": proc.returncode, "equal": equal,
            "other_cpus": round(other, 3), "load1": round(load_average(), 2),
        }
        if extra:
            row.update(extra)
        self.rows.append(row)
        speed = format_rate(bytes_, row["mean"]) if row["mean"] else "failed"
        self.log(f"  {row['display'][:70]:<70} {format_mean_sd(row['mean'] or 0, row['stddev']):>20} "
                 f"{speed:>7} GB/s  = GNU: {equal}")
        return row

    def reference_only(self, tool, command, scenario, locale="C.UTF-8", shell=False):
        """Runs a GNU wc once, untimed, to be the reference output of scenario (rows where only fastwc's time
        matters). Returns its summarized output."""
        proc = subprocess.run(command if not shell else ["/bin/sh", "-c", command], capture_output=True,
                              env=clean_env(locale), cwd=self.repo)
        self.reference[tuple(scenario)] = (proc.stdout, proc.returncode)
        self.hyperfine_log.write(f"\n# reference output ({tool}, untimed): LC_ALL={locale} "
                                 f"{command if shell else shlex.join(command)}\n")
        return summarize_output(proc.stdout, self.corpus)

    def find(self, **criteria):
        """The rows matching every criterion (scenario may be given as a list or tuple)."""
        found = []
        for row in self.rows:
            if all((list(v) if k == "scenario" else v) == row.get(k) for k, v in criteria.items()):
                found.append(row)
        return found

    def one(self, **criteria):
        rows = self.find(**criteria)
        return rows[0] if rows else None

    def gnu_row(self, group, scenario, flags, path, bytes_, extra=None):
        """GNU wc's warm row for a scenario: the one already measured by another group, else a new one."""
        existing = [r for r in self.find(tool="GNU wc", scenario=scenario, cache="warm") if r.get("mean")]
        if existing:
            return existing[0]
        return self.measure(group=group, tool="GNU wc", command=self.tool("GNU wc").argv + flags + [path],
                            scenario=scenario, bytes_=bytes_, locale=scenario[3], extra=extra)

    def save(self):
        with open(os.path.join(self.out, "results.json"), "w") as f:
            json.dump({"size": self.size, "rows": self.rows}, f, indent=1, ensure_ascii=False)

    # ---- auxiliary programs ----

    def ensure_read_loop(self):
        """bench/pipeline/read_loop from the build directory, else compiled here."""
        built = os.path.join(self.builddir, "bench", "pipeline", "read_loop")
        if os.access(built, os.X_OK):
            self.read_loop = built
            return built
        source = os.path.join(self.repo, "bench", "pipeline", "read_loop.cpp")
        target = os.path.join(self.repo, "bench", "corpus", ".tools", "read_loop")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
            cxx = os.environ.get("CXX", "c++")
            subprocess.run([cxx, "-O2", "-std=c++20", "-o", target, source, "-luring"], check=True)
        self.read_loop = os.path.relpath(target, self.repo)
        return self.read_loop

    def ensure_bench_kernels(self):
        path = os.path.join(self.builddir, "bench", "micro", "bench_kernels")
        self.bench_kernels = path if os.access(path, os.X_OK) else None
        return self.bench_kernels


def summarize_output(stdout, corpus=None):
    """A tool's output for the tables: the leading counts of its last line (the total line with several files)."""
    text = stdout.decode("utf-8", "replace").rstrip("\n")
    if not text:
        return ""
    counts = []
    for token in text.splitlines()[-1].split():
        if not token.isdigit():
            break
        counts.append(token)
    return " ".join(counts)


def compare_outputs(reference, candidate):
    """'yes' (byte-identical stdout and exit status), 'counts only' (same numbers, other layout), or 'NO'."""
    if reference == candidate:
        return "yes"
    ref_numbers = re.findall(rb"\d+", reference[0])
    cand_numbers = re.findall(rb"\d+", candidate[0])
    if ref_numbers == cand_numbers and reference[1] == candidate[1]:
        return "counts only"
    return "NO"


# ---- markdown ----

def md_table(header, rows, align=None):
    align = align or ["l"] * len(header)
    sep = ["---:" if a == "r" else ":---:" if a == "c" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(sep) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    return "\n".join(lines)


def code(text):
    return "`" + text.replace("`", "'") + "`"


def speedup(reference_row, row):
    if not reference_row or not row or not reference_row.get("mean") or not row.get("mean"):
        return "–"
    return f"{reference_row['mean'] / row['mean']:.2f}×"


def gnuplot(script, out_dir, **variables):
    """Runs a gnuplot script from bench/plots with variables (strings quoted)."""
    def value(v):  # gnuplot double-quoted strings: \n is a newline
        return '"' + v.replace('"', '\\"') + '"' if isinstance(v, str) else repr(v)

    defs = "; ".join(f"{k}={value(v)}" for k, v in variables.items())
    if not shutil.which("gnuplot"):
        print(f"bench: gnuplot is not installed: {os.path.basename(script)}'s plot is not drawn", file=sys.stderr)
        return False
    proc = subprocess.run(["gnuplot", "-e", defs, script], capture_output=True, text=True, cwd=out_dir)
    if proc.returncode != 0:
        print(f"bench: gnuplot {script} failed:\n{proc.stderr}", file=sys.stderr)
    return proc.returncode == 0


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc)
