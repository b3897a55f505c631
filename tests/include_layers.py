#!/usr/bin/env python3
# Checks sim/'s includes against its layer table (sim/LAYERS): none runs from a layer up to a
# layer above it, no two of sim/'s folders include each other through any path, every file has a layer.
"""usage: include_layers.py REPOSITORY_ROOT

Prints one line per wrong include (FILE:LINE: what it includes and why that is wrong), per file
without a layer and per circle of includes between sim/'s folders (sim/X/ with all below it), and
exits 1 if there is any; 0 and a summary if none. Inside one folder a registry and its parts may
name each other (zoo.cpp builds the families that take zoo.h's options).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"(sim/[^"]+)"')


def read_layers(path):
    layers, entries = [], {}
    with open(path) as table:
        for number, line in enumerate(table, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, sep, rest = line.partition(":")
            if not sep or not rest.split():
                sys.exit(f"{path}:{number}: expected 'LAYER: entries', got '{line}'")
            for entry in rest.split():
                if entry in entries:
                    sys.exit(f"{path}:{number}: {entry} is already in layer '{layers[entries[entry]]}'")
                entries[entry] = len(layers)
            layers.append(name.strip())
    return layers, entries


def layer_of(path, entries):
    """The layer index of the longest entry matching `path` (relative, with extension), or None."""
    stem = os.path.splitext(path)[0]
    best = None
    for entry, index in entries.items():
        matches = path.startswith(entry) if entry.endswith("/") else stem == entry
        if matches and (best is None or len(entry) > len(best[0])):
            best = (entry, index)
    return None if best is None else best[1]


def folder_of(unit):
    """The folder of sim/ a unit belongs to: its first folder below sim/ (sim/ itself for a loose file)."""
    parts = unit.split("/")
    return "/".join(parts[:2]) + "/" if len(parts) > 2 else "sim/"


def circles(graph):
    """Strongly connected components of more than one unit (Tarjan), each sorted."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    layers, entries = read_layers(os.path.join(root, "sim", "LAYERS"))
    problems, graph, files = [], {}, 0
    for folder, _, names in os.walk(os.path.join(root, "sim")):
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.relpath(os.path.join(folder, name), root)
            if "/tests/" in "/" + path:
                continue  # tests may include any layer
            files += 1
            own = layer_of(path, entries)
            if own is None:
                problems.append(f"{path}: in no layer of sim/LAYERS (add it to the layer it belongs to)")
                continue
            unit = os.path.splitext(path)[0]
            with open(os.path.join(root, path)) as source:
                for number, line in enumerate(source, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = match.group(1)
                    if os.path.splitext(target)[0] != unit:
                        graph.setdefault(unit, set()).add(os.path.splitext(target)[0])
                    theirs = layer_of(target, entries)
                    if theirs is None:
                        problems.append(f"{path}:{number}: includes {target}, which is in no layer of sim/LAYERS")
                    elif theirs > own:
                        problems.append(f"{path}:{number}: includes {target} of layer '{layers[theirs]}', "
                                        f"above its own layer '{layers[own]}'")
    folders = {}
    for unit, targets in graph.items():
        for target in targets:
            if folder_of(unit) != folder_of(target):
                folders.setdefault(folder_of(unit), set()).add(folder_of(target))
    for component in circles(folders):
        problems.append("circle of includes between folders: " + " -> ".join(component + component[:1]))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{files} files of sim/ in {len(layers)} layers: every include runs down or across, "
          "no circle between folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
