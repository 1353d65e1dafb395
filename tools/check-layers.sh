#!/bin/sh
# check-layers.sh — Tilelab's rooms stay rooms.
#
#   tools/check-layers.sh [SRCDIR]
#
# Reads every #include "…" in src/, gpu/, ui/ and fails when
#   - an area includes an area it may not (an include that goes up or
#     across the order below), or
#   - files include each other in a circle (a.c includes b.h while b.c
#     includes a.h, or any longer loop): a module is a .c with its .h
#     (and its -private.h).
# docs/architecture.md draws the same table; change both together.
#
# The areas, bottom to top, and what each may include besides itself
# ("gpu" is the one C header gpu/tl-gpu.h and the CUDA behind it, "config"
# the generated tl-config.h):
#
#   gpu      gpu/…          config
#   core     src/core/      config
#   gen      src/gen/       core
#   io       src/io/        core
#   gemm     src/gemm/      core gpu
#   device   src/device/    core gpu
#   lu       src/lu/        core gemm device gpu
#   record   src/record/    core io gemm lu gpu config
#   run      src/run/       core gen io gemm device lu record gpu
#   view     src/view/      core io gemm lu record
#   paint    src/paint/     core io gemm lu record view
#   remote   src/remote/    core gen io gemm device lu record run config
#   cli      src/cli/       everything in src/, gpu, config
#   ui       ui/            everything in src/ but cli and gpu; config
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
exec python3 - "$root" <<'PY'
import os, re, sys

root = sys.argv[1]
allowed = {
    "gpu": {"config"},
    "core": {"config"},
    "gen": {"core"},
    "io": {"core"},
    "gemm": {"core", "gpu"},
    "device": {"core", "gpu"},
    "lu": {"core", "gemm", "device", "gpu"},
    "record": {"core", "io", "gemm", "lu", "gpu", "config"},
    "run": {"core", "gen", "io", "gemm", "device", "lu", "record", "gpu"},
    "view": {"core", "io", "gemm", "lu", "record"},
    "paint": {"core", "io", "gemm", "lu", "record", "view"},
    "remote": {"core", "gen", "io", "gemm", "device", "lu", "record", "run", "config"},
    "cli": {"core", "gen", "io", "gemm", "device", "lu", "record", "run", "view", "paint", "remote", "gpu", "config"},
    "ui": {"core", "gen", "io", "gemm", "device", "lu", "record", "run", "view", "paint", "remote", "config"},
}

def area_of(rel):
    parts = rel.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[0] in ("gpu", "ui"):
        return parts[0]
    return None

# every source file, and where an include name resolves to
files = []
for top in ("src", "gpu", "ui"):
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in names:
            if n.endswith((".c", ".h", ".cu", ".cuh")):
                files.append(os.path.relpath(os.path.join(d, n), root))

def resolve(including, name):
    """Where #include "name" in file `including` lands (quotes: the file's
    own folder first, then src/, gpu/ and gpu/gemm/ as meson passes them)."""
    if name == "tl-config.h":
        return "config"
    here = os.path.dirname(including)
    for base in (here, "src", "gpu", "gpu/gemm", "gpu/lu", "ui"):
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None

include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
def module(rel):
    """A module is a .c with its .h, and its -private.h if it has one."""
    stem = os.path.splitext(rel)[0]
    return stem[: -len("-private")] if stem.endswith("-private") else stem
problems = []
graph = {}
for rel in sorted(files):
    src_area = area_of(rel)
    if src_area is None:
        continue
    text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
    for m in include_re.finditer(text):
        name = m.group(1)
        target = resolve(rel, name)
        line = text.count("\n", 0, m.start()) + 1
        if target is None:
            problems.append(f"{rel}:{line}: #include \"{name}\" does not resolve to a file of the project")
            continue
        if target == "config":
            dst_area = "config"
        else:
            dst_area = area_of(target)
        if dst_area != src_area and dst_area not in allowed[src_area]:
            problems.append(f"{rel}:{line}: {src_area} may not include {dst_area} ({target})")
        if target != "config" and module(target) != module(rel):
            graph.setdefault(module(rel), set()).add(module(target))

# circles between modules (a .c and its .h are one module)
WHITE, GREY, BLACK = 0, 1, 2
colour = {}
stack = []
def visit(node):
    colour[node] = GREY
    stack.append(node)
    for nxt in sorted(graph.get(node, ())):
        c = colour.get(nxt, WHITE)
        if c == GREY:
            loop = stack[stack.index(nxt):] + [nxt]
            problems.append("include circle: " + " -> ".join(loop))
        elif c == WHITE:
            visit(nxt)
    stack.pop()
    colour[node] = BLACK
sys.setrecursionlimit(10000)
for node in sorted(graph):
    if colour.get(node, WHITE) == WHITE:
        visit(node)

for p in problems:
    print(p)
n_files = sum(1 for f in files if area_of(f))
if problems:
    print(f"check-layers: {len(problems)} problem(s) in {n_files} files")
    sys.exit(1)
print(f"check-layers: {n_files} files, every include goes down the order, no circles")
PY
