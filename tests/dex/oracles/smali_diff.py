#!/usr/bin/env python3
"""Compare the baksmali text of an original dex file with that of its instrumented version,
method by method, after removing what the instrumenter is allowed to add.

Both trees must come from `baksmali d --di false --pr false` (no debug info; registers
printed as vN, never pN). Standard library only.

usage: smali_diff.py [--probe-class Lcom/tencent/matrix/trace/core/AppMethodBeat;]
                     [--max-diffs N] [--jobs N] [--json OUT.json] [--always-normalize]
                     [--moved-to NEW_DEX_SMALI_DIR]... ORIG_SMALI_DIR OUT_SMALI_DIR

Exit status 0 when every original class and method is present and equal after
normalization and no probe-placement violation was found; 1 otherwise; 2 on bad usage.

The model
---------
A method body is read into a sequence of *units*: instructions and payloads
(.packed-switch, .sparse-switch, .array-data blocks), in text order. Labels name unit
positions; `.catch`/`.catchall` directives give each unit its *handler list*, the ordered
(exception type, handler position) pairs of the try item covering it. Each unit is then
compared as (opcode, operands, handler list) where every label operand or handler is
replaced by the index of the unit it reaches in the normalized sequence. Label names, the
way try ranges are split or merged, and where payloads sit therefore never matter; what
every original instruction does, reaches and is covered by does.

The normalization rules (change them here; each has a name used in the report)
-------------------------------------------------------------------------------
 R1 registers   `.registers`/`.locals` lines are dropped; the output's count must be >= the
                original's (else a diff).
 R2 debug       `.line`, `.local`, `.end local`, `.restart local`, `.prologue`,
                `.epilogue`, `.source` inside methods are dropped (there should be none
                with --di false), and `.param vN` becomes `.param +K` where K is N's offset
                in the parameter window (the window moves when registers grow).
 R3 probes      an `invoke-static` or `invoke-static/range` of a method of the probe class
                is dropped; for `i(I)V` and `o(I)V`, so is the unit right before it when
                it is a `const*` writing the invoke's one register (the probe id). Any
                other method of the probe class (`at(Landroid/app/Activity;Z)V`) is
                dropped alone: its arguments are the method's own registers.
 R4 handler     a block `move-exception vE; <R3 probes, at least one o>; throw vE` is the
                added catch-all handler: dropped, and every handler-list entry that
                reaches it is dropped.
 R5 entry moves a leading run (from unit 0, mixed with R3 probes) of `move/16`,
                `move-object/16`, `move-wide/16` whose source is in the output's
                parameter window is dropped. It must be exactly the slicer shift: every
                parameter copied from its new place (registers_out - ins + k) to its old
                one (registers_orig - ins + k), with the move kind of its type (wide for
                J/D, object for references and `this`, plain otherwise); else a diff.
 R6 nop         `nop` is dropped (alignment before payloads).
 R7 opcodes     `goto/16` and `goto/32` read as `goto`; `const-string/jumbo` as
                `const-string` (string indices grow when the probe's names are added).
 R8 labels      a label or handler operand is replaced by `@K`, K the index in the
                normalized sequence of the first kept unit at or after the label (a label
                in front of a dropped probe reaches the instruction after the probe).
                Instructions are compared with their handler lists; payloads without
                (they are data: whether a try range spans them does not matter).
 R9 added       a method present only in the output is allowed when its name and
                descriptor are `onWindowFocusChanged(Z)V` (added to Activities); it is
                counted, not compared. Any other added or missing method or class is a
                diff. Everything outside methods (class line, super, interfaces,
                annotations, fields) must be identical text, after R10.
 R10 defaults   a static field's initial value equal to the type's default (`= false`,
                `= 0x0`, `= null`, ...) reads as no value: a dex writer may trim trailing
                default entries of static_values (smali does), which changes nothing.

Probe-placement checks (violations, reported separately; each is a failure)
---------------------------------------------------------------------------
 V1 covered        a probe unit is covered by an original handler (one that is not the
                   R4 block): the probe's scratch register would flow into that handler,
                   and in a synchronized region a throwing probe breaks ART's monitor rule.
 V2 move-result    a probe sits right before a `move-result*` (between an invoke and its
                   result), or right after a handler label, before `move-exception`.
 V3 reentry        a branch or handler reaches a probe or R5 move that precedes every
                   original unit: a back-edge to pc 0 would run `i` (or the moves) again.
 V4 balance        in a method with i/o probes: a probe without its id const, ids that
                   differ within the method, o without i, or a `return*` not directly
                   preceded by an `o` probe (the static half of the balance check; the
                   behaviour oracle's counting stub is the dynamic half).
"""
import argparse
import json
import multiprocessing
import os
import re
import sys

