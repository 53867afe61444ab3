#!/usr/bin/env python3
"""Small Dalvik methods over every combination that matters to a code rewriter, as smali.

usage: gen_methods.py OUTDIR

Writes OUTDIR/smali/**/*.smali (assemble with `smali a --api 26`) and OUTDIR/shapes.tsv,
one line per method: class, name, descriptor, shape, registers_size, value register,
and what the instrumenter must do with it ("hook", or "refuse:<text of the reason>").

A method is one *shape* (kind x parameters x return kind x body feature, and for
constructors where `this` gets initialized) placed in every frame from registers_size =
ins_size to ins_size + 3 and with its value in every register that can hold it: a
local, a parameter register (R8 moves an invoke's result into p0, a wide one into the
parameter pair), or the wide pair across the locals/parameters boundary. Every method
is written so that ART's verifier accepts it (the test checks each with tc-dexverify,
dexdump and baksmali before instrumenting: a failure there is a bug here, not in the
hooks); a shape that does not fit a frame (a monitor needs a lock register besides the
value, a switch a key register) is not generated for that frame.

Kinds: static, instance, constructor; constructors initialize `this` (Object's
<init>) first, after a static call, on a move-object copy, after a join, inside a try
whose handler rethrows, after an argument check whose throw is laid out at the end, or
after a body laid out before the call (reached by a goto after it); the feature runs
after the init call. Return kinds: void (the "value" is then a result used and
dropped), int, float, object, long, double. Features: plain; value by const; a range
call; filled-new-array; try with a typed handler that returns; try with a catch-all
that rethrows; a try covering the return; a try covering only the return; a handler
that is the return itself; d8's synchronized shape; a typed try inside it; two returns
inside a monitor; nested monitors; packed and sparse switches whose targets include a
return and a goto to it; fill-array-data with an int and an odd-length byte payload;
two returns; a goto over 20 returns (it must grow once probes are in); a back edge to
pc 0 (to just after the init call in constructors). Also Activities'
onWindowFocusChanged(Z)V (the instrumenter adds at(this, hasFocus)) and frames past 16
and near 256 registers.

Expected refusals (the method is reported and left as it was): a monitor held by a
call that no catch-all protects (the hook's catch-all would merge two lock depths); a
constructor initializing `this` on two paths; a constructor whose throw is reached both
before and after the init call (o() there would close an i() never made on one path);
a constructor whose frame would grow past 256 registers (const takes an 8-bit register).

Every method calls something (Matrix's filter traces only methods that do), through
static methods of Lgen/H; that are referenced, never defined.
"""
import os
import sys

JT = {'I': 'I', 'Z': 'Z', 'F': 'F', 'L': 'Ljava/lang/Object;', 'J': 'J', 'D': 'D', 'V': 'V',
      'T': 'Ljava/lang/Object;'}  # T: this, passed on as an Object
WIDE = ('J', 'D')
RET = {'V': 'return-void', 'I': 'return', 'F': 'return', 'L': 'return-object',
       'J': 'return-wide', 'D': 'return-wide'}
RESULT = {'I': 'move-result', 'F': 'move-result', 'L': 'move-result-object',
          'J': 'move-result-wide', 'D': 'move-result-wide', 'V': 'move-result'}
H = 'Lgen/H;'

STATIC_PARAMS = ['', 'I', 'J', 'LI', 'JI']
INSTANCE_PARAMS = ['', 'I', 'J']
RETURNS = 'VIFLJD'
FEATURES = ['plain', 'const', 'range_call', 'filled_array', 'try_typed', 'try_catchall', 'try_over_return',
            'try_only_return', 'handler_return', 'sync', 'sync_try', 'sync_two_returns', 'sync_nested',
            'packed_switch', 'sparse_switch', 'fill_array', 'two_returns', 'long_goto', 'loop_pc0',
            'sync_unprotected']
CTOR_FEATURES = [f for f in FEATURES if f not in ('const', 'range_call', 'filled_array')]
INITS = ['init_first', 'init_after_call', 'init_via_copy', 'init_after_join', 'init_in_try',
         'init_throw_before', 'init_late_layout']

