#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that no wide instruction can leak into baseline code.

Usage: check_symbols.py NM OBJDUMP --kernel=NAME=ARCH[=baseline]... LIB...

The --kernel arguments are the kernel table of src/count/meson.build: a
kernel's name and C++ architecture tag, and "baseline" for a kernel built
with the baseline flags. Objects named kernel_<name>.cpp.o are per-ISA
kernels, compiled with that ISA's flags; every other object in the
libraries is baseline code. (A library
that links the kernels whole contains their objects too; each object is
checked once.) Two rules:

1. No weak (inline or template) code symbol that a kernel object defines
   may be defined by any other object: the same inline function emitted by
   two objects with different instruction sets lets the linker keep either
   copy (HACKING.md; simdjson's HACKING, xsimd issue 633). And, so that a
   future baseline use cannot create such a pair, fastwc's own weak symbols
   in the kernels built with wider flags must be instantiated for their
   architecture tag.
2. Baseline objects and the baseline kernels (SSE2) use no YMM, ZMM or mask
   register and no VEX/EVEX-encoded instruction.
"""
import re
import subprocess
import sys



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
    nm, objdump = sys.argv[1], sys.argv[2]
    arch, baseline, libs = {}, set(), []
    for arg in sys.argv[3:]:
        if arg.startswith("--kernel="):
            fields = arg[len("--kernel="):].split("=")
            arch[fields[0]] = fields[1]
            if fields[2:] == ["baseline"]:
                baseline.add(fields[0])
        else:
            libs.append(arg)
    if not arch:
        print("no --kernel argument: the kernel table is empty")
        return 1
    kernel = re.compile(r"kernel_(" + "|".join(map(re.escape, arch)) + r")\.cpp\.o$")
    errors = []
    symbols, wide = {}, {}
    for lib in libs:
        symbols.update(weak_code_symbols(nm, lib))
        wide.update(wide_instructions(objdump, lib))
    defined_by = {}
    for member, syms in symbols.items():
        m = kernel.search(member)
        for sym in set(syms):  # constructors' C1/C2 variants demangle alike
            defined_by.setdefault(sym, []).append(member)
            if (m and m.group(1) not in baseline and sym.startswith(("fastwc::", "void fastwc::"))
                    and f"{arch[m.group(1)]}>" not in sym and f"{arch[m.group(1)]}," not in sym):
                errors.append(f"{member}: weak symbol not specific to {m.group(1)}: {sym}")
    for sym, where in defined_by.items():
        if len(where) > 1 and any(kernel.search(w) for w in where):
            errors.append(f"{sym} is defined by {', '.join(where)}")
    for member, bad in wide.items():
        m = kernel.search(member)
        if bad and (m is None or m.group(1) in baseline):
            errors.append(f"{member}: {len(bad)} wide instructions, e.g. {bad[0]}")
    kernels = sorted(m for m in wide if kernel.search(m))
    missing = [name for name in arch if not any(f"kernel_{name}.cpp.o" in m for m in kernels)]
    if missing:
        errors.append(f"no object for the kernels {', '.join(missing)}")
    for e in errors:
        print(e)
    print(f"checked {len(wide)} objects ({', '.join(kernels)}), {len(defined_by)} weak symbols")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