DEFAULT_PROBE = 'Lcom/tencent/matrix/trace/core/AppMethodBeat;'
DEBUG_DIRECTIVES = ('.line', '.local', '.end local', '.restart local', '.prologue',
                    '.epilogue', '.source')
PAYLOAD_START = {'.packed-switch': '.end packed-switch', '.sparse-switch': '.end sparse-switch',
                 '.array-data': '.end array-data'}
BRANCHING = re.compile(r'^(goto|if-|packed-switch|sparse-switch|fill-array-data)')
LABEL_REF = re.compile(r':[A-Za-z0-9_$]+')
REG = re.compile(r'\bv(\d+)\b')
PARAM_MOVES = {'move/16', 'move-object/16', 'move-wide/16'}
DEFAULT_VALUE = re.compile(r"^(\.field .*\bstatic\b.*) = (false|0x0[Lts]?|'\\u0000'|0\.0f?|null)$")
OPCODE_ALIAS = {'goto/16': 'goto', 'goto/32': 'goto', 'const-string/jumbo': 'const-string'}


class SmaliError(Exception):
    pass


# --------------------------------------------------------------------------- reading

def read_class(path):
    """One smali file -> (class name, [class-level lines], {method key: (flags, lines)})."""
    name = None
    outside = []
    methods = {}
    cur = None
    with open(path, encoding='utf-8') as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            if cur is not None:
                if line == '.end method':
                    key, flags, body = cur
                    methods[key] = (flags, body)
                    cur = None
                else:
                    cur[2].append(line)
                continue
            if line.startswith('.method '):
                words = line.split()
                cur = (words[-1], ' '.join(words[1:-1]), [])
                continue
            if line.startswith('.class '):
                name = line.split()[-1]
            if line.startswith('.field '):
                line = DEFAULT_VALUE.sub(r'\1', line)   # R10
            outside.append(line)
    if name is None or cur is not None:
        raise SmaliError('%s: no .class line or an unterminated method' % path)
    return name, outside, methods


def read_tree(root):
    """Every .smali file under root -> {class name: path}."""
    out = {}
    for d, _, files in os.walk(root):
        for fn in files:
            if fn.endswith('.smali'):
                p = os.path.join(d, fn)
                with open(p, encoding='utf-8') as f:
                    for line in f:
                        if line.startswith('.class '):
                            out[line.split()[-1]] = p
                            break
    return out


def param_words(key, flags):
    """Kinds of the parameter words of a method: 'o' object, 'w' wide (one entry per
    pair), 'i' other; the ins size is the sum of 1 per 'o'/'i' and 2 per 'w'."""
    desc = key[key.index('(') + 1:key.index(')')]
    kinds = [] if 'static' in flags.split() else ['o']
    i = 0
    while i < len(desc):
        c = desc[i]
        if c == '[':
            while desc[i] == '[':
                i += 1
            if desc[i] == 'L':
                i = desc.index(';', i)
            kinds.append('o')
        elif c == 'L':
            i = desc.index(';', i)
            kinds.append('o')
        elif c in 'JD':
            kinds.append('w')
        else:
            kinds.append('i')
        i += 1
    return kinds


class Unit:
    __slots__ = ('op', 'args', 'text', 'labels', 'handlers', 'role')

    def __init__(self, op, args, text):
        self.op = op          # opcode or payload directive
        self.args = args      # operand text (payload: its lines joined by ' | ')
        self.text = text
        self.labels = []      # labels defined right before this unit
        self.handlers = []    # [(type or '*', handler label)]
        self.role = None      # None (original), or 'probe', 'id', 'handler', 'move'


