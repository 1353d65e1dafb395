#!/bin/sh
# sass-diff.sh — a lab, not part of the product: the SASS of one kernel's
# FFMA main loop in several cubins, side by side, with counts that hint at
# register-bank conflicts.  Written for rung 17's 128×256 kernel, whose
# main loop is 4096 FFMAs and 192 LDS.128 per k-tile.
#
#   lab/sass-diff.sh [-k PATTERN] [-o DIR] A.cubin B.cubin …
#
# PATTERN picks the kernel in each cubin (a part of its mangled name; the
# default takes rung 17's 128×256 kernel: "ILi128ELi256" where the cubin
# has the planned kernels, else the one gemm_17_kernel).  DIR (default
# $OUT, else ./sass-out) receives each cubin's loop, one instruction a
# line (NAME.loop.sass), and diffs.txt.
#
# The disassembly comes from cuobjdump (or nvdisasm) where the CUDA
# toolkit has them — the device machine does — and otherwise from a
# decoder of the instruction words in this script (opcode, registers,
# reuse flags and stall counts of the Volta-to-Hopper encoding; it counts
# the FFMA (0x223) and LDS (0x984) of rung 17's loop right).  Where both
# are there, it prints both tables: they should agree.
#
# The counts, over the main loop (first FFMA to last FFMA of the kernel),
# with a, b the two factors of an FFMA and c its addend (the accumulator):
#   ab-same-bank        a % 4 == b % 4.  A heuristic, and in rung 17 it is
#                       fixed by the code's shape: each A value meets the
#                       four registers of one LDS.128 of B, so one FFMA in
#                       four has it whatever the allocation.
#   ab-same-bank-read   the same, where neither a nor b comes from the
#                       operand reuse cache (.reuse on the same slot and
#                       register of the FFMA before).
#   any2-same-bank-read two of a, b, c read from the register file (not the
#                       reuse cache) in one bank (reg % 4).
#   all3-same-parity    a, b and c all read, all even or all odd (the
#                       two-bank model published for Volta).
#   reuse-a, reuse-b    operands served by the reuse cache.
#   stall-sum           the stall counts the compiler encoded (its own idea
#                       of the loop's issue cycles), from the words only.
# NVIDIA does not document the register file; none of these is a verdict,
# only a place to look.  The timing is what gemm-17-ab measures.
set -eu
pattern=""
dir=${OUT:-./sass-out}
while [ $# -gt 0 ]; do
  case $1 in
    -k) pattern=$2; shift 2 ;;
    -o) dir=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-k PATTERN] [-o DIR] A.cubin B.cubin …" >&2; exit 2; }
mkdir -p "$dir"
PATH="$PATH:/usr/local/cuda/bin"
tool=""
command -v cuobjdump >/dev/null 2>&1 && tool=cuobjdump
[ -z "$tool" ] && command -v nvdisasm >/dev/null 2>&1 && tool=nvdisasm

: > "$dir/list"
for f in "$@"; do
  name=$(basename "$f" .cubin)
  # two cubins of one name (old/x.cubin, new/x.cubin): the folder tells them apart
  grep -q "^$name	" "$dir/list" && name="$(basename "$(dirname "$f")")-$name"
  printf '%s\t%s\n' "$name" "$f" >> "$dir/list"
  kernel=$(python3 - "$f" "$pattern" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', d, 0x28)
entsize, num, strndx = struct.unpack_from('<HHH', d, 0x3a)
hdr = lambda i: struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * entsize)
stro = hdr(strndx)[4]
names = []
for i in range(num):
    o = stro + hdr(i)[0]
    n = d[o:d.index(b'\0', o)].decode()
    if n.startswith('.text.'):
        names.append(n[6:])
pat = sys.argv[2]
pick = [n for n in names if pat and pat in n]
if not pat:
    pick = [n for n in names if 'gemm_17_kernel' in n and 'ILi128ELi256' in n] \
        or [n for n in names if 'gemm_17_kernel' in n]
print(pick[0] if pick else '')
PY
)
  if [ -z "$kernel" ]; then
    echo "sass-diff: no kernel matching '${pattern:-gemm_17_kernel}' in $f" >&2
    exit 1
  fi
  echo "$name: $kernel"
  echo "$kernel" > "$dir/$name.kernel"
  case $tool in
    cuobjdump) cuobjdump -sass -fun "$kernel" "$f" > "$dir/$name.sass" ;;
    nvdisasm) nvdisasm -fun "$kernel" -c "$f" > "$dir/$name.sass" 2>/dev/null \
                || nvdisasm -c "$f" > "$dir/$name.sass" ;;
    *) : > "$dir/$name.sass" ;;
  esac
done

python3 - "$dir" "$tool" <<'PY'
import collections, os, re, struct, sys
out, tool = sys.argv[1], sys.argv[2]
cubins = [line.rstrip('\n').split('\t', 1) for line in open(os.path.join(out, 'list'))]

def text_of(path, kernel):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    entsize, num, strndx = struct.unpack_from('<HHH', d, 0x3a)
    hdr = lambda i: struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * entsize)
    stro = hdr(strndx)[4]
    for i in range(num):
        h = hdr(i)
        o = stro + h[0]
        if d[o:d.index(b'\0', o)].decode() == '.text.' + kernel:
            return d[h[4]:h[4] + h[5]]
    return b''