REFUSE_MONITOR = 'refuse:runs with a monitor held and no catch-all of its own'
REFUSE_TWO_INITS = 'refuse:more than one call initializes this'
REFUSE_SHARED = 'refuse:runs both before and after the init call'
REFUSE_256 = 'refuse:no scratch register below 256'
ACTIVITY_FEATURES = [f for f in CTOR_FEATURES if f != 'sync_unprotected']


def width(t):
    return 2 if t in WIDE else 1


class Frame:
    """One method's registers: R of them, the parameters (with this) in the last ins."""

    def __init__(self, kind, params, regs):
        self.kind = kind
        self.types = ([] if kind == 'static' else ['T']) + list(params)
        self.ins = sum(width(t) for t in self.types)
        self.R = regs
        self.first = regs - self.ins
        self.params = []  # (type, register)
        r = self.first
        for t in self.types:
            self.params.append((t, r))
            r += width(t)
        self.this = self.first if kind != 'static' else None


class Body:
    """Lines of a method body, its labels, and the registers written so far on the way
    to the final value (a parameter written is no longer passed on)."""

    def __init__(self, f):
        self.f = f
        self.lines = []
        self.tail = []      # code after the feature's (a constructor's pre-init paths)
        self.payloads = []
        self.clobbered = set()
        self.n = 0

    def label(self, base):
        self.n += 1
        return ':%s_%d' % (base, self.n)

    def emit(self, *lines):
        self.lines.extend(lines)

    def write(self, reg, t='I'):
        self.clobbered.update(range(reg, reg + width(t)))

    def intact(self, initialized=True):
        out = []
        for t, r in self.f.params:
            if t == 'T' and not initialized:
                continue
            if not self.clobbered & set(range(r, r + width(t))):
                out.append((t, r))
        return out

    def call(self, ret, args, name='k', rng=False):
        regs = []
        for t, r in args:
            regs += [r + k for k in range(width(t))]
        desc = ''.join(JT[t] for t, _ in args)
        if rng:
            # the range form, over the parameters as they lie (consecutive by construction)
            ops = 'v%d .. v%d' % (regs[0], regs[-1]) if regs else ''
            self.emit('invoke-static/range {%s}, %s->%s(%s)%s' % (ops, H, name, desc, JT[ret]))
        else:
            self.emit('invoke-static {%s}, %s->%s(%s)%s' % (', '.join('v%d' % r for r in regs), H, name, desc,
                                                            JT[ret]))

    def produce(self, ret, x, by_const=False, rng=False):
        """The value of kind ret into x (void: an int result used and dropped; x None:
        a void call)."""
        args = self.intact()
        if rng:
            # only a consecutive run of parameters can be a range: the longest prefix
            run = []
            for t, r in args:
                if run and run[-1][1] + width(run[-1][0]) != r:
                    break
                run.append((t, r))
            args = run
        if ret == 'V' and x is None:
            self.call('V', args, 'v')
            return
        if by_const:
            self.call('V', args, 'v')
            if ret in WIDE:
                self.emit('const-wide/16 v%d, 0x7' % x)
            elif ret == 'L':
                self.emit('const-string v%d, "gen"' % x)
            elif ret == 'F':
                self.emit('const/high16 v%d, 0x3f800000' % x)
            else:
                self.emit('const/4 v%d, 0x1' % x)
        else:
            self.call('I' if ret == 'V' else ret, args, rng=rng)
            self.emit('%s v%d' % (RESULT[ret], x))
        self.write(x, ret)
        if ret == 'V':
            self.emit('invoke-static {v%d}, %s->use(I)V' % (x, H))

    def ret(self, ret, x):
        self.emit(RET[ret] if ret == 'V' else '%s v%d' % (RET[ret], x))

    def key(self, avoid):
        """An int to branch on: an intact int parameter, or a call's result in the
        lowest register outside avoid. None when no register is left."""
        for t, r in self.intact():
            if t in 'IZ' and r not in avoid:
                return r
        for r in range(self.f.R):
            if r not in avoid:
                self.call('I', [], 'key')
                self.emit('move-result v%d' % r)
                self.write(r)
                return r
        return None

    def lock(self, avoid, initialized=True):
        """A register holding an object to lock: this, an intact object parameter, or a
        class constant in the lowest free register (a local if any)."""
        for t, r in self.intact(initialized):
            if t in 'TL' and r not in avoid:
                return r
        for r in sorted(range(self.f.R), key=lambda r: (r >= self.f.first, r)):
            if r not in avoid:
                self.emit('const-class v%d, %s' % (r, H))
                self.write(r)
                return r
        return None


