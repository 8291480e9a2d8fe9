#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that no wide instruction can leak into baseline code.

Usage: check_symbols.py NM OBJDUMP LIB...

Objects named kernel_<isa>.cpp.o are per-ISA kernels, compiled with that
ISA's flags; every other object in the libraries is baseline code. (A library
that links the kernels whole contains their objects too; each object is
checked once.) Two rules:

1. No weak (inline or template) code symbol that a kernel object defines
   may be defined by any other object: the same inline function emitted by
   two objects with different instruction sets lets the linker keep either
   copy (HACKING.md; simdjson's HACKING, xsimd issue 633). And, so that a
   future baseline use cannot create such a pair, fastwc's own weak symbols
   in the AVX2 and AVX-512 kernels must be instantiated for their xsimd
   architecture (the SSE2 kernel is built with the baseline flags).
2. Baseline objects and the SSE2 kernel use no YMM, ZMM or mask register and
   no VEX/EVEX-encoded instruction.
"""
import re
import subprocess
import sys

KERNEL = re.compile(r"kernel_(sse2|avx2|avx512bw)\.cpp\.o$")


def members(tool_output, header):
    """Splits archive tool output into {member: [lines]}."""
    out, current = {}, None
    for line in tool_output.splitlines():
        m = header.match(line)
        if m:
            current = m.group(1)
            out.setdefault(current, [])
        elif current is not None:
            out[current].append(line)
    return out


def weak_code_symbols(nm, lib):
    text = subprocess.run([nm, "-C", "--defined-only", lib], check=True, capture_output=True,
                          text=True).stdout
    result = {}
    for member, lines in members(text, re.compile(r"^(?:.*\[)?([^\[\]:]+\.o)\]?:$")).items():
        syms = []
        for line in lines:
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] == "W":
                syms.append(parts[2])
        result[member] = syms
    return result


def wide_instructions(objdump, lib):
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", lib], check=True,
                          capture_output=True, text=True).stdout
    result = {}
    header = re.compile(r"^(\S+\.o):\s+file format")
    for member, lines in members(text, header).items():
        bad = []
        for line in lines:
            if "\t" not in line:
                continue
            insn = line.split("\t", 1)[1].strip()
            if re.search(r"%[yz]mm\d|%k[0-7]\b", insn) or re.match(r"v[a-z]", insn):
                bad.append(insn)
        result[member] = bad
    return result


def main():
    nm, objdump, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
    errors = []
    symbols, wide = {}, {}
    for lib in libs:
        symbols.update(weak_code_symbols(nm, lib))
        wide.update(wide_instructions(objdump, lib))
    defined_by = {}
    for member, syms in symbols.items():
        m = KERNEL.search(member)
        for sym in set(syms):  # constructors' C1/C2 variants demangle alike
            defined_by.setdefault(sym, []).append(member)
            if (m and m.group(1) != "sse2" and sym.startswith(("fastwc::", "void fastwc::"))
                    and f"xsimd::{m.group(1)}>" not in sym and f"xsimd::{m.group(1)}," not in sym):
                errors.append(f"{member}: weak symbol not specific to {m.group(1)}: {sym}")
    for sym, where in defined_by.items():
        if len(where) > 1 and any(KERNEL.search(w) for w in where):
            errors.append(f"{sym} is defined by {', '.join(where)}")
    for member, bad in wide.items():
        m = KERNEL.search(member)
        if bad and (m is None or m.group(1) == "sse2"):
            errors.append(f"{member}: {len(bad)} wide instructions, e.g. {bad[0]}")
    kernels = sorted(m for m in wide if KERNEL.search(m))
    if not kernels:
        errors.append("no kernel object found")
    for e in errors:
        print(e)
    print(f"checked {len(wide)} objects ({', '.join(kernels)}), {len(defined_by)} weak symbols")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
