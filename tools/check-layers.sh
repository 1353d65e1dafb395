#!/bin/sh
# check-layers.sh — Tilelab's rooms stay rooms.
#
#   tools/check-layers.sh [SRCDIR]
#
# Reads every source file of src/, gpu/ and ui/ (C, CUDA, headers) and
# fails when
#   - an area includes an area it may not (an include that goes up or
#     across the order below);
#   - a file outside gpu/ includes anything of gpu/ but its door, the one
#     C header gpu/tl-gpu.h (a rung's header, a harness's, the backend
#     table are gpu's own);
#   - an area includes a library it may not: GTK only in ui, Cairo only
#     in paint (and cli and ui, above it), CUDA only in gpu;
#   - a source file of paint/ never touches Cairo: paint holds painters,
#     and what a view shows without drawing belongs in view/;
#   - a file calls a function of an area it may not include (ui calling
#     tl_gpu_*: the window learns about GPUs from the runner) — a function
#     belongs to the area whose header declares it or whose file defines it;
#   - files depend on each other in a circle, by includes or by calls: a
#     module is a .c (or .cu) with its .h (and its -private.h), and a.c
#     depends on b.c when it includes b.h or calls a function b.c defines
#     (a function declared in one module's header but defined in another's
#     file counts where it is defined).
# docs/architecture.md draws the same table; change both together.
# tests/check-layers-test.sh plants each kind of violation in a copy of
# the tree and checks that this script sees it.
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
    "cli": {"core", "gen", "io", "gemm", "device", "lu", "record", "run", "view", "paint", "remote",
            "gpu", "config"},
    "ui": {"core", "gen", "io", "gemm", "device", "lu", "record", "run", "view", "paint", "remote",
           "config"},
}
DOOR = "gpu/tl-gpu.h"

# libraries an area may include with <…>, by the start of the name
libraries = [
    ("GTK", ("gtk/", "gdk/", "gdk-pixbuf/"), {"ui"}),
    ("Cairo", ("cairo",), {"paint", "cli", "ui"}),
    ("CUDA", ("cuda", "cublas", "cusolver", "cupti", "nvtx", "mma.h", "cooperative_groups",
              "nvrtc", "cute/", "cutlass/"), {"gpu"}),
]

def area_of(rel):
    parts = rel.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[0] in ("gpu", "ui"):
        return parts[0]
    return None

SOURCE = (".c", ".h", ".cu", ".cuh")
files = []
for top in ("src", "gpu", "ui"):
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in names:
            if n.endswith(SOURCE):
                files.append(os.path.relpath(os.path.join(d, n), root))
files = sorted(f for f in files if area_of(f))

def resolve(including, name):
    """Where #include "name" in file `including` lands (quotes: the file's
    own folder first, then src/, gpu/, gpu/gemm/ and gpu/lu/ as meson passes
    them)."""
    if name == "tl-config.h":
        return "config"
    here = os.path.dirname(including)
    for base in (here, "src", "gpu", "gpu/gemm", "gpu/lu", "ui"):
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None

def module(rel):
    """A module is a .c (or .cu) with its .h, and its -private.h if it has one."""
    stem = os.path.splitext(rel)[0]
    return stem[: -len("-private")] if stem.endswith("-private") else stem

def code_only(text):
    """The text with comments, string and character literals and macro
    definitions blanked (lines kept), so calls are read from code alone."""
    out = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    out = re.sub(r'//[^\n]*', '', out)
    out = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", out)
    # a macro's body is code where the macro is used, not where it is defined
    return re.sub(r'^[ \t]*#[ \t]*define(?:[^\n]*\\\n)*[^\n]*', lambda m: "\n" * m.group(0).count("\n"),
                  out, flags=re.M)

texts = {f: open(os.path.join(root, f), encoding="utf-8", errors="replace").read() for f in files}
codes = {f: code_only(t) for f, t in texts.items()}

problems = []
graph = {}      # module -> {module: why}
def depend(a, b, why):
    if a != b:
        graph.setdefault(a, {}).setdefault(b, why)

# ---- functions: where each is declared and defined ----------------------------

# a definition: the name at the start of a line, its type on the line before
# (the project's style); static ones stay in their file
definition_re = re.compile(r'^([A-Za-z_]\w*) \(', re.M)
declared_area = {}   # name -> area of the header that declares it
defined_in = {}      # name -> module of the file that defines it (None: several)
for rel in files:
    code = codes[rel]
    lines = code.split("\n")
    if rel.endswith((".h", ".cuh")):
        for i, l in enumerate(lines):
            if not l or l[0] in " \t#/}{*" or l.startswith(("static", "G_", "typedef", "extern \"C\"")):
                continue
            m = re.search(r'\b(tl_\w+)\s*\(', l)
            if m and not l.lstrip().startswith("return"):
                declared_area.setdefault(m.group(1), area_of(rel))
    for m in definition_re.finditer(code):
        name = m.group(1)
        n = code.count("\n", 0, m.start())
        before = lines[n - 1] if n > 0 else ""
        if before.strip() == "" or "static" in before or before.rstrip().endswith((";", "}", ")")):
            continue
        if not rel.endswith((".c", ".cu")):
            continue
        mod = module(rel)
        defined_in[name] = mod if defined_in.get(name, mod) == mod else None

# A header without a source of its own (tl-gpu-internal.h) belongs to the
# module that defines what it declares, when that is one module.
stems = {module(f) for f in files if f.endswith((".c", ".cu"))}
header_home = {}
for rel in files:
    if rel.endswith((".h", ".cuh")) and module(rel) not in stems:
        homes = set()
        for l in codes[rel].split("\n"):
            if l and l[0] not in " \t#/}{*" and not l.startswith(("static", "G_", "typedef")):
                m = re.search(r'\b(tl_\w+)\s*\(', l)
                if m and defined_in.get(m.group(1)):
                    homes.add(defined_in[m.group(1)])
        if len(homes) == 1:
            header_home[module(rel)] = homes.pop()

