#!/usr/bin/env python3
"""Byte-level fixtures of the cli suite, made without the code under test.

    classgen.py OUT_DIR

OUT_DIR already holds what Fixtures.java compiled (app1/, rel/r17/, mr/, ...). This
adds hand-assembled class files (a method near the 64 KB code limit, a class whose
constant pool is full), class files patched to newer versions, malformed classes, and
jars with chosen order, timestamps, comments, extra fields and compression, plus
corrupt jars. offsets.txt records the byte offsets the tests expect in reports.
"""
import os
import struct
import sys
import zipfile

OUT = sys.argv[1]


def path(*parts):
    p = os.path.join(OUT, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def write(rel, data):
    with open(path(rel), "wb") as f:
        f.write(data)


def read(rel):
    with open(os.path.join(OUT, rel), "rb") as f:
        return f.read()


# --- a tiny class-file assembler -------------------------------------------------


class Pool:
    def __init__(self):
        self.entries = []  # encoded entries
        self.index = {}

    def _add(self, key, data, slots=1):
        if key in self.index:
            return self.index[key]
        i = self.count()
        self.entries.append(data)
        if slots == 2:
            self.entries.append(None)
        self.index[key] = i
        return i

    def count(self):
        return len(self.entries) + 1

    def utf8(self, s):
        b = s.encode()
        return self._add(("u", s), b"\x01" + struct.pack(">H", len(b)) + b)

    def cls(self, name):
        return self._add(("c", name), b"\x07" + struct.pack(">H", self.utf8(name)))

    def nat(self, name, desc):
        return self._add(("nt", name, desc),
                         b"\x0c" + struct.pack(">HH", self.utf8(name), self.utf8(desc)))

    def mref(self, cls, name, desc):
        return self._add(("m", cls, name, desc),
                         b"\x0a" + struct.pack(">HH", self.cls(cls), self.nat(name, desc)))

    def encode(self):
        return struct.pack(">H", self.count()) + b"".join(e for e in self.entries if e is not None)


def method(pool, access, name, desc, max_stack, max_locals, code):
    body = struct.pack(">HHI", max_stack, max_locals, len(code)) + code + struct.pack(">HH", 0, 0)
    return (struct.pack(">HHHH", access, pool.utf8(name), pool.utf8(desc), 1) +
            struct.pack(">HI", pool.utf8("Code"), len(body)) + body)


def assemble(name, methods_of, fill_pool_to=None, major=52, access=0x0021):
    """methods_of(pool) -> list of encoded methods; the pool may be padded with Utf8
    entries until constant_pool_count is fill_pool_to."""
    pool = Pool()
    this = pool.cls(name)
    sup = pool.cls("java/lang/Object")
    methods = methods_of(pool)
    if fill_pool_to:
        k = 0
        while pool.count() < fill_pool_to:
            pool.utf8("filler%05d" % k)
            k += 1
        assert pool.count() == fill_pool_to
    return (struct.pack(">IHH", 0xCAFEBABE, 0, major) + pool.encode() +
            struct.pack(">HHHHH", access, this, sup, 0, 0) +
            struct.pack(">H", len(methods)) + b"".join(methods) + struct.pack(">H", 0))


NOP, POP2, RETURN, ALOAD_0 = 0x00, 0x58, 0xB1, 0x2A
INVOKESTATIC, INVOKESPECIAL = 0xB8, 0xB7


def init(pool):
    return method(pool, 0x0001, "<init>", "()V", 1, 1,
                  bytes([ALOAD_0, INVOKESPECIAL]) +
                  struct.pack(">H", pool.mref("java/lang/Object", "<init>", "()V")) +
                  bytes([RETURN]))


def calling(pool, access, name, length):
    """A traced method: System.nanoTime(), pop2, nop padding, return: `length` bytes."""
    ref = pool.mref("java/lang/System", "nanoTime", "()J")
    code = bytes([INVOKESTATIC]) + struct.pack(">H", ref) + bytes([POP2])
    code += bytes([NOP]) * (length - len(code) - 1) + bytes([RETURN])
    assert len(code) == length
    return method(pool, access, name, "()V", 2, 1, code)


# Code length must stay below 65536 (JVMS 4.7.3). Instrumenting adds an i() and an
# o() call and a catch-all handler: "huge" cannot take them, "fits" can.
write("big/p/Big.class", assemble("p/Big", lambda p: [
    init(p),
    calling(p, 0x0001, "small", 8),
    calling(p, 0x0001, "huge", 65530),
    calling(p, 0x0001, "fits", 65400),
]))

# constant_pool_count is a u2: 65535 means entries 1..65534, no room for the
# AppMethodBeat references.
write("pool/p/Full.class", assemble("p/Full", lambda p: [
    init(p), calling(p, 0x0001, "run", 8)], fill_pool_to=65535))
write("pool/p/Roomy.class", assemble("p/Roomy", lambda p: [
    init(p), calling(p, 0x0001, "run", 8)], fill_pool_to=60000))


# The runtime's beat class as the injected calls need it, and ways it can fall short
# (runtime.sh): runtime/KIND/com/tencent/matrix/trace/core/AppMethodBeat.class with
# i(I)V, o(I)V and at(Landroid/app/Activity;Z)V public static, except: noat (no at),
# wrongdesc (i(J)V in place of i(I)V), private (o(I)V private static), notpublic (the
# class package-private).
BEAT = "com/tencent/matrix/trace/core/AppMethodBeat"
AT = "(Landroid/app/Activity;Z)V"


def beat(members, access=0x0021):
    def methods(p):
        return [init(p)] + [method(p, acc, name, desc, 0, 3, bytes([RETURN])) for acc, name, desc in members]
    return assemble(BEAT, methods, access=access)


PS = 0x0009  # public static
for kind, members, access in [
        ("good", [(PS, "i", "(I)V"), (PS, "o", "(I)V"), (PS, "at", AT)], 0x0021),
        ("noat", [(PS, "i", "(I)V"), (PS, "o", "(I)V")], 0x0021),
        ("wrongdesc", [(PS, "i", "(J)V"), (PS, "o", "(I)V"), (PS, "at", AT)], 0x0021),
        ("private", [(PS, "i", "(I)V"), (0x000A, "o", "(I)V"), (PS, "at", AT)], 0x0021),
        ("notpublic", [(PS, "i", "(I)V"), (PS, "o", "(I)V"), (PS, "at", AT)], 0x0020)]:
    write("runtime/%s/%s.class" % (kind, BEAT), beat(members, access))


# --- class-file versions ---------------------------------------------------------

# Before 50.0 there is no StackMapTable (the JVM infers types; JVMS 4.10.2): a branch
# and a call, in 45.3 (JDK 1.1) and 49.0 (Java 5) class files.
def branchy(pool):
    ref = pool.mref("java/lang/System", "nanoTime", "()J")
    # 0: iload_1; 1: ifeq 8; 4: invokestatic nanoTime; 7: pop2; 8: return
    code = bytes([0x1B, 0x99]) + struct.pack(">h", 7)
    code += bytes([INVOKESTATIC]) + struct.pack(">H", ref) + bytes([POP2, RETURN])
    return method(pool, 0x0001, "run", "(I)V", 2, 2, code)


for major, minor in ((45, 3), (49, 0)):
    b = assemble("p/Old", lambda p: [init(p), branchy(p)], major=major)
    write("old/v%d/p/Old.class" % major, b[:4] + struct.pack(">H", minor) + b[6:])

hello = read("rel/r17/rel/Hello.class")
assert hello[6:8] == struct.pack(">H", 61)
for major in (62, 63, 64, 65, 66, 67, 68, 69, 70):
    write("v/%d/rel/Hello.class" % major, hello[:6] + struct.pack(">H", major) + hello[8:])


# --- malformed classes -----------------------------------------------------------

def cp_offsets(b):
    """Offset of each constant-pool entry's tag, by index (JVMS 4.4)."""
    sizes = {1: None, 3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4,
             15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
    count = struct.unpack(">H", b[8:10])[0]
    off, i, offs = 10, 1, {}
    while i < count:
        offs[i] = off
        tag = b[off]
        if tag == 1:
            off += 3 + struct.unpack(">H", b[off + 1:off + 3])[0]
        else:
            off += 1 + sizes[tag]
        i += 2 if tag in (5, 6) else 1
    return offs, off


circle = read("app1/com/example/app/Circle.class")
offs, cp_end = cp_offsets(circle)
bad_index = 5
bad = bytearray(circle)
bad[offs[bad_index]] = 0xFF  # no such tag
cut = cp_end + 6  # inside the header after the constant pool (access, this, super)
good = read("app1/com/example/app/Square.class")
for where in ("malformed", "malformed-strict"):
    write(where + "/p/BadTag.class", bytes(bad))
    write(where + "/p/Trunc.class", circle[:cut])
    write(where + "/p/Good.class", good)
with open(path("offsets.txt"), "w") as f:
    f.write("badtag %d\n" % offs[bad_index])
    f.write("trunc_cp_end %d\n" % cp_end)
    f.write("trunc_len %d\n" % cut)

# --- jars ------------------------------------------------------------------------

S_IFREG = 0o100000


def info(name, date, comment=b"", method=zipfile.ZIP_DEFLATED, mode=0o644, extra=b""):
    zi = zipfile.ZipInfo(name, date_time=date)
    zi.compress_type = method
    zi.comment = comment
    zi.create_system = 3  # unix
    zi.external_attr = ((S_IFREG | mode) << 16) if not name.endswith("/") else ((0o40755 << 16) | 0x10)
    zi.extra = extra
    return zi


def ut_extra(mtime):
    # "UT" extended timestamp, flags: mtime
    return struct.pack("<HHBI", 0x5455, 5, 1, mtime)


def jar(rel, entries, comment=b""):
    with zipfile.ZipFile(path(rel), "w") as z:
        for zi, data in entries:
            z.writestr(zi, data)
        z.comment = comment


app = "app1/com/example/app/"
manifest = b"Manifest-Version: 1.0\r\nCreated-By: classgen.py\r\n\r\n"
jar("meta.jar", [
    (info("META-INF/", (2020, 1, 2, 3, 4, 6)), b""),
    (info("META-INF/MANIFEST.MF", (2020, 1, 2, 3, 4, 6)), manifest),
    (info("com/example/app/Util.class", (2001, 2, 3, 4, 5, 6), b"util, first"),
     read(app + "Util.class")),
    (info("res/data.txt", (1999, 12, 31, 23, 59, 58), b"a resource", zipfile.ZIP_STORED),
     b"some data\n" * 20),
    (info("com/example/app/Main.class", (2010, 10, 10, 10, 10, 10),
          extra=ut_extra(1286705410)), read(app + "Main.class")),
    (info("com/example/app/Circle.class", (2015, 5, 5, 5, 5, 4), b"stored class",
          zipfile.ZIP_STORED, 0o755), read(app + "Circle.class")),
    (info("com/example/app/R$string.class", (2011, 1, 1, 0, 0, 0), b"generated"),
     read(app + "R$string.class")),
    (info("com/example/app/Shape.class", (2012, 6, 7, 8, 9, 10)), read(app + "Shape.class")),
    (info("com/example/app/Square.class", (2013, 7, 8, 9, 10, 12), b"square"),
     read(app + "Square.class")),
    (info("com/example/app/Api.class", (2014, 8, 9, 10, 11, 12)), read(app + "Api.class")),
    (info("z-last.txt", (2022, 2, 2, 2, 2, 2), b"last entry", zipfile.ZIP_DEFLATED),
     b"the end\n"),
], comment=b"tracecanary cli test jar")

# The app as a plain jar, in sorted order.
app_entries = []
for root, _, files in os.walk(os.path.join(OUT, "app1")):
    for fn in files:
        full = os.path.join(root, fn)
        app_entries.append(os.path.relpath(full, os.path.join(OUT, "app1")))
jar("app1.jar", [(info(n, (2020, 1, 1, 0, 0, 0)), read("app1/" + n)) for n in sorted(app_entries)])

# Multi-release: base classes, and META-INF/versions/11 with another Api.
jar("mr.jar", [
    (info("META-INF/MANIFEST.MF", (2020, 1, 1, 0, 0, 0)),
     b"Manifest-Version: 1.0\r\nMulti-Release: true\r\n\r\n"),
    (info("mr/Api.class", (2020, 1, 1, 0, 0, 0)), read("mr/base/mr/Api.class")),
    (info("mr/Other.class", (2020, 1, 1, 0, 0, 0)), read("mr/base/mr/Other.class")),
    (info("META-INF/versions/11/mr/Api.class", (2020, 1, 1, 0, 0, 0)),
     read("mr/v11/mr/Api.class")),
])

jar("module.jar", [
    (info("module-info.class", (2020, 1, 1, 0, 0, 0)), read("module/module-info.class")),
    (info("mpkg/Thing.class", (2020, 1, 1, 0, 0, 0)), read("module/mpkg/Thing.class")),
])

jar("malformed.jar", [
    (info("p/BadTag.class", (2020, 1, 1, 0, 0, 0)), bytes(bad)),
    (info("p/Good.class", (2020, 1, 1, 0, 0, 0)), good),
    (info("p/Trunc.class", (2020, 1, 1, 0, 0, 0)), circle[:cut]),
])


def entry_data_offset(jar_rel, jar_bytes, name):
    """Offset and length of an entry's stored (compressed) bytes."""
    with zipfile.ZipFile(os.path.join(OUT, jar_rel)) as z:
        zi = z.getinfo(name)
    h = zi.header_offset
    assert jar_bytes[h:h + 4] == b"PK\x03\x04"
    n, m = struct.unpack("<HH", jar_bytes[h + 26:h + 30])
    return h + 30 + n + m, zi.compress_size, h, zi


# Corrupt jars, all made from app1.jar.
whole = read("app1.jar")
write("corrupt/trunc.jar", whole[:len(whole) // 2])
target = "com/example/app/Main.class"
start, size, header, zi = entry_data_offset("app1.jar", whole, target)
flipped = bytearray(whole)
flipped[start + size // 2] ^= 0x55
write("corrupt/flipped.jar", bytes(flipped))
# Same data, wrong CRC-32 in both the local and the central header.
badcrc = bytearray(whole)
crc = struct.unpack("<I", whole[header + 14:header + 18])[0]
wrong = struct.pack("<I", crc ^ 0x00FF00FF)
badcrc[header + 14:header + 18] = wrong
pos = 0
while True:
    pos = whole.find(b"PK\x01\x02", pos)
    assert pos >= 0
    n = struct.unpack("<H", whole[pos + 28:pos + 30])[0]
    if whole[pos + 46:pos + 46 + n] == target.encode():
        badcrc[pos + 16:pos + 20] = wrong
        break
    pos += 4
write("corrupt/badcrc.jar", bytes(badcrc))
with open(path("corrupt/entry.txt"), "w") as f:
    f.write(target + "\n")
