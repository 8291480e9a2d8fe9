#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""--progress on a pseudo-terminal.

Usage: check_progress.py FASTWC

fastwc counts a FIFO that a writer feeds slowly (about 2 s for 1.3 MB), so
that the input takes longer than the meter's one-second delay without a
large file. Checked:
  * with stderr on a terminal, the meter appears there (bytes, rate, the
    name), also with FASTWC_PROGRESS=1 instead of the option, and it is
    erased at the end;
  * stdout (a file) is byte-identical with and without --progress;
  * with stdout on the same terminal, the count line comes after the
    meter's erasure, never inside the meter;
  * with stderr on a regular file, nothing is printed there;
  * a fast input shows no meter at all.
"""

import fcntl
import os
import pty
import random
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

FASTWC = os.path.abspath(sys.argv[1])
CHUNKS = 20
PAUSE_S = 0.1
TIMEOUT_S = 60
COLUMNS = 300


def make_data():
    rng = random.Random(16)
    words = ["alpha", "beta", "gamma", "caf\u00e9", "na\u00efve", "\u4e16\u754c", "x" * 40]
    text = []
    size = 0
    while size < CHUNKS * 65536:
        word = rng.choice(words)
        text.append(word + rng.choice(" \n\t"))
        size += len(text[-1].encode())
    return "".join(text).encode()


DATA = make_data()
CHUNK = (len(DATA) + CHUNKS - 1) // CHUNKS


def feed(fifo, slow):
    with open(fifo, "wb") as out:
        for i in range(0, len(DATA), CHUNK):
            out.write(DATA[i:i + CHUNK])
            out.flush()
            if slow:
                time.sleep(PAUSE_S)


def drain(master, sink):
    while True:
        try:
            piece = os.read(master, 65536)
        except OSError:  # EIO once the child has closed the terminal
            return
        if not piece:
            return
        sink.append(piece)


def run(args, fifo, slow, stderr_tty, stdout_tty=False, env=None):
    """Returns (stdout, terminal transcript, stderr file, status)."""
    environment = dict(os.environ, LC_ALL="C.UTF-8")
    environment.pop("FASTWC_PROGRESS", None)
    environment.update(env or {})
    master, slave = pty.openpty()
    # Wide enough for the whole line (the meter cuts it to the width).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    writer = threading.Thread(target=feed, args=(fifo, slow))
    writer.start()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([FASTWC] + args + [fifo], stdin=subprocess.DEVNULL,
                                   stdout=slave if stdout_tty else out,
                                   stderr=slave if stderr_tty else err, env=environment)
        os.close(slave)
        transcript = []
        reader = threading.Thread(target=drain, args=(master, transcript))
        reader.start()
        status = process.wait(timeout=TIMEOUT_S)
        reader.join(timeout=TIMEOUT_S)
        os.close(master)
        writer.join(timeout=TIMEOUT_S)
        out.seek(0)
        err.seek(0)
        return out.read(), b"".join(transcript), err.read(), status


failures = []


def check(condition, what, detail=b""):
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)
        if detail:
            print("  got: " + repr(detail[-600:]))


def meter_lines(transcript):
    # A shorter line is padded with blanks over the longer one before it.
    return [piece.rstrip(b" ") for piece in transcript.split(b"\r") if b"/s, " in piece]


with tempfile.TemporaryDirectory() as work:
    fifo = os.path.join(work, "slow input")
    os.mkfifo(fifo)
    name = b"'" + fifo.encode() + b"'"  # quoted: the name has a space

    reference, transcript, err, status = run([], fifo, slow=False, stderr_tty=False)
    check(status == 0 and err == b"" and reference.endswith(fifo.encode() + b"\n"),
          "without --progress: the count line, nothing on stderr", reference + err)

    for label, args, env in (("--progress", ["--progress"], None),
                             ("FASTWC_PROGRESS=1", [], {"FASTWC_PROGRESS": "1"})):
        out, transcript, err, status = run(args, fifo, slow=True, stderr_tty=True, env=env)
        lines = meter_lines(transcript)
        check(status == 0, f"{label}: exit status 0")
        check(len(lines) >= 3 and all(line.endswith(name) for line in lines)
              and all(line.startswith(FASTWC.encode() + b": ") for line in lines)
              and all(len(line) < COLUMNS for line in lines),
              f"{label}: the meter appears on the terminal, redrawn, with the name", transcript)
        check(len(lines) <= 10 * (CHUNKS * PAUSE_S + 2), f"{label}: redrawn at most ten times a second",
              transcript)
        check(transcript.rstrip(b" ").endswith(b"\r") and transcript.endswith(b" \r"),
              f"{label}: the meter is erased at the end", transcript)
        check(out == reference, f"{label}: stdout identical to a run without it", out)

    out, transcript, err, status = run(["--progress"], fifo, slow=True, stderr_tty=True, stdout_tty=True)
    count_line = reference.rstrip(b"\n")
    at = transcript.find(count_line)
    check(status == 0 and at > 0, "stdout on the terminal too: the count line is there", transcript)
    before, after = transcript[:at], transcript[at + len(count_line):]
    check(before.endswith(b" \r") and meter_lines(before) and not meter_lines(after)
          and after.strip(b"\r\n") == b"",
          "stdout on the terminal too: the count line comes after the meter is erased", transcript)

    out, transcript, err, status = run(["--progress"], fifo, slow=True, stderr_tty=False)
    check(status == 0 and err == b"", "stderr on a file: nothing printed there", err)
    check(out == reference, "stderr on a file: stdout identical", out)

    out, transcript, err, status = run(["--progress"], fifo, slow=False, stderr_tty=True)
    check(status == 0 and transcript == b"", "a fast input: no meter", transcript)

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