def home(rel):
    return header_home.get(module(rel), module(rel))

def area_of_function(name):
    if name in declared_area:
        return declared_area[name]
    mod = defined_in.get(name)
    return area_of(mod) if mod else None

# ---- includes ------------------------------------------------------------------

quoted_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
angle_re = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)
for rel in files:
    src_area = area_of(rel)
    text = texts[rel]
    for m in quoted_re.finditer(text):
        name = m.group(1)
        target = resolve(rel, name)
        line = text.count("\n", 0, m.start()) + 1
        if target is None:
            problems.append(f"{rel}:{line}: #include \"{name}\" does not resolve to a file of the project")
            continue
        dst_area = "config" if target == "config" else area_of(target)
        if dst_area != src_area and dst_area not in allowed[src_area]:
            problems.append(f"{rel}:{line}: {src_area} may not include {dst_area} ({target})")
        elif dst_area == "gpu" and src_area != "gpu" and target != DOOR:
            problems.append(f"{rel}:{line}: only the door {DOOR} of gpu/ may be included "
                            f"from {src_area}, not {target}")
        if target != "config":
            depend(home(rel), home(target), f"{rel} includes {target}")
    for m in angle_re.finditer(text):
        name = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        for lib, prefixes, areas in libraries:
            if name.startswith(prefixes) and src_area not in areas:
                problems.append(f"{rel}:{line}: {src_area} may not include {lib} (<{name}>); "
                                f"only {', '.join(sorted(areas))} may")

# ---- paint holds painters ---------------------------------------------------------

cairo_re = re.compile(r'\bcairo_\w+')
for rel in files:
    if area_of(rel) == "paint" and rel.endswith(".c") and not cairo_re.search(codes[rel]):
        problems.append(f"{rel}: paint holds painters, but this file never touches Cairo "
                        f"(what a view shows without drawing belongs in src/view/)")

# ---- calls ----------------------------------------------------------------------

wrapper_re = re.compile(r'(?:extern\s*""|namespace(?:\s+\w+)?)\s*$')
def bodies(code):
    """The stretches of code inside braces (function bodies, initialisers):
    calls are made there; what stands outside declares or defines.  The
    braces of extern "C" and of a namespace wrap declarations: they are
    looked through."""
    depth, start, wrappers = 0, 0, []
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0 and wrapper_re.search(code[max(0, i - 40):i]):
                wrappers.append(True)
                continue
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            if depth == 0:
                if wrappers:
                    wrappers.pop()
                continue
            depth -= 1
            if depth == 0:
                yield start, code[start:i]

# a member's call (x.load (), p->run (), ns::f ()) is not a call of a file's function
call_re = re.compile(r'(?<![\w.])(?<!->)(?<!::)([A-Za-z_]\w*)\s*\(')
for rel in files:
    src_area = area_of(rel)
    code = codes[rel]
    calls = {}   # name -> offset of its first call
    for offset, body in bodies(code):
        for m in call_re.finditer(body):
            if m.group(1) in declared_area or m.group(1) in defined_in:
                calls.setdefault(m.group(1), offset + m.start())
    for name, at in calls.items():
        dst_area = area_of_function(name)
        if dst_area and dst_area != src_area and dst_area not in allowed[src_area]:
            line = code.count("\n", 0, at) + 1
            problems.append(f"{rel}:{line}: {src_area} may not call {dst_area} ({name})")
        if defined_in.get(name):
            depend(home(rel), defined_in[name], f"{rel} calls {name}")

# ---- circles --------------------------------------------------------------------

# Circles known and not yet opened: a loop whose files all lie in one of
# these groups is printed on every run, with why it stands, but does not
# fail the check; a group in which no loop is left fails it (remove the
# group), so this list cannot outlive its reason.
tolerated = [
]
tolerated_seen = set()

WHITE, GREY, BLACK = 0, 1, 2
colour = {}
stack = []
def visit(node):
    colour[node] = GREY
    stack.append(node)
    for nxt in sorted(graph.get(node, {})):
        c = colour.get(nxt, WHITE)
        if c == GREY:
            loop = stack[stack.index(nxt):] + [nxt]
            ties = "; ".join(graph[a][b] for a, b in zip(loop, loop[1:]))
            group = next((i for i, (files_, _) in enumerate(tolerated) if set(loop) <= files_), None)
            if group is not None:
                tolerated_seen.add(group)
                print("tolerated circle: " + " -> ".join(loop) + f" ({ties})")
            else:
                problems.append("circle: " + " -> ".join(loop) + f" ({ties})")
        elif c == WHITE:
            visit(nxt)
    stack.pop()
    colour[node] = BLACK
sys.setrecursionlimit(10000)
for node in sorted(graph):
    if colour.get(node, WHITE) == WHITE:
        visit(node)

for i, (members, why) in enumerate(tolerated):
    if i in tolerated_seen:
        print(f"  tolerated because {why}")
    else:
        problems.append("no circle is left among " + ", ".join(sorted(members))
                        + ": remove them from `tolerated` in tools/check-layers.sh")

for p in problems:
    print(p)
if problems:
    print(f"check-layers: {len(problems)} problem(s) in {len(files)} files")
    sys.exit(1)
others = f" but in the {len(tolerated)} tolerated groups" if tolerated else ""
print(f"check-layers: {len(files)} files, every include and call goes down the order, "
      f"gpu/ is entered by its door alone, no circles{others}")
PY