class Method:
    """A parsed method body: units, meta lines (annotations, .param), registers."""

    def __init__(self, key, flags, lines):
        self.key = key
        self.flags = flags
        self.registers = None
        self.meta = []
        self.units = []
        self.label_pos = {}
        tries = []
        pending = []
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            i += 1
            if line.startswith('.registers ') or line.startswith('.locals '):
                self.registers = int(line.split()[1], 0)
                if line.startswith('.locals '):
                    self.registers += sum(2 if k == 'w' else 1 for k in param_words(key, flags))
            elif line.startswith(DEBUG_DIRECTIVES):
                continue
            elif line.startswith('.annotation') or line.startswith('.param'):
                end = '.end annotation' if line.startswith('.annotation') else '.end param'
                block = [line]
                if line.startswith('.param') and (i >= n or not lines[i].startswith('.annotation')):
                    self.meta.append(line)   # a .param without annotations has no .end param
                    continue
                while i < n:
                    block.append(lines[i])
                    i += 1
                    if block[-1] == end:
                        break
                self.meta.extend(block)
            elif line.startswith('.catch'):
                m = re.match(r'\.catch(all)?\s*(\S*)\s*\{(:\S+) \.\. (:\S+)\}\s*(:\S+)$', line)
                if not m:
                    raise SmaliError('%s: cannot read %r' % (key, line))
                tries.append(('*' if m.group(1) else m.group(2), m.group(3), m.group(4), m.group(5)))
            elif line.startswith(':'):
                pending.append(line)
                self.label_pos[line] = len(self.units)
            elif line.split()[0] in PAYLOAD_START:
                end = PAYLOAD_START[line.split()[0]]
                body = [line]
                while i < n and lines[i] != end:
                    body.append(lines[i])
                    i += 1
                i += 1
                u = Unit(line.split()[0], ' | '.join(body), '\n'.join(body + [end]))
                u.labels, pending = pending, []
                self.units.append(u)
            elif line.startswith('.'):
                raise SmaliError('%s: unknown directive %r' % (key, line))
            else:
                op, _, args = line.partition(' ')
                u = Unit(op, args.strip(), line)
                u.labels, pending = pending, []
                self.units.append(u)
        self.end_labels = pending
        for label in pending:
            self.label_pos[label] = len(self.units)
        # A unit's handler list: the directives whose range covers it, in text order
        # (dex try items never overlap, so this is one try item's handlers).
        for typ, start, end, handler in tries:
            for p in range(self.pos(start), self.pos(end)):
                self.units[p].handlers.append((typ, handler))

    def pos(self, label):
        if label not in self.label_pos:
            raise SmaliError('%s: undefined label %s' % (self.key, label))
        return self.label_pos[label]


# --------------------------------------------------------------------------- rules

def invoke_regs(args):
    """Registers of an invoke's {...} list, expanded for ranges."""
    m = re.match(r'\{([^}]*)\}', args)
    if not m or not m.group(1).strip():
        return []
    inner = m.group(1)
    if '..' in inner:
        a, b = (int(x.strip()[1:]) for x in inner.split('..'))
        return list(range(a, b + 1))
    return [int(x.strip()[1:]) for x in inner.split(',')]


def dest_reg(u):
    m = REG.match(u.args)
    return int(m.group(1)) if m else None


def mark_probes(m, probe):
    """R3: mark probe invokes and their id consts. Returns [(unit index, method name)]."""
    found = []
    ref = probe + '->'
    for k, u in enumerate(m.units):
        if not u.op.startswith('invoke-static') or ref not in u.args:
            continue
        target = u.args.split(ref, 1)[1]
        u.role = 'probe'
        found.append((k, target))
        if target in ('i(I)V', 'o(I)V') and k > 0:
            prev = m.units[k - 1]
            regs = invoke_regs(u.args)
            if (prev.role is None and prev.op.startswith('const') and not prev.op.startswith('const-')
                    and len(regs) == 1 and dest_reg(prev) == regs[0]):
                prev.role = 'id'
    return found


