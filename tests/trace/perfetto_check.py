#!/usr/bin/env python3
"""An independent reader of the Perfetto traces `tc-trace perfetto` writes.

usage: perfetto_check.py TRACE CHROME_JSON

Decodes the protobuf wire format itself (no protobuf library: varints, length-delimited
fields, fixed64), with the field numbers of Perfetto's published perfetto_trace.proto,
and checks what a reader of the trace relies on:
  - the first packet is a clock snapshot whose primary clock is CLOCK_MONOTONIC;
  - one sequence; the incremental state is cleared before any packet needs it; every
    interned id (event names, categories, annotation names, strings) is defined once,
    before its first use;
  - every event's track was described before; per track, begin and end events pair up
    as a stack, in time order;
  - the slices of each track, and the reports, are those of the Chrome JSON export of
    the same ring (CHROME_JSON: `tc-trace chrome --min-us 0`, B/E events): same names,
    same times, same nesting, the same "id" and "method" arguments, the same report
    arguments; each thread's messages are also on its messages track.
Prints one "ok:" line with the counts, or "FAIL: ..." lines and exits 1.
"""
import json
import sys

# TracePacket and the messages inside it (perfetto_trace.proto)
TRACE_PACKET = 1
P_TIMESTAMP, P_SEQ_ID, P_TRACK_EVENT, P_INTERNED, P_SEQ_FLAGS = 8, 10, 11, 12, 13
P_CLOCK_SNAPSHOT, P_DEFAULTS, P_TRACK_DESCRIPTOR = 6, 59, 60
SEQ_CLEARED, SEQ_NEEDS = 1, 2
MONOTONIC = 3


class Fail(Exception):
    pass


def varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b):
            raise Fail("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i
        if shift > 63:
            raise Fail("varint longer than 10 bytes")


def fields(b):
    """(field, wire type, value) of one message: value an int or bytes."""
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if f == 0:
            raise Fail("field number 0")
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            if i + 8 > len(b):
                raise Fail("truncated fixed64")
            v, i = int.from_bytes(b[i:i + 8], "little"), i + 8
        elif wt == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise Fail("length past the end")
            v, i = b[i:i + n], i + n
        elif wt == 5:
            v, i = int.from_bytes(b[i:i + 4], "little"), i + 4
        else:
            raise Fail("wire type %d" % wt)
        out.append((f, wt, v))
    return out


def one(fs, f, default=None):
    vals = [v for (g, _, v) in fs if g == f]
    if len(vals) > 1:
        raise Fail("field %d given %d times" % (f, len(vals)))
    return vals[0] if vals else default


def many(fs, f):
    return [v for (g, _, v) in fs if g == f]


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


class Reader:
    def __init__(self):
        self.cleared = False
        self.interned = {k: {} for k in ("name", "cat", "ann", "str")}
        self.tracks = {}      # uuid -> (name, tid or None)
        self.events = {}      # uuid -> [(ts_ns, type, name, cat, args)]
        self.packets = 0

    def intern(self, table, entries):
        for e in entries:
            fs = fields(e)
            iid, name = one(fs, 1), one(fs, 2, b"")
            if not iid:
                raise Fail("interned entry without an iid")
            if iid in self.interned[table]:
                raise Fail("%s iid %d interned twice" % (table, iid))
            self.interned[table][iid] = name.decode()

    def look(self, table, iid):
        if iid not in self.interned[table]:
            raise Fail("%s iid %r used before it was interned" % (table, iid))
        return self.interned[table][iid]

    def annotation(self, b, named=True):
        fs = fields(b)
        name = one(fs, 10)
        if name is not None:
            name = name.decode()
        elif named or one(fs, 1) is not None:
            name = self.look("ann", one(fs, 1))
        dict_entries, array = many(fs, 11), many(fs, 12)
        if one(fs, 2) is not None:
            value = bool(one(fs, 2))
        elif one(fs, 3) is not None:
            value = one(fs, 3)
        elif one(fs, 4) is not None:
            value = signed(one(fs, 4))
        elif one(fs, 5) is not None:
            import struct
            value = struct.unpack("<d", one(fs, 5).to_bytes(8, "little"))[0]
        elif one(fs, 6) is not None:
            value = one(fs, 6).decode()
        elif one(fs, 17) is not None:
            value = self.look("str", one(fs, 17))
        elif dict_entries:
            value = dict(self.annotation(e) for e in dict_entries)
        elif array:
            value = [self.annotation(e, named=False)[1] for e in array]
        else:
            value = {}   # an empty object or array
        return name, value

    def packet(self, b):
        self.packets += 1
        fs = fields(b)
        if one(fs, P_SEQ_ID) != 1:
            raise Fail("packet %d: sequence %r, not 1" % (self.packets, one(fs, P_SEQ_ID)))
        snap = one(fs, P_CLOCK_SNAPSHOT)
        if self.packets == 1:
            if snap is None:
                raise Fail("the first packet is no clock snapshot")
            s = fields(snap)
            clocks = {one(fields(c), 1): one(fields(c), 2) for c in many(s, 1)}
            if one(s, 2) != MONOTONIC or MONOTONIC not in clocks:
                raise Fail("the clock snapshot does not name CLOCK_MONOTONIC as the trace's clock")
            return
        flags = one(fs, P_SEQ_FLAGS, 0)
        if flags & SEQ_CLEARED:
            self.cleared = True
            d = one(fs, P_DEFAULTS)
            if d is None or one(fields(d), 58) != MONOTONIC:
                raise Fail("the packet that clears the state sets no default clock of CLOCK_MONOTONIC")
        if (flags & SEQ_NEEDS or one(fs, P_INTERNED) is not None) and not self.cleared:
            raise Fail("packet %d needs incremental state before it was cleared" % self.packets)
        interned = one(fs, P_INTERNED)
        if interned is not None:
            i = fields(interned)
            self.intern("cat", many(i, 1))
            self.intern("name", many(i, 2))
            self.intern("ann", many(i, 3))
            self.intern("str", many(i, 29))
        td = one(fs, P_TRACK_DESCRIPTOR)
        if td is not None:
            t = fields(td)
            uuid = one(t, 1)
            if uuid in self.tracks:
                raise Fail("track %d described twice" % uuid)
            thread, proc = one(t, 4), one(t, 3)
            if thread is not None:
                th = fields(thread)
                self.tracks[uuid] = (one(th, 5, b"").decode(), one(th, 2))
            elif proc is not None:
                self.tracks[uuid] = ("process " + one(fields(proc), 6, b"").decode(), None)
            else:
                self.tracks[uuid] = (one(t, 2, b"").decode(), None)
            if uuid != 1 and one(t, 5) not in self.tracks:
                raise Fail("track %d's parent %r is not described" % (uuid, one(t, 5)))
        te = one(fs, P_TRACK_EVENT)
        if te is not None:
            if not flags & SEQ_NEEDS:
                raise Fail("a track event without SEQ_NEEDS_INCREMENTAL_STATE")
            e = fields(te)
            ts, typ, track = one(fs, P_TIMESTAMP), one(e, 9), one(e, 11)
            if ts is None or track not in self.tracks:
                raise Fail("packet %d: an event without a time or on an undescribed track" % self.packets)
            name = one(e, 23)
            name = name.decode() if name is not None else (self.look("name", one(e, 10)) if one(e, 10) else None)
            cats = [self.look("cat", c) for c in many(e, 3)]
            args = dict(self.annotation(a) for a in many(e, 4))
            self.events.setdefault(track, []).append((ts, typ, name, cats[0] if cats else None, args))


def slices(events, what):
    """[(start_ns, end_ns, name, depth, args)] in begin order, checking the stack."""
    out, stack, last = [], [], 0
    for ts, typ, name, cat, args in events:
        if ts < last:
            raise Fail("%s: time goes back (%d after %d)" % (what, ts, last))
        last = ts
        if typ == 1:
            stack.append(len(out))
            out.append([ts, None, name, len(stack) - 1, args, cat])
        elif typ == 2:
            if not stack:
                raise Fail("%s: an end with nothing open" % what)
            out[stack.pop()][1] = ts
        elif typ != 3:
            raise Fail("%s: event type %r" % (what, typ))
    if stack:
        raise Fail("%s: %d slices never end" % (what, len(stack)))
    return out


def chrome_slices(evs):
    """Chrome's B/E events of one tid, as slices()."""
    out, stack = [], []
    for e in evs:
        if e["ph"] == "B":
            stack.append(len(out))
            out.append([e["ts"] * 1000, None, e["name"], len(stack) - 1, e.get("args", {}), e.get("cat")])
        elif e["ph"] == "E":
            out[stack.pop()][1] = e["ts"] * 1000
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    chrome = json.load(open(sys.argv[2]))["traceEvents"]
    r = Reader()
    try:
        for f, wt, v in fields(data):
            if f != TRACE_PACKET or wt != 2:
                raise Fail("a Trace field %d (wire type %d) that is not a packet" % (f, wt))
            r.packet(v)
        # the Chrome export's tracks, by thread name
        names, by_tid = {}, {}
        for e in chrome:
            if e["ph"] == "M" and e["name"] == "thread_name":
                names[e["tid"]] = e["args"]["name"]
            elif e["ph"] in "BE":
                by_tid.setdefault(e["tid"], []).append(e)
        by_name = {names[t]: chrome_slices(v) for t, v in by_tid.items()}
        total = instants = 0
        seen = set()
        for uuid, (name, tid) in r.tracks.items():
            evs = [e for e in r.events.get(uuid, []) if e[1] != 3]
            if name.startswith("process "):
                continue
            got = slices(evs, "track %r" % name)
            if name.endswith(" messages") and name not in by_name:
                base = name[: -len(" messages")]
                want = [s for s in by_name.get(base, []) if s[5] == "message"]
                if [(s[0], s[1], s[2]) for s in got] != [(s[0], s[1], s[2]) for s in want]:
                    raise Fail("track %r: not the messages of %r" % (name, base))
                if any(s[3] for s in got):
                    raise Fail("track %r: a message nested in another" % name)
                continue
            want = by_name.get(name)
            if want is None:
                raise Fail("track %r has no Chrome counterpart (Chrome's: %s)" % (name, sorted(by_name)))
            seen.add(name)
            if len(got) != len(want):
                raise Fail("track %r: %d slices, Chrome's has %d" % (name, len(got), len(want)))
            for g, w in zip(got, want):
                if g[:4] != w[:4] or g[5] != w[5]:
                    raise Fail("track %r: slice %r, Chrome's %r" % (name, g[:4] + [g[5]], w[:4] + [w[5]]))
                for k in ("id", "method", "note", "clipped"):
                    if g[4].get(k) != w[4].get(k):
                        raise Fail("track %r, slice %r: argument %s is %r, Chrome's %r"
                                   % (name, g[2], k, g[4].get(k), w[4].get(k)))
            total += len(got)
        if seen != set(by_name):
            raise Fail("Chrome's tracks %s are missing" % sorted(set(by_name) - seen))
        got_i = [(ts, name, args) for evs in r.events.values() for (ts, t, name, cat, args) in evs if t == 3]
        want_i = [(e["ts"] * 1000, e["name"], e.get("args", {})) for e in chrome if e["ph"] == "i"]
        if sorted(got_i, key=lambda x: (x[0], x[1])) != sorted(want_i, key=lambda x: (x[0], x[1])):
            raise Fail("the reports differ from Chrome's: %r vs %r" % (got_i[:2], want_i[:2]))
        instants = len(got_i)
    except Fail as e:
        print("FAIL: %s: %s" % (sys.argv[1], e))
        return 1
    print("ok: %s: %d packets, %d tracks, %d slices, %d reports, %d names interned"
          % (sys.argv[1], r.packets, len(r.tracks), total, instants, len(r.interned["name"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