def regs_of(ret, x):
    return set() if x is None else set(range(x, x + width(ret)))


def feature(b, feat, ret, x):
    """Appends the body of feature feat returning ret from x; False if it does not fit."""
    f = b.f
    xs = regs_of(ret, x)
    if feat == 'plain':
        b.produce(ret, x)
        b.ret(ret, x)
    elif feat == 'range_call':
        if x is None:
            return False
        b.produce(ret, x, rng=True)
        b.ret(ret, x)
    elif feat == 'filled_array':
        if ret != 'L':
            return False
        b.call('I', [], 'key')
        b.emit('move-result v%d' % x, 'filled-new-array {v%d, v%d}, [I' % (x, x), 'move-result-object v%d' % x)
        b.write(x)
        b.ret(ret, x)
    elif feat == 'handler_return':
        # a handler that is the return instruction itself (no move-exception)
        if x is not None:
            b.produce(ret, x)
        t0, t1, r = b.label('try_start'), b.label('try_end'), b.label('return')
        b.emit(t0, 'invoke-static {}, %s->v()V' % H, t1,
               '.catch Ljava/lang/Exception; {%s .. %s} %s' % (t0, t1, r), r)
        b.ret(ret, x)
    elif feat == 'try_only_return':
        if f.R == 0:
            return False
        b.produce(ret, x)
        e = x if x is not None else 0
        t0, t1, h = b.label('try_start'), b.label('try_end'), b.label('handler')
        b.emit(t0)
        b.ret(ret, x)
        b.emit(t1, '.catch Ljava/lang/Exception; {%s .. %s} %s' % (t0, t1, h), h, 'move-exception v%d' % e)
        b.write(e, 'L')
        b.produce(ret, x)
        b.ret(ret, x)
    elif feat == 'long_goto':
        # a goto over 20 returns: each probe adds 5 units, so it must grow to goto/16
        b.produce(ret, x)
        k = b.key(regs_of(ret, x))
        if k is None:
            return False
        tail, back = b.label('tail'), b.label('back')
        b.emit('goto %s' % tail, back)
        for _ in range(20):
            nxt = b.label('next')
            b.emit('if-eqz v%d, %s' % (k, nxt))
            b.ret(ret, x)
            b.emit(nxt)
        b.ret(ret, x)
        b.emit(tail, 'if-nez v%d, %s' % (k, back))
        b.ret(ret, x)
    elif feat == 'const':
        if x is None:
            return False
        b.produce(ret, x, by_const=True)
        b.ret(ret, x)
    elif feat in ('try_typed', 'try_catchall', 'try_over_return'):
        if f.R == 0:
            return False
        e = x if x is not None else 0
        t0, t1, h = b.label('try_start'), b.label('try_end'), b.label('handler')
        b.emit(t0)
        b.produce(ret, x)
        if feat == 'try_over_return':
            b.ret(ret, x)
        b.emit(t1)
        if feat == 'try_catchall':
            b.emit('.catchall {%s .. %s} %s' % (t0, t1, h))
        else:
            b.emit('.catch Ljava/lang/Exception; {%s .. %s} %s' % (t0, t1, h))
        if feat != 'try_over_return':
            b.ret(ret, x)
        b.emit(h, 'move-exception v%d' % e)
        b.write(e, 'L')
        if feat == 'try_catchall':
            b.emit('invoke-static {v%d}, %s->log(Ljava/lang/Throwable;)V' % (e, H), 'throw v%d' % e)
        else:
            b.produce(ret, x)
            b.ret(ret, x)
    elif feat == 'sync_two_returns':
        lk = b.lock(xs)
        if lk is None:
            return False
        es = [r for r in range(f.R) if r != lk]
        k = b.key(xs | {lk})
        if not es or k is None:
            return False
        e = x if x is not None and x != lk else es[0]
        t0, t1, h, other = b.label('try_start'), b.label('try_end'), b.label('handler'), b.label('other')
        b.emit('monitor-enter v%d' % lk, t0, 'if-eqz v%d, %s' % (k, other))
        b.produce(ret, x)
        b.emit('monitor-exit v%d' % lk)
        b.ret(ret, x)
        b.emit(other)
        b.produce(ret, x)
        b.emit('monitor-exit v%d' % lk)
        b.ret(ret, x)
        b.emit(h, 'move-exception v%d' % e, 'monitor-exit v%d' % lk, t1, 'throw v%d' % e,
               '.catchall {%s .. %s} %s' % (t0, t1, h))
    elif feat == 'sync_nested':
        l1 = b.lock(xs)
        l2 = None if l1 is None else b.lock(xs | {l1})
        if l2 is None:
            return False
        es = [r for r in range(f.R) if r not in (l1, l2)]
        if not es:
            return False
        e = x if x is not None and x not in (l1, l2) else es[0]
        a, bb, c, dd, h2, ee, h1, ff = (b.label(n) for n in ('a', 'b', 'c', 'd', 'inner', 'e', 'outer', 'f'))
        b.emit('monitor-enter v%d' % l1, a, 'monitor-enter v%d' % l2, bb)
        b.produce(ret, x)
        b.emit('monitor-exit v%d' % l2, c, 'monitor-exit v%d' % l1, dd)
        b.ret(ret, x)
        b.emit(h2, 'move-exception v%d' % e, 'monitor-exit v%d' % l2, ee, 'throw v%d' % e,
               h1, 'move-exception v%d' % e, 'monitor-exit v%d' % l1, ff, 'throw v%d' % e)
        for lo, hi, h in ((a, bb, h1), (bb, c, h2), (c, dd, h1), (h2, ee, h2), (ee, h1, h1), (h1, ff, h1)):
            b.emit('.catchall {%s .. %s} %s' % (lo, hi, h))
    elif feat in ('sync', 'sync_try', 'sync_unprotected'):
        lk = b.lock(xs)
        if lk is None:
            return False
        es = [r for r in range(f.R) if r != lk]
        if not es:
            return False
        e = x if x is not None and x != lk else es[0]
        b.emit('monitor-enter v%d' % lk)
        if feat == 'sync_unprotected':
            b.produce(ret, x)
            b.emit('monitor-exit v%d' % lk)
            b.ret(ret, x)
            return True
        t0, t1, h = b.label('try_start'), b.label('try_end'), b.label('handler')
        ti, hi = b.label('inner_end'), b.label('inner_handler')
        b.emit(t0)
        b.produce(ret, x)
        b.emit('monitor-exit v%d' % lk)
        b.ret(ret, x)
        if feat == 'sync_try':
            # a typed handler inside the monitor, itself covered by the catch-all
            b.emit(ti, hi, 'move-exception v%d' % e)
            b.write(e, 'L')
            b.emit('invoke-static {v%d}, %s->log(Ljava/lang/Throwable;)V' % (e, H))
            b.produce(ret, x)
            b.emit('monitor-exit v%d' % lk)
            b.ret(ret, x)
            b.emit('.catch Ljava/lang/Exception; {%s .. %s} %s' % (t0, ti, hi))
        b.emit(h, 'move-exception v%d' % e, 'monitor-exit v%d' % lk, t1, 'throw v%d' % e)
        b.emit('.catchall {%s .. %s} %s' % (t0, t1, h))
    elif feat in ('packed_switch', 'sparse_switch'):
        if x is None:
            if f.R == 0:
                return False
        else:
            b.produce(ret, x)
        k = b.key(xs)
        if k is None:
            return False
        tbl, c0, c1 = b.label('table'), b.label('case'), b.label('case')
        op = 'packed-switch' if feat == 'packed_switch' else 'sparse-switch'
        b.emit('%s v%d, %s' % (op, k, tbl))
        b.produce(ret, x)
        b.ret(ret, x)
        b.emit(c0)
        b.ret(ret, x)      # a switch target that is a return
        b.emit(c1)
        b.produce(ret, x)
        b.emit('goto %s' % c0)
        if feat == 'packed_switch':
            b.payloads += [tbl, '.packed-switch 0x0', c0, c1, '.end packed-switch']
        else:
            b.payloads += [tbl, '.sparse-switch', '-0x5 -> %s' % c0, '0x11170 -> %s' % c1,
                           '.end sparse-switch']
    elif feat == 'fill_array':
        if f.R == 0:
            return False
        a = x if x is not None else 0
        d1, d2 = b.label('array'), b.label('array')
        b.write(a)
        b.emit('const/4 v%d, 0x3' % a, 'new-array v%d, v%d, [I' % (a, a), 'fill-array-data v%d, %s' % (a, d1),
               'invoke-static {v%d}, %s->use([I)V' % (a, H),
               'const/4 v%d, 0x3' % a, 'new-array v%d, v%d, [B' % (a, a), 'fill-array-data v%d, %s' % (a, d2),
               'invoke-static {v%d}, %s->use([B)V' % (a, H))
        b.produce(ret, x)
        b.ret(ret, x)
        b.payloads += [d1, '.array-data 4', '0x1', '0x2', '0x3', '.end array-data',
                       d2, '.array-data 1', '0x1t', '0x2t', '0x3t', '.end array-data']
    elif feat == 'two_returns':
        if f.R == 0:
            return False
        k = b.key(set())
        other = b.label('else')
        b.emit('if-eqz v%d, %s' % (k, other))
        b.produce(ret, x)
        b.ret(ret, x)
        b.emit(other)
        b.produce(ret, x)
        b.ret(ret, x)
    elif feat == 'loop_pc0':
        if f.R == 0:
            return False
        t = x if x is not None else 0
        top = b.label('top')
        b.emit(top)
        b.emit('invoke-static {}, %s->more()Z' % H)
        b.emit('move-result v%d' % t, 'if-nez v%d, %s' % (t, top))
        b.write(t)
        b.produce(ret, x)
        b.ret(ret, x)
    else:
        raise ValueError(feat)
    return True


