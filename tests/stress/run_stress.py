#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""run_stress.py: fastwc's pipeline against its own reference, many times.

usage: run_stress.py [--quick | --full] [--reps N] [--seed N] [--timeout S] FASTWC_BINARY

Every input shape (ASCII, multilingual UTF-8, invalid-heavy, binary, long
lines, empty, one byte), in the C and C.UTF-8 locales, under several
selections, is counted by the pipeline (FASTWC_SERIAL_THRESHOLD=0) with
--jobs from 1 to 16, read sizes from 4 KiB up (odd ones included, so that
every buffer boundary moves), io_uring, read(2) and pread(2) threads, from files and from
pipes (straight into the pipeline, and handed over after a serial prefix),
and compared with the reference: the same binary with FASTWC_KERNEL=scalar,
--jobs=1 --io=read and the serial loop. When the system wc is GNU's, the
reference is also checked against it once per case (FASTWC_COMPAT set to
its version). Every run has a time limit: a hang is a failure.

--quick (the default; meson test --suite stress) takes well under two
minutes; --full covers every job count from 1 to 16 and more read sizes,
--reps times over (timing-dependent interleavings differ between runs).
FASTWC_STRESS=full in the environment selects --full too.

Exit status: 0 no mismatch, 1 a mismatch, a crash or a hang, 2 bad usage.
"""
import argparse
import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

KIB = 1024
MIB = 1024 * KIB


def make_inputs(directory, rng):
    """Writes the input shapes; returns their names, in a fixed order."""
    words = [b"the ", b"quick ", b"brown\t", b"fox\n", b"jumps ", b"over ", b"lazy ", b"dog.\r\n", b"  ", b"\f"]
    intl = ["Привет ", "мир ", "中文字 ", "日本語のテキスト\n", "Ελληνικά ", "العربية ", "😀 ", "café ",
            "naïve\t", "“quoted” ", "\u00a0", "\u2007", "\u202f", "\u2060", "\u2028", "\u3000", "e\u0301",
            "\u200b", "—\n", "ｗｉｄｅ "]
    intl = [s.encode() for s in intl]
    invalid = [b"\xff", b"\xe4\xb8", b"\xc0\x80", b"\xed\xa0\x80", b"ab ", b"\xf8\x88\x80\x80\x80",
               b"\x80\x80\x80", b"\x00", b"\x7f", "中\n".encode(), b"\xf4\x90\x80\x80", b"\xe4",
               b"\xfc\x84\x80\x80\x80\x80", b"\xe2\x80\xaf"]

    def fill(pool, size):
        out = bytearray()
        while len(out) < size:
            out += rng.choice(pool)
        return bytes(out)

    long_lines = bytearray()
    while len(long_lines) < 3 * MIB:
        n = rng.choice([1, 7, 4096, 100000, 2 * MIB])
        long_lines += (b"abcdefg\t" * (n // 8 + 1))[:n] + rng.choice([b"\n", b"\r", b"\f", "中\n".encode()])
    shapes = {
        "ascii": fill(words, 4 * MIB),
        "utf8": fill(intl + words[:3], 4 * MIB),
        "invalid": fill(invalid + intl[:4], 2 * MIB),
        "binary": rng.randbytes(MIB) * 3,
        "longlines": bytes(long_lines),
        "empty": b"",
        "onebyte": b"x",
    }
    for name, data in shapes.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    return list(shapes)


def run(cmd, env, timeout, stdin=None):
    """(status, stdout, stderr); status None on a timeout."""
    try:
        p = subprocess.run(cmd, env=env, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, check=False)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, b"", b""


def gnu_wc_version():
    wc = shutil.which("wc")
    if not wc:
        return None, None
    try:
        first = subprocess.run([wc, "--version"], stdout=subprocess.PIPE, check=False).stdout.split(b"\n")[0]
    except OSError:
        return None, None
    if b"GNU coreutils" not in first:
        return None, None
    return wc, first.split()[-1].decode()


def main():
    ap = argparse.ArgumentParser(description="stress fastwc's pipeline against its reference")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="the short mode (default)")
    mode.add_argument("--full", action="store_true", help="every job count, more read sizes, repeated")
    ap.add_argument("--reps", type=int, default=None, help="repetitions of the whole matrix (full: 3)")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run before it counts as hung")
    ap.add_argument("fastwc")
    a = ap.parse_args()
    full = a.full or (not a.quick and os.environ.get("FASTWC_STRESS") == "full")
    reps = a.reps if a.reps is not None else (3 if full else 1)
    fastwc = os.path.abspath(a.fastwc)
    if not os.access(fastwc, os.X_OK):
        ap.error(f"{fastwc} is not executable")

    if full:
        jobs_list = list(range(1, 17))
        read_sizes = [4 * KIB, 4 * KIB + 1, 8 * KIB, 12 * KIB - 3, 64 * KIB, 256 * KIB + 3, MIB, 4 * MIB]
        backends = ["uring", "read", "pread", "auto"]
    else:
        jobs_list = [1, 2, 3, 5, 16]
        read_sizes = [4 * KIB, 4 * KIB + 1, 64 * KIB + 7, MIB]
        backends = ["uring", "read", "pread"]
    selections = [["-lwmcL"], ["-w"], []]
    locales = ["C", "C.UTF-8"]

    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith(("FASTWC_", "LC_")) and k not in ("LANG", "LANGUAGE", "POSIXLY_CORRECT")}
    gnu, gnu_version = gnu_wc_version()
    if gnu_version:
        base_env["FASTWC_COMPAT"] = gnu_version

    runs = mismatches = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fastwc-stress-") as d:
        names = make_inputs(d, random.Random(a.seed))
        paths = [os.path.join(d, n) for n in names]

        # The runs below must go through the pipeline, or they prove nothing.
        probe = [fastwc, "--stats", "--jobs=3", "--read-size=4096", "-l", paths[0]]
        _, _, err = run(probe, dict(base_env, FASTWC_SERIAL_THRESHOLD="0"), a.timeout)
        if b"serial read()" in err or (b"io_uring," not in err and b"read()," not in err
                                         and b"pread() on each worker" not in err):
            print(f"error: FASTWC_SERIAL_THRESHOLD=0 did not start the pipeline: {err!r}")
            return 1

        def fail(what, cmd, expected, got):
            nonlocal mismatches
            mismatches += 1
            print(f"MISMATCH {what}: {' '.join(cmd)}")
            print(f"  expected: {expected!r}")
            print(f"  got:      {got!r}")

        for locale, selection in itertools.product(locales, selections):
            env = dict(base_env, LC_ALL=locale)
            ref_env = dict(env, FASTWC_KERNEL="scalar")
            ref_cmd = [fastwc, "--jobs=1", "--io=read"] + selection + paths
            status, expected, err = run(ref_cmd, ref_env, a.timeout)
            if status != 0 or err:
                fail(f"reference in {locale}", ref_cmd, "status 0, no stderr", (status, err))
                continue
            if gnu:
                status, gnu_out, _ = run([gnu] + selection + paths, env, a.timeout * 5)
                if gnu_out != expected:
                    fail(f"reference vs GNU wc {gnu_version} in {locale}", ref_cmd, gnu_out, expected)
            # Per input too: the reference for a pipe on stdin (no name; the
            # column width is GNU's for inputs of unknown size).
            def piped(cmd, run_env, path):
                with open(path, "rb") as f:
                    cat = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE)
                    result = run(cmd, run_env, a.timeout, stdin=cat.stdout)
                    cat.stdout.close()
                    cat.wait()
                return result

            per_input = {p: piped([fastwc, "--jobs=1", "--io=read"] + selection, ref_env, p)[1] for p in paths}

            for rep, jobs, size, backend in itertools.product(range(reps), jobs_list, read_sizes, backends):
                cmd = [fastwc, f"--jobs={jobs}", f"--read-size={size}", f"--io={backend}"] + selection + paths
                status, out, err = run(cmd, dict(env, FASTWC_SERIAL_THRESHOLD="0"), a.timeout)
                runs += 1
                if status is None:
                    fail(f"HANG (over {a.timeout} s) in {locale}", cmd, "an end", "no end")
                elif status != 0 or err or out != expected:
                    fail(f"files in {locale}", cmd, expected, (status, out, err))
            # Pipes: straight into the pipeline, and handed over after a
            # serial prefix of 1 MiB, for every input with more than that.
            for rep, jobs, size, threshold in itertools.product(
                    range(reps), jobs_list[::2], read_sizes[::2], ["0", str(MIB)]):
                for p in paths:
                    cmd = [fastwc, f"--jobs={jobs}", f"--read-size={size}"] + selection
                    status, out, err = piped(cmd, dict(env, FASTWC_SERIAL_THRESHOLD=threshold), p)
                    runs += 1
                    what = f"pipe of {os.path.basename(p)} in {locale}, serial threshold {threshold}"
                    if status is None:
                        fail("HANG " + what, cmd, "an end", "no end")
                    elif status != 0 or err or out != per_input[p]:
                        fail(what, cmd, per_input[p], (status, out, err))

    elapsed = time.monotonic() - started
    print(f"stress ({'full' if full else 'quick'}, {reps} rep): {runs} runs, {mismatches} mismatches, "
          f"{elapsed:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