def mark_handler(m):
    """R4: mark the added catch-all blocks; return the set of their unit positions."""
    starts = set()
    for k, u in enumerate(m.units):
        if u.op != 'move-exception' or u.role is not None:
            continue
        e = dest_reg(u)
        j = k + 1
        saw_o = False
        while j < len(m.units) and m.units[j].role in ('probe', 'id'):
            saw_o = saw_o or m.units[j].args.endswith('->o(I)V')
            j += 1
        if saw_o and j < len(m.units) and m.units[j].op == 'throw' and dest_reg(m.units[j]) == e:
            u.role = m.units[j].role = 'handler'
            starts.add(k)
    return starts


def mark_moves(m, orig_registers):
    """R5: mark the entry parameter moves; return a diff message or None."""
    kinds = param_words(m.key, m.flags)
    ins = sum(2 if k == 'w' else 1 for k in kinds)
    base_out = m.registers - ins
    moves = []
    for u in m.units:
        if u.role in ('probe', 'id'):
            continue
        if u.op not in PARAM_MOVES:
            break
        regs = [int(x) for x in REG.findall(u.args)]
        if len(regs) != 2 or regs[1] < base_out:
            break
        u.role = 'move'
        moves.append((u.op, regs[0], regs[1]))
    if not moves:
        return None
    want = []
    off = 0
    base_orig = orig_registers - ins
    for k in kinds:
        op = {'w': 'move-wide/16', 'o': 'move-object/16', 'i': 'move/16'}[k]
        want.append((op, base_orig + off, base_out + off))
        off += 2 if k == 'w' else 1
    if sorted(moves, key=lambda t: t[1]) != want:
        return 'R5 entry moves %s are not the shift of %d parameter words from v%d.. to v%d..' % (
            ', '.join('%s v%d, v%d' % t for t in moves), ins, base_out, base_orig)
    return None


def normalize(m, probe, orig_registers=None, counts=None):
    """Apply R1-R8 to a parsed method. Returns (lines, notes) where lines is the
    normalized text and notes is a list of diff messages found by the rules themselves
    (R1, R5) plus violations ('V1 ...')."""
    notes = []
    probes = mark_probes(m, probe)
    added_handlers = mark_handler(m) if probes else set()
    if orig_registers is not None and m.registers is not None:
        if m.registers < orig_registers:
            notes.append('R1 registers shrank from %d to %d' % (orig_registers, m.registers))
        elif m.units:
            msg = mark_moves(m, orig_registers)
            if msg:
                notes.append(msg)
    if counts is not None:
        for _, target in probes:
            name = target.split('(')[0]
            counts[name] = counts.get(name, 0) + 1
    handler_labels = {lab for k in added_handlers for lab in m.units[k].labels}

    keep = [k for k, u in enumerate(m.units) if u.role is None and u.op != 'nop']
    # R8: a label reaches the first kept unit at or after its position.
    index_at = [0] * (len(m.units) + 1)
    pos = 0
    for k in range(len(m.units) + 1):
        while pos < len(keep) and keep[pos] < k:
            pos += 1
        index_at[k] = pos

    def lab(label):
        return '@%d' % index_at[m.pos(label)]

    def handler_list(u):
        return [(t, lab(h)) for t, h in u.handlers if h not in handler_labels]

    lines = list(m.meta)
    for k in keep:
        u = m.units[k]
        op = OPCODE_ALIAS.get(u.op, u.op)
        if u.op in PAYLOAD_START:
            args = LABEL_REF.sub(lambda x: lab(x.group(0)), u.args)
        elif BRANCHING.match(u.op):
            args = LABEL_REF.sub(lambda x: lab(x.group(0)), u.args)
        else:
            args = u.args
        text = (op + ' ' + args).rstrip()
        hl = handler_list(u) if u.op not in PAYLOAD_START else []   # payloads are data
        if hl:
            text += '    ; catch ' + ', '.join('%s -> %s' % h for h in hl)
        lines.append(text)

    # Violations.
    first_orig = next((k for k, u in enumerate(m.units) if u.role is None and u.op != 'nop'),
                      len(m.units))
    targets = set()
    for u in m.units:
        if u.role is None and (BRANCHING.match(u.op) or u.op in PAYLOAD_START):
            targets.update(m.pos(x) for x in LABEL_REF.findall(u.args))
        targets.update(m.pos(h) for _, h in u.handlers)
    handler_starts = {m.pos(h) for u in m.units for _, h in u.handlers}
    for k, u in enumerate(m.units):
        if u.role not in ('probe', 'id'):
            continue
        orig_h = [h for h in u.handlers if h[1] not in handler_labels]
        if orig_h:
            notes.append('V1 probe covered by an original handler: %s (catch %s)'
                         % (u.text, ', '.join('%s -> %s' % h for h in orig_h)))
        if u.role == 'probe' and k + 1 < len(m.units) and m.units[k + 1].op.startswith('move-result'):
            notes.append('V2 probe between an invoke and its move-result: %s' % u.text)
        if k in handler_starts and any(
                v.op == 'move-exception' for v in m.units[k:k + 3] if v.role is None):
            notes.append('V2 probe at a handler start, before move-exception: %s' % u.text)
    if any(k in targets for k in range(first_orig) if m.units[k].role in ('probe', 'id', 'move')):
        notes.append('V3 a branch or handler reaches the entry probe (it would run again)')
    io = [(k, t[0]) for k, t in probes if t in ('i(I)V', 'o(I)V')]
    if io:
        ids = set()
        for k, t in io:
            prev = m.units[k - 1] if k > 0 else None
            if prev is not None and prev.role == 'id':
                ids.add(prev.args.split(',', 1)[1].strip())
            else:
                notes.append('V4 %s probe without its id const: %s' % (t, m.units[k].text))
        if len(ids) > 1:
            notes.append('V4 probes of one method carry different ids: %s' % ', '.join(sorted(ids)))
        if not any(t == 'i' for _, t in io):
            notes.append('V4 o probes without an i probe')
        for k, u in enumerate(m.units):
            if u.role is None and u.op.startswith('return') and not (
                    k > 0 and m.units[k - 1].role == 'probe' and m.units[k - 1].args.endswith('->o(I)V')):
                notes.append('V4 %s not preceded by an o probe' % u.text)
    return lines, notes