def expectation(kind, feat, init=None):
    if feat == 'sync_unprotected':
        return REFUSE_MONITOR
    if init == 'init_two_paths':
        return REFUSE_TWO_INITS
    if init == 'init_shared_throw':
        return REFUSE_SHARED
    return 'hook'


def positions(f, ret):
    if ret == 'V':
        return [None] + list(range(f.R))
    return list(range(f.R - width(ret) + 1))


def render(cls, name, desc, flags, f, b):
    out = ['.method %s %s%s' % (flags, name, desc), '    .registers %d' % f.R]
    out += ['    ' + l for l in b.lines + b.tail + b.payloads]
    out.append('.end method')
    return out


def gen_plain(methods_of):
    """static and instance methods: one class per kind, parameters and frame size."""
    shapes = set()
    rows = []
    for kind, plist in (('static', STATIC_PARAMS), ('instance', INSTANCE_PARAMS)):
        for params in plist:
            ins = sum(width(t) for t in params) + (kind != 'static')
            for regs in range(ins, ins + 4):
                cls = 'Lgen/%s_%s_r%d;' % ('S' if kind == 'static' else 'I', params or 'none', regs)
                for ret in RETURNS:
                    desc = '(%s)%s' % (''.join(JT[t] for t in params), JT[ret])
                    for feat in FEATURES:
                        for x in positions(Frame(kind, params, regs), ret):
                            f = Frame(kind, params, regs)
                            b = Body(f)
                            if not feature(b, feat, ret, x):
                                continue
                            name = '%s_%s_%s' % (feat, ret, 'none' if x is None else 'v%d' % x)
                            flags = 'public static' if kind == 'static' else 'public'
                            methods_of.setdefault(cls, []).append(render(cls, name, desc, flags, f, b))
                            shape = '%s/%s/%s/%s' % (kind, params or '-', ret, feat)
                            shapes.add(shape)
                            rows.append((cls, name, desc, shape, regs, '-' if x is None else x,
                                         expectation(kind, feat)))
    return shapes, rows


