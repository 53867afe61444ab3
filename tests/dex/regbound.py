#!/usr/bin/env python3
"""Methods that name a register at or past their registers_size, read from `dexdump -d`.

usage: regbound.py [--max N] FILE.dex...      (or: dexdump -d FILE.dex | regbound.py -)

ART's method verifier rejects such a method outright (a hard failure: VerifyError when
the class is first used), dexdump's structural check (-c) does not look, and our own
tc-dexverify is the instrumenter's own tests' checker: this one reads ART's disassembler
(dexdump from ART 11), so a bug shared by the instrumenter and tc-dexverify cannot hide it.
Every register an instruction names is checked, with the second half of a wide operand
(dexdump prints only the first) and both ends of a /range list.

Prints one line per offending instruction (at most --max per file, default 5), then
"FILE: M methods (T with no register beside the parameters), R register operands;
B methods name a register out of range (I instructions)"; exit 1 when B > 0, 2 when dexdump fails.
"""
import re, subprocess, sys

# Operand positions (0 = first register printed) that hold a wide (long/double) pair.
WIDE = {}
for op in ('move-wide', 'move-wide/from16', 'move-wide/16', 'neg-long', 'not-long', 'neg-double',
           'long-to-double', 'double-to-long'):
    WIDE[op] = (0, 1)
for op in ('move-result-wide', 'return-wide', 'const-wide/16', 'const-wide/32', 'const-wide',
           'const-wide/high16', 'aget-wide', 'aput-wide', 'iget-wide', 'iput-wide', 'sget-wide',
           'sput-wide', 'int-to-long', 'int-to-double', 'float-to-long', 'float-to-double',
           'iget-wide-quick', 'iput-wide-quick'):
    WIDE[op] = (0,)
for op in ('long-to-int', 'long-to-float', 'double-to-int', 'double-to-float'):
    WIDE[op] = (1,)
for op in ('cmpl-double', 'cmpg-double', 'cmp-long'):
    WIDE[op] = (1, 2)
for kind in ('long', 'double'):
    for b in ('add', 'sub', 'mul', 'div', 'rem', 'and', 'or', 'xor', 'shl', 'shr', 'ushr'):
        if kind == 'double' and b not in ('add', 'sub', 'mul', 'div', 'rem'):
            continue
        shift = b in ('shl', 'shr', 'ushr')
        WIDE['%s-%s' % (b, kind)] = (0, 1) if shift else (0, 1, 2)
        WIDE['%s-%s/2addr' % (b, kind)] = (0,) if shift else (0, 1)

METHOD = re.compile(r'\|\[[0-9a-f]+\] (.*)$')
INSN = re.compile(r'\|[0-9a-f]{4,}: ([a-z0-9/-]+)(?: (.*))?$')
REG = re.compile(r'v(\d+)$')


def registers_named(op, args):
    """The register numbers an instruction names, both halves of wide operands."""
    args = args.split('//')[0].split('"')[0]
    regs = []
    m = re.match(r'\{([^}]*)\}', args)
    if m:
        inner = m.group(1).strip()
        r = re.fullmatch(r'v(\d+) \.\. v(\d+)', inner)
        if r:
            regs += [int(r.group(1)), int(r.group(2))]
        elif inner:
            regs += [int(x.strip()[1:]) for x in inner.split(',')]
        return regs
    pos = 0
    for tok in args.split(','):
        r = REG.fullmatch(tok.strip())
        if not r:
            break
        n = int(r.group(1))
        regs.append(n)
        if pos in WIDE.get(op, ()):
            regs.append(n + 1)
        pos += 1
    return regs


def check(lines, name, max_print):
    methods = operands = insns = tight = 0
    bad = set()
    size = None
    method = '?'
    printed = 0
    for line in lines:
        s = line.strip()
        if s.startswith('registers'):
            size = int(s.split(':')[1])
            continue
        if s.startswith('ins ') and size is not None:
            tight += int(s.split(':')[1]) == size
            continue
        m = METHOD.search(line)
        if m:
            method = m.group(1)
            methods += 1
            continue
        m = INSN.search(line)
        if not m or size is None:
            continue
        op, args = m.group(1), m.group(2) or ''
        if op.endswith('-data') or op == 'nop':
            continue
        regs = registers_named(op, args)
        operands += len(regs)
        over = [r for r in regs if r >= size]
        if over:
            insns += 1
            bad.add(method)
            if printed < max_print:
                printed += 1
                print('%s: %s: %s: register v%d out of range (registers_size %d)'
                      % (name, method, line.split('|', 1)[1].strip(), max(over), size))
    print('%s: %d methods (%d with no register beside the parameters), %d register operands; '
          '%d methods name a register out of range (%d instructions)'
          % (name, methods, tight, operands, len(bad), insns))
    return len(bad)


def main():
    args = sys.argv[1:]
    max_print = 5
    if args[:1] == ['--max']:
        max_print, args = int(args[1]), args[2:]
    if not args:
        sys.exit(__doc__.split('\n\n')[1])
    bad = 0
    for path in args:
        if path == '-':
            bad += check(sys.stdin, '-', max_print)
            continue
        p = subprocess.Popen(['dexdump', '-d', path], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, errors='surrogateescape')
        bad += check(p.stdout, path, max_print)
        if p.wait() != 0:
            print('%s: dexdump -d failed (exit %d)' % (path, p.returncode))
            sys.exit(2)
    sys.exit(1 if bad else 0)


main()