# One instruction: op (mnemonic or opcode), regs a, b, c (None if not a
# register), reuse flags per slot, stall.
def from_words(data):
    ins = []
    for i in range(0, len(data), 16):
        lo, hi = struct.unpack_from('<QQ', data, i)
        op = lo & 0xfff
        r = (hi >> 58) & 0xf
        ins.append(dict(pc=i, op='FFMA' if op == 0x223 else 'LDS' if op == 0x984 else 'op%03x' % op,
                        d=(lo >> 16) & 0xff, a=(lo >> 24) & 0xff, b=(lo >> 32) & 0xff, c=hi & 0xff,
                        ra=bool(r & 1), rb=bool(r & 2), rc=bool(r & 4), stall=(hi >> 41) & 0xf,
                        text=None))
    return ins

line_re = re.compile(r'/\*([0-9a-f]+)\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)\s*([^;]*);')
reg_re = re.compile(r'^[-|]*R(\d+|Z)(\.reuse)?\|?$')
def from_text(path):
    ins = []
    for line in open(path, errors='replace'):
        m = line_re.search(line)
        if not m:
            continue
        mnem = m.group(3)
        ops = [o.strip() for o in m.group(4).split(',')] if m.group(4).strip() else []
        x = dict(pc=int(m.group(1), 16), op=mnem.split('.')[0], a=None, b=None, c=None, d=None,
                 ra=False, rb=False, rc=False, stall=0, text=line.split(';')[0].strip() + ' ;')
        if x['op'] == 'FFMA' and len(ops) == 4:
            regs = []
            for o in ops:
                rm = reg_re.match(o)
                regs.append((int(rm.group(1)) if rm.group(1) != 'Z' else 255, bool(rm.group(2))) if rm else (None, False))
            (x['d'], _), (x['a'], x['ra']), (x['b'], x['rb']), (x['c'], x['rc']) = regs
        ins.append(x)
    return ins

def counts(ins, words):
    ff = [i for i, x in enumerate(ins) if x['op'] == 'FFMA']
    if not ff:
        return None, []
    body = ins[ff[0]:ff[-1] + 1]
    c = collections.OrderedDict()
    c['loop span (instructions)'] = len(body)
    c['FFMA'] = len(ff)
    ops = collections.Counter(x['op'] for x in body if x['op'] != 'FFMA')
    c['other ops in the span'] = ' '.join('%s×%d' % kv for kv in sorted(ops.items()))
    for k in ('ab-same-bank', 'ab-same-bank-read', 'any2-same-bank-read', 'all3-same-parity',
              'reuse-a', 'reuse-b'):
        c[k] = 0
    prev = None
    for x in body:
        if x['op'] == 'FFMA' and None not in (x['a'], x['b'], x['c']):
            cached = lambda s, f: prev is not None and prev['op'] == 'FFMA' and prev[f] and prev[s] == x[s]
            ca, cb, cc = cached('a', 'ra'), cached('b', 'rb'), cached('c', 'rc')
            c['reuse-a'] += ca
            c['reuse-b'] += cb
            c['ab-same-bank'] += x['a'] % 4 == x['b'] % 4
            c['ab-same-bank-read'] += not ca and not cb and x['a'] % 4 == x['b'] % 4
            live = [x[s] % 4 for s, k in (('a', ca), ('b', cb), ('c', cc)) if not k]
            c['any2-same-bank-read'] += len(live) != len(set(live))
            c['all3-same-parity'] += (not ca and not cb and not cc
                                      and x['a'] % 2 == x['b'] % 2 == x['c'] % 2)
        prev = x
    if words:
        c['stall-sum'] = sum(x['stall'] for x in body)
    allops = collections.Counter(x['op'] for x in ins)
    c['whole kernel (instructions)'] = len(ins)
    for k, code in (('R2UR', 'op2ca'), ('WARPSYNC', 'op948'), ('EXIT', 'op94d')):
        c[k] = allops.get(k if not words else code, 0)
    return c, body

def table(title, rows):
    names = list(rows)
    keys = list(next(iter(rows.values())).keys())
    print('\n%s\n' % title)
    print('| count | ' + ' | '.join(names) + ' |')
    print('|---|' + '---:|' * len(names))
    for k in keys:
        print('| %s | ' % k + ' | '.join(str(rows[n][k]) for n in names) + ' |')

word_rows, text_rows, loops = {}, {}, {}
for name, f in cubins:
    kernel = open(os.path.join(out, name + '.kernel')).read().strip()
    c, body = counts(from_words(text_of(f, kernel)), True)
    if c:
        word_rows[name] = c
    sass = os.path.join(out, name + '.sass')
    if tool and os.path.getsize(sass) > 0:
        c, body = counts(from_text(sass), False)
        if c:
            text_rows[name] = c
            # the loop without addresses, registers renamed in order of appearance
            with open(os.path.join(out, name + '.loop.sass'), 'w') as w:
                for x in body:
                    w.write(re.sub(r'/\*[0-9a-f]+\*/\s*', '', x['text']) + '\n')
            loops[name] = [re.sub(r'/\*[0-9a-f]+\*/\s*', '', x['text']) for x in body]
if text_rows:
    table('From %s (main loop of each kernel):' % tool, text_rows)
if word_rows:
    table('From the instruction words (this script\'s decoder):', word_rows)
def renamed(loop):
    seen = {}
    sub = lambda m: 'R%d' % seen.setdefault(m.group(1), len(seen))
    return [re.sub(r'\bR(\d+)\b', sub, x) for x in loop]
names = list(loops)
with open(os.path.join(out, 'diffs.txt'), 'w') as w:
    for i in range(1, len(names)):
        a, b = loops[names[0]], loops[names[i]]
        same = sum(x == y for x, y in zip(a, b))
        na, nb = renamed(a), renamed(b)
        shape = sum(x == y for x, y in zip(na, nb))
        line = ('%s vs %s: of %d loop instructions, %d identical, %d identical once registers are '
                'renamed in order of first use' % (names[0], names[i], max(len(a), len(b)), same, shape))
        print(line)
        w.write(line + '\n')
PY
