#!/usr/bin/env python3
"""Make an enjarified jar runnable and compilable against (enjarify limit, dex.md 5).

enjarify writes every class as a Java 5 (49.0) class file, also interfaces with default
or static methods, which Java 5 forbids: HotSpot refuses them (`ClassFormatError ...
illegal modifiers: 0x1`) and javac will not read them. This copies JAR to OUT with such
interfaces marked 52.0 (Java 8); with --all every class is marked 52.0 (for javac only:
a 52.0 method with branches needs a StackMapTable that enjarify does not write).

A 52.0 interface is verified by the type-checking verifier, which accepts a default
method without branches (most are bridges and one-line delegations) and rejects the
others (`Expecting a stackmap frame`): those interfaces stay unusable, as before.

enjarify also writes a call of an interface's own method through `invokespecial` or
`invokestatic` (dex `invoke-super` of a default method, as Kotlin's `super.f()` under
`-Xjvm-default=all` compiles, or a static interface method) with a Methodref constant,
which HotSpot refuses at the call (`IncompatibleClassChangeError: Method ... must be
InterfaceMethodref constant`, JVMS 4.4.2, 6.5 invokespecial). This retags every Methodref
whose class is an interface of the same jar as an InterfaceMethodref and marks that
class 52.0 (the first version that allows them there); for the behaviour oracle, which
runs without verification (a 52.0 method with branches has no StackMapTable here).

usage: runjar.py [--all] JAR OUT.jar      prints how many classes were marked
"""
import struct
import sys
import zipfile

ACC_INTERFACE, ACC_ABSTRACT = 0x0200, 0x0400
CP_SIZES = {7: 2, 9: 4, 10: 4, 11: 4, 8: 2, 3: 4, 4: 4, 5: 8, 6: 8, 12: 4, 15: 3, 16: 2, 17: 4,
            18: 4, 19: 2, 20: 2}


def needs_52(d):
    """True for an interface with a method that is not abstract, other than <clinit>."""
    n = struct.unpack_from('>H', d, 8)[0]
    p, i = 10, 1
    utf = {}
    while i < n:
        tag = d[p]
        if tag == 1:
            ln = struct.unpack_from('>H', d, p + 1)[0]
            utf[i] = d[p + 3:p + 3 + ln]
            p += 3 + ln
        else:
            p += 1 + CP_SIZES[tag]
        i += 2 if tag in (5, 6) else 1
    access = struct.unpack_from('>H', d, p)[0]
    if not access & ACC_INTERFACE:
        return False
    p += 6
    p += 2 + 2 * struct.unpack_from('>H', d, p)[0]
    for members in ('fields', 'methods'):
        count = struct.unpack_from('>H', d, p)[0]
        p += 2
        for _ in range(count):
            flags, name = struct.unpack_from('>HH', d, p)
            if members == 'methods' and not flags & ACC_ABSTRACT and utf.get(name) != b'<clinit>':
                return True
            p += 6
            attrs = struct.unpack_from('>H', d, p)[0]
            p += 2
            for _ in range(attrs):
                p += 6 + struct.unpack_from('>I', d, p + 2)[0]
    return False


def class_info(d):
    """(this class's name, whether it is an interface, offsets of its Methodref tags with
    their class's name)."""
    n = struct.unpack_from('>H', d, 8)[0]
    p, i = 10, 1
    utf, cls, refs = {}, {}, []
    while i < n:
        tag = d[p]
        if tag == 1:
            ln = struct.unpack_from('>H', d, p + 1)[0]
            utf[i] = d[p + 3:p + 3 + ln]
            p += 3 + ln
        else:
            if tag == 7:
                cls[i] = struct.unpack_from('>H', d, p + 1)[0]
            elif tag == 10:
                refs.append((p, struct.unpack_from('>H', d, p + 1)[0]))
            p += 1 + CP_SIZES[tag]
        i += 2 if tag in (5, 6) else 1
    access, this = struct.unpack_from('>HH', d, p)
    name = lambda c: utf.get(cls.get(c))
    return name(this), bool(access & ACC_INTERFACE), [(off, name(c)) for off, c in refs]


def main():
    args = sys.argv[1:]
    every = args[:1] == ['--all']
    if every:
        args = args[1:]
    src, dst = args
    marked = retagged = 0
    with zipfile.ZipFile(src) as zi, zipfile.ZipFile(dst, 'w') as zo:
        is_class = lambda info, d: info.filename.endswith('.class') and d[:4] == b'\xca\xfe\xba\xbe'
        interfaces = set()
        for info in zi.infolist():
            d = zi.read(info)
            if is_class(info, d):
                name, iface, _ = class_info(d)
                if iface:
                    interfaces.add(name)
        for info in zi.infolist():
            d = zi.read(info)
            if is_class(info, d):
                mark = every or needs_52(d)
                if not every:
                    fix = [off for off, c in class_info(d)[2] if c in interfaces]
                    if fix:
                        d = bytearray(d)
                        for off in fix:
                            d[off] = 11
                        d = bytes(d)
                        retagged += len(fix)
                        mark = True
                if mark:
                    d = d[:6] + struct.pack('>H', 52) + d[8:]
                    marked += 1
            zo.writestr(info, d)
    print('%s: %d classes marked 52.0, %d Methodref constants of interfaces retagged'
          % (dst, marked, retagged))


if __name__ == '__main__':
    main()
