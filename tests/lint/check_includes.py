#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks every #include "..." line of src/ and include/ against the layers.

Usage: check_includes.py SOURCE_ROOT

The allowed graph is the table between the "layers" markers of HACKING.md
(one row a layer: the folder, then the layers it may include), so that the
document and the check cannot disagree. A folder under src/ is a layer;
include/fastwc/ is the layer "fastwc" (the public API); src/main.cpp is
"main"; fastwc_config.hpp and count/kernel_config.hpp are generated
configuration, which any layer may include. The graph must be acyclic,
every layer must appear in the table, and every quoted include must name a
file of an allowed layer.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROW = re.compile(r"^\|\s*`([a-z_]+)`\s*\|([^|]*)\|")
GENERATED = {"fastwc_config.hpp", "count/kernel_config.hpp", "fastwc/version.hpp"}


def read_layers(hacking):
    text = hacking.read_text(encoding="utf-8")
    try:
        table = text.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    except IndexError:
        sys.exit("HACKING.md has no <!-- layers --> table")
    layers = {}
    for line in table.splitlines():
        match = ROW.match(line)
        if match:
            layers[match.group(1)] = set(re.findall(r"`([a-z_]+)`", match.group(2)))
    return layers


def find_cycle(layers):
    state = {}

    def visit(layer, path):
        state[layer] = "open"
        for below in sorted(layers.get(layer, ())):
            if state.get(below) == "open":
                return path + [below]
            if below not in state:
                cycle = visit(below, path + [below])
                if cycle:
                    return cycle
        state[layer] = "done"
        return None

    for layer in sorted(layers):
        if layer not in state:
            cycle = visit(layer, [layer])
            if cycle:
                return cycle
    return None


def layer_of(root, path):
    relative = path.relative_to(root).parts
    if relative[0] == "include":
        return "fastwc"
    if relative == ("src", "main.cpp"):
        return "main"
    return relative[1]


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    layers = read_layers(root / "HACKING.md")
    problems = []
    for layer, below in layers.items():
        for name in below - set(layers):
            problems.append(f"HACKING.md: layer {layer} may include {name}, which is not a layer")
    cycle = find_cycle(layers)
    if cycle:
        problems.append("HACKING.md: the layers form a cycle: " + " -> ".join(cycle))
    files = sorted(p for p in list((root / "src").rglob("*")) + list((root / "include").rglob("*"))
                   if p.suffix in (".cpp", ".hpp", ".h") and p.is_file())
    edges = set()
    for path in files:
        layer = layer_of(root, path)
        if layer not in layers:
            problems.append(f"{path.relative_to(root)}: folder {layer} is not a layer of HACKING.md")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            if target in GENERATED:
                continue
            head = target.split("/", 1)[0] if "/" in target else None
            if head is None:
                problems.append(f"{path.relative_to(root)}:{number}: \"{target}\" names no layer")
                continue
            exists = (root / "include" / target).is_file() if head == "fastwc" else \
                (root / "src" / target).is_file()
            if not exists:
                problems.append(f"{path.relative_to(root)}:{number}: \"{target}\" is no file of the tree")
            if head != layer and head not in layers[layer]:
                problems.append(f"{path.relative_to(root)}:{number}: {layer} may not include {target} "
                                f"(layer {head}; HACKING.md allows {layer}: "
                                f"{', '.join(sorted(layers[layer])) or 'nothing'})")
            edges.add((layer, head))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{len(files)} files, {len(edges)} layer edges, all allowed by HACKING.md's "
          f"{len(layers)} layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