# --------------------------------------------------------------------------- comparing

def compare_class(args):
    """Compare one class; returns a result dict (picklable, for the worker pool)."""
    name, orig_path, out_path, probe, always = args
    r = {'class': name, 'methods': 0, 'identical': 0, 'differ': [], 'added': [],
         'violations': [], 'counts': {}, 'probed_methods': 0}
    try:
        _, o_out, o_methods = read_class(orig_path)
        _, n_out, n_methods = read_class(out_path)
        if o_out != n_out:
            r['differ'].append((name + ' (class level)', unified(o_out, n_out)))
        for key, (flags, body) in o_methods.items():
            r['methods'] += 1
            label = '%s->%s' % (name, key)
            if key not in n_methods:
                r['differ'].append((label, ['- method missing from the output']))
                continue
            nflags, nbody = n_methods[key]
            if flags != nflags:
                r['differ'].append((label, ['- .method %s' % flags, '+ .method %s' % nflags]))
                continue
            if body == nbody and not always:   # fast path: untouched method
                r['identical'] += 1
                continue
            mo = Method(key, flags, body)
            lo, notes_o = normalize(mo, probe)
            mn = Method(key, nflags, nbody)
            before = dict(r['counts'])
            ln, notes = normalize(mn, probe, mo.registers, r['counts'])
            if r['counts'] != before:
                r['probed_methods'] += 1
            viol = [x for x in notes if x.startswith('V')]
            diffs = [x for x in notes if not x.startswith('V')]
            if viol:
                r['violations'].append((label, viol))
            if lo != ln or diffs:
                r['differ'].append((label, diffs + unified(lo, ln)))
            else:
                r['identical'] += 1
        for key in n_methods:
            if key not in o_methods:
                if key == 'onWindowFocusChanged(Z)V':
                    r['added'].append('%s->%s' % (name, key))
                else:
                    r['differ'].append(('%s->%s' % (name, key), ['+ method added']))
    except SmaliError as e:
        r['differ'].append((name, ['! ' + str(e)]))
    return r


MARKER_CLASS = 'Lcom/tencent/matrix/trace/generated/BuildId;'


def is_marker(path):
    """The build-id marker as tc-instrument writes it: no methods, one field, the id."""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    fields = re.findall(r'^\.field .*$', text, re.M)
    return ('.method' not in text and len(fields) == 1 and
            re.match(r'^\.field public static final ID:Ljava/lang/String; = "[0-9a-f]+"$', fields[0]) is not None)