def init_part(b, init):
    """Initializes this (Object's <init>) the given way; False if the frame has no room."""
    f = b.f
    this = f.this
    if init == 'init_first':
        b.emit('invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this)
    elif init == 'init_after_call':
        b.emit('invoke-static {}, %s->v()V' % H, 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this)
    elif init == 'init_via_copy':
        if f.first == 0:
            return False
        b.emit('move-object v0, v%d' % this, 'invoke-direct {v0}, Ljava/lang/Object;-><init>()V')
        b.write(0, 'L')
    elif init == 'init_after_join':
        k = b.key({this})
        if k is None:
            return False
        join = b.label('join')
        b.emit('if-eqz v%d, %s' % (k, join), 'invoke-static {}, %s->v()V' % H, join,
               'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this)
    elif init == 'init_in_try':
        # the init call under a handler that rethrows, laid out after the body
        t0, t1, h = b.label('try_start'), b.label('try_end'), b.label('handler')
        b.emit(t0, 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this, t1,
               '.catch Ljava/lang/RuntimeException; {%s .. %s} %s' % (t0, t1, h))
        b.tail += [h, 'move-exception v0', 'throw v0']
    elif init == 'init_throw_before':
        # an argument check before the init call, its throw laid out after the body
        # (as compilers put cold paths last)
        k = b.key({this})
        others = [r for r in range(f.R) if r != this]
        if k is None or not others:
            return False
        bad, n = b.label('bad'), others[0]
        b.emit('if-eqz v%d, %s' % (k, bad), 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this)
        b.tail += [bad, 'new-instance v%d, Ljava/lang/IllegalStateException;' % n,
                   'invoke-direct {v%d}, Ljava/lang/IllegalStateException;-><init>()V' % n, 'throw v%d' % n]
    elif init == 'init_late_layout':
        # the body laid out before the init call (the code jumps over it first)
        init, body = b.label('init'), b.label('body')
        b.emit('goto %s' % init, body)
        b.tail += [init, 'invoke-static {}, %s->v()V' % H, 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this,
                   'goto %s' % body]
    elif init == 'init_shared_throw':
        # one throw reached from a check before the init call and one after it: o() in
        # its handler would close an i() never made on the first path, and without it
        # the second path would leave without o(): refused
        k = b.key({this})
        others = [r for r in range(f.R) if r not in (this, k)]
        if k is None or not others:
            return False
        bad, n = b.label('bad'), others[0]
        b.emit('if-eqz v%d, %s' % (k, bad), 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this,
               'if-nez v%d, %s' % (k, bad))
        b.tail += [bad, 'new-instance v%d, Ljava/lang/IllegalStateException;' % n,
                   'invoke-direct {v%d}, Ljava/lang/IllegalStateException;-><init>()V' % n, 'throw v%d' % n]
    elif init == 'init_two_paths':
        k = b.key({this})
        if k is None:
            return False
        other, join = b.label('other'), b.label('join')
        b.emit('if-eqz v%d, %s' % (k, other), 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this,
               'goto %s' % join, other, 'invoke-direct {v%d}, Ljava/lang/Object;-><init>()V' % this, join)
    return True


def gen_ctors(methods_of):
    """Constructors: one class each (they share a name and descriptor)."""
    shapes = set()
    rows = []
    for params in INSTANCE_PARAMS:
        ins = sum(width(t) for t in params) + 1
        desc = '(%s)V' % ''.join(JT[t] for t in params)
        for regs in range(ins, ins + 4):
            for init in INITS + ['init_two_paths', 'init_shared_throw']:
                feats = CTOR_FEATURES if init in INITS else ['plain']
                for feat in feats:
                    for x in positions(Frame('ctor', params, regs), 'V'):
                        f = Frame('ctor', params, regs)
                        b = Body(f)
                        if not init_part(b, init):
                            continue
                        if not feature(b, feat, 'V', x):
                            continue
                        cls = 'Lgen/C_%s_r%d_%s_%s_%s;' % (params or 'none', regs, init, feat,
                                                            'none' if x is None else 'v%d' % x)
                        methods_of.setdefault(cls, []).append(render(cls, '<init>', desc, 'public constructor', f, b))
                        shape = 'ctor/%s/%s/%s' % (params or '-', init, feat)
                        shapes.add(shape)
                        rows.append((cls, '<init>', desc, shape, regs, '-' if x is None else x,
                                     expectation('ctor', feat, init)))
    return shapes, rows


def gen_activities(methods_of):
    """Activities' onWindowFocusChanged(Z)V: the instrumenter adds at(this, hasFocus)
    after the entry probe, from the parameter registers as they arrive."""
    shapes, rows = set(), []
    for regs in range(2, 6):
        for feat in ACTIVITY_FEATURES:
            for x in positions(Frame('instance', 'Z', regs), 'V'):
                f = Frame('instance', 'Z', regs)
                b = Body(f)
                if not feature(b, feat, 'V', x):
                    continue
                cls = 'Lgen/A_r%d_%s_%s;' % (regs, feat, 'none' if x is None else 'v%d' % x)
                m = render(cls, 'onWindowFocusChanged', '(Z)V', 'public', f, b)
                methods_of[cls] = [m]
                shape = 'activity/Z/V/%s' % feat
                shapes.add(shape)
                rows.append((cls, 'onWindowFocusChanged', '(Z)V', shape, regs, '-' if x is None else x, 'hook_at'))
    return shapes, rows


def gen_edges(methods_of):
    """Frames past 16 registers (probes and parameters past 4-bit operands: range
    forms, /16 moves) and near 256 (const takes an 8-bit register: a frame that must
    grow past 256 is refused)."""
    shapes, rows = set(), []
    cls = 'Lgen/E_wide;'
    for kind, params, ret, regs, xs in (('static', 'J', 'J', 18, (0, 14, 15, 16)),
                                        ('instance', 'I', 'I', 20, (0, 15, 18, 19))):
        desc = '(%s)%s' % (''.join(JT[t] for t in params), JT[ret])
        for x in xs:
            f = Frame(kind, params, regs)
            b = Body(f)
            b.produce(ret, x, rng=True)
            b.ret(ret, x)
            name = 'big_%s_%s_r%d_v%d' % (kind, ret, regs, x)
            methods_of.setdefault(cls, []).append(
                render(cls, name, desc, 'public static' if kind == 'static' else 'public', f, b))
            shape = 'edge/%s/%s/range' % (kind, ret)
            shapes.add(shape)
            rows.append((cls, name, desc, shape, regs, x, 'hook'))
    for regs in (17, 254, 255, 256):
        f = Frame('ctor', '', regs)
        b = Body(f)
        b.emit('invoke-direct/range {v%d .. v%d}, Ljava/lang/Object;-><init>()V' % (f.this, f.this),
               'invoke-static {}, %s->v()V' % H, 'return-void')
        ccls = 'Lgen/E_ctor_r%d;' % regs
        methods_of[ccls] = [render(ccls, '<init>', '()V', 'public constructor', f, b)]
        shape = 'edge/ctor/-/r%s' % ('256' if regs >= 255 else 'big')
        shapes.add(shape)
        rows.append((ccls, '<init>', '()V', shape, regs, '-', REFUSE_256 if regs >= 255 else 'hook'))
    return shapes, rows


def main():
    if len(sys.argv) != 2:
        sys.stderr.write('usage: gen_methods.py OUTDIR\n')
        return 2
    out = sys.argv[1]
    methods_of = {}
    s1, r1 = gen_plain(methods_of)
    s2, r2 = gen_ctors(methods_of)
    s3, r3 = gen_activities(methods_of)
    s4, r4 = gen_edges(methods_of)
    s2, r2 = s2 | s3 | s4, r2 + r3 + r4
    sdir = os.path.join(out, 'smali')
    os.makedirs(os.path.join(sdir, 'gen'), exist_ok=True)
    for cls, methods in methods_of.items():
        path = os.path.join(sdir, cls[1:-1] + '.smali')
        with open(path, 'w') as fp:
            sup = 'Landroid/app/Activity;' if cls.startswith('Lgen/A_') else 'Ljava/lang/Object;'
            fp.write('.class public %s\n.super %s\n\n' % (cls, sup))
            for m in methods:
                fp.write('\n'.join(m) + '\n\n')
    with open(os.path.join(out, 'shapes.tsv'), 'w') as fp:
        fp.write('class\tmethod\tdesc\tshape\tregisters\tvalue\texpect\n')
        for row in r1 + r2:
            fp.write('\t'.join(str(c) for c in row) + '\n')
    kinds = {}
    for row in r1 + r2:
        k = row[3].split('/')[0]
        kinds[k] = kinds.get(k, 0) + 1
    print('%d methods of %d shapes in %d classes (%s)' % (
        len(r1) + len(r2), len(s1 | s2), len(methods_of),
        ', '.join('%s %d' % (k, kinds[k]) for k in ('static', 'instance', 'ctor', 'activity', 'edge'))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