def unified(a, b, context=2, limit=40):
    import difflib
    out = [x for x in difflib.unified_diff(a, b, 'original', 'output', n=context, lineterm='')][2:]
    return out[:limit] + (['... (%d more lines)' % (len(out) - limit)] if len(out) > limit else [])


def main():
    ap = argparse.ArgumentParser(description='Compare baksmali trees of an original and an '
                                 'instrumented dex after removing the probes (see the module doc).')
    ap.add_argument('--probe-class', default=DEFAULT_PROBE)
    ap.add_argument('--max-diffs', type=int, default=5)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--json')
    ap.add_argument('--always-normalize', action='store_true',
                    help='normalize methods whose text is unchanged too (tests the rules)')
    ap.add_argument('--moved-to', action='append', default=[], metavar='SMALI_DIR',
                    help='the tree of an output dex file without an original (a new '
                    'classes17.dex): an original class missing from OUT is looked up '
                    'there, compared, and listed in the JSON as "moved"')
    ap.add_argument('orig')
    ap.add_argument('out')
    a = ap.parse_args()
    if not (a.probe_class.startswith('L') and a.probe_class.endswith(';')):
        ap.error('--probe-class must be a descriptor like %s' % DEFAULT_PROBE)

    orig = read_tree(a.orig)
    out = read_tree(a.out)
    moved_to = {}
    for d in a.moved_to:
        moved_to.update(read_tree(d))
    moved = sorted(c for c in set(orig) - set(out) if c in moved_to)
    for c in moved:
        out[c] = moved_to[c]
    missing = sorted(set(orig) - set(out))
    # tc-instrument's build-id marker (one dex of a build gets it): a class holding only
    # its id as a constant, no code; any other new class is a difference
    marker = [c for c in set(out) - set(orig) if c == MARKER_CLASS and is_marker(out[c])]
    extra = sorted(set(out) - set(orig) - set(marker))
    work = [(c, orig[c], out[c], a.probe_class, a.always_normalize) for c in sorted(set(orig) & set(out))]
    if a.jobs > 1 and len(work) > 200:
        with multiprocessing.Pool(a.jobs) as pool:
            results = pool.map(compare_class, work, chunksize=64)
    else:
        results = [compare_class(w) for w in work]

    tot = {'classes': len(orig), 'methods': 0, 'identical': 0, 'differ': 0, 'added': 0,
           'violations': 0, 'probed_methods': 0, 'missing_classes': len(missing),
           'extra_classes': len(extra), 'probes': {}, 'moved': moved, 'marker': bool(marker)}
    diffs = [(c, ['- class missing from the output']) for c in missing]
    diffs += [(c, ['+ class added']) for c in extra]
    viols = []
    for r in results:
        tot['methods'] += r['methods']
        tot['identical'] += r['identical']
        tot['added'] += len(r['added'])
        tot['probed_methods'] += r['probed_methods']
        diffs += r['differ']
        viols += r['violations']
        for k, v in r['counts'].items():
            tot['probes'][k] = tot['probes'].get(k, 0) + v
    tot['differ'] = len(diffs)
    tot['violations'] = len(viols)
    ok = not diffs and not viols
    print('methods %d, identical %d, differ %d, added %d (onWindowFocusChanged), '
          'violations %d; probes %s in %d methods%s'
          % (tot['methods'], tot['identical'], len(diffs), tot['added'], len(viols),
             ' '.join('%s=%d' % kv for kv in sorted(tot['probes'].items())) or 'none',
             tot['probed_methods'], '; %d classes moved to another dex' % len(moved) if moved else ''))
    for what, items in (('diff', diffs), ('violation', viols)):
        for label, text in items[:a.max_diffs]:
            print('--- %s: %s' % (what, label))
            for t in text:
                print('    ' + t)
        if len(items) > a.max_diffs:
            print('--- ... %d more %ss' % (len(items) - a.max_diffs, what))
    if a.json:
        tot['first_diffs'] = [d[0] for d in diffs[:50]]
        tot['first_violations'] = [v[0] for v in viols[:50]]
        with open(a.json, 'w') as f:
            json.dump(tot, f, indent=1, sort_keys=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
