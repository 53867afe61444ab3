#!/usr/bin/env python3
"""tc-instrument on hostile input: damaged dex files, archives and command lines.

usage: hostile.py --tci TC_INSTRUMENT --src SRC_ROOT --work DIR [--only NAME]... [--list]

Every case is made here (inputs.py: no code of ours builds them), run in a directory of
its own, and judged by the rules README.md states for all bad input:
  - the exit status the case names (1 for a bad input or a failed run, 2 for a usage
    error, 0 where the policy is to copy a malformed dex unchanged and report it), and
    on stderr the file, the entry and what was wrong (the case's strings);
  - no crash (a sanitizer's report is a crash), no hang (a timeout), and peak memory
    (the child's ru_maxrss, from wait4) under the documented input limit plus slack;
  - nothing written outside the run's --out paths and --mapping-dir, no temporary file
    left anywhere, and on failure every file that existed before byte-identical
    (outputs and mapping files from an earlier run included);
  - outputs of a successful run that are archives are sound zips whenever their input
    was (tests/lib/zipcheck.py), and a malformed dex is copied byte for byte.
A case may carry xfail="why": it is expected to break a rule until that is fixed, and a
case that passes while marked is an error too, so that the mark goes with the fix.
Exit 0 when every case behaves, 1 otherwise (77: a tool missing, as tests/lib/need.sh).
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inputs  # noqa: E402
from inputs import Dex, Entry, build_zip  # noqa: E402

LIMIT_MB = 512   # the documented default of --max-input-mb
SLACK_MB = 64    # what the tool itself takes besides one input at the limit
TIMEOUT = 120    # seconds; the slowest case takes a few under ASan on a loaded machine

CASES = []


def case(name, **kw):
    def reg(fn):
        CASES.append((name, fn, kw))
        return fn
    return reg


class Work:
    """A case's directory (the tool's working directory) and what goes in it."""

    def __init__(self, root, src):
        self.root = root
        self.src = src

    def path(self, name):
        return os.path.join(self.root, name)

    def put(self, name, data):
        p = self.path(name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        return name

    def seed_dex(self):
        with open(os.path.join(self.src, "tests/dex/fuzz/seeds/shapes-api26.dex"), "rb") as f:
            return f.read()

    def seed_class(self):
        with open(os.path.join(self.src, "tests/compiler/fuzz/seeds/j8-Seed.bin"), "rb") as f:
            return f.read()

    def apk_entries(self, dex):
        return [Entry("AndroidManifest.xml", b"\x03\x00\x08\x00 not parsed by the tool" * 4),
                Entry("classes.dex", dex),
                Entry("res/raw/data.bin", b"stored resource" * 7, method=0),
                Entry("lib/arm64-v8a/libx.so", b"\x7fELF" + bytes(100), method=0),
                Entry("META-INF/CERT.SF", b"Signature-Version: 1.0\r\n")]

    def apk(self, name, dex):
        return self.put(name, build_zip(self.apk_entries(dex)))

    def jar(self, name, entries):
        return self.put(name, build_zip(entries))


# --- dex files: malformed ones are copied unchanged and reported -------------------------

def dex_case(name, mutate, why, xfail=None, xfail_strict=None):
    """A standalone dex damaged by mutate(Dex): copied unchanged, exit 0, the reason on
    stderr with the file's name; fatal with --strict."""
    for strict in (False, True):
        def make(w, mutate=mutate, strict=strict):
            d = Dex(w.seed_dex())
            data = mutate(d)
            if data is None:
                data = d.fix()
            w.put("in.dex", data)
            args = ["--in", "in.dex", "--out", "out.dex"] + (["--strict"] if strict else [])
            return dict(args=args, rc=1 if strict else 0, err=["in.dex", why],
                        same=[] if strict else [("out.dex", "in.dex")],
                        stats=[] if strict else ["malformed dex", why], dexdump_rejects="in.dex")
        case(name + ("-strict" if strict else ""), xfail=xfail_strict if strict else xfail)(make)


def m_dup_class(d):
    d.put4(d.class_def(1), d.u4(d.class_def(0)))


def m_outs(d):
    n, off, _ = d.section(inputs.TYPE_CODE)
    d.put2(off + 4, 0xFFFF)


def m_bad_descriptor(d):
    t = d.type_index(b"Ltc/seed/Shapes;")
    p, n = d.string_data(d.u4(d.h("type_ids_off") + 4 * t))
    d.b[p + n - 1] = ord(":")


def m_primitive_class(d):
    d.put4(d.class_def(0), d.type_index(b"I"))


def m_array_class(d):
    d.put4(d.class_def(0), d.type_index(b"[I"))


def m_strings_2g(d):
    d.set_h("string_ids_size", 0x7FFFFFFF)


def m_code_count_2g(d):
    n, off, at = d.section(inputs.TYPE_CODE)
    d.put4(at + 4, 0x7FFFFFF0)


def m_members_2g(d):
    n, off, at = d.section(inputs.TYPE_CLASS_DATA)
    d.b[off:off + 5] = b"\xff\xff\xff\xff\x07"  # static_fields_size 2^31 - 1


def m_map_overlap(d):
    entries = d.map()
    # the code items said to start where the strings' data does
    code = [e for e in entries if e[0] == inputs.TYPE_CODE][0]
    strings = [e for e in entries if e[0] == inputs.TYPE_STRING_DATA][0]
    d.put4(code[3] + 8, strings[2])


def m_map_in_header(d):
    d.set_h("map_off", 0x10)


def m_class_data_at_class_def(d):
    d.put4(d.class_def(0) + 24, d.class_def(0))


def m_mutf8(d):
    p, n = d.string_data(d.h("string_ids_size") - 1)
    d.b[p] = 0xFF


def m_uleb_past_section(d):
    # the last uleb128 of the last class_data_item (right before the map list) goes on,
    # through the padding, into the map's bytes
    p = max(d.u4(d.class_def(i) + 24) for i in range(d.h("class_defs_size")))

    def uleb():
        nonlocal p
        v = shift = 0
        while True:
            b = d.b[p]
            p += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return v
    counts = [uleb() for _ in range(4)]
    for i in range(counts[0] + counts[1]):
        uleb(), uleb()
    last = p
    for i in range(counts[2] + counts[3]):
        last = p
        uleb(), uleb()
        last = p
        uleb()
    for i in range(last, d.h("map_off")):
        d.b[i] = 0xFF


def m_code_past_end(d):
    n, off, at = d.section(inputs.TYPE_CODE)
    d.put4(off + 12, 0x7FFFFFFF)  # insns_size


def m_empty(d):
    return b""


def m_seven(d):
    return b"dex\n038"


dex_case("dex-class-defined-twice", m_dup_class, "class Ltc/seed/Shapes$Inner; defined twice")
dex_case("dex-outs-size-65535", m_outs, "outs_size 65535 exceeds registers_size")
dex_case("dex-invalid-descriptor", m_bad_descriptor, 'invalid descriptor "Ltc/seed/Shapes:"')
dex_case("dex-class-def-primitive", m_primitive_class, 'names "I", not a class type')
dex_case("dex-class-def-array", m_array_class, 'names "[I", not a class type')
dex_case("dex-string-ids-2g", m_strings_2g, "string_ids: 2147483647 entries")
dex_case("dex-code-items-2g", m_code_count_2g, "2147483632 items of at least 16 bytes do not fit")
dex_case("dex-class-data-members-2g", m_members_2g, "members cut off")
dex_case("dex-map-overlapping", m_map_overlap, "map_list")
dex_case("dex-map-in-header", m_map_in_header, "map_off not aligned or inside the header")
dex_case("dex-class-data-is-class-def", m_class_data_at_class_def, "not the start of a class_data_item")
dex_case("dex-invalid-mutf8", m_mutf8, "not valid MUTF-8")
dex_case("dex-uleb128-past-section", m_uleb_past_section,
         "class_data_item at offset 1819: LEB128 value wider than 32 bits")
dex_case("dex-non-zero-padding", lambda d: d.b.__setitem__(d.h("map_off") - 1, 1), "non-zero padding")
dex_case("dex-code-past-end", m_code_past_end, "code_item")
dex_case("dex-empty", m_empty, "dex file too short (0 bytes, header is 112)")
dex_case("dex-seven-bytes", m_seven, "dex file too short (7 bytes, header is 112)")


@case("apk-dex-class-defined-twice")
def _(w):
    d = Dex(w.seed_dex())
    m_dup_class(d)
    w.apk("in.apk", d.fix())
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=0, stats=["defined twice"],
                err=["in.apk!classes.dex", "defined twice"], sound=[("out.apk", "in.apk")],
                entries_same=[("out.apk", "in.apk", "classes.dex")])


@case("apk-good")
def _(w):
    w.apk("in.apk", w.seed_dex())
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=0, sound=[("out.apk", "in.apk")])


# --- archives ------------------------------------------------------------------------------

@case("jar-entry-names-dotdot-and-absolute")
def _(w):
    cls = w.seed_class()
    w.jar("in.jar", [Entry("../escape.class", cls), Entry("/abs/Abs.class", cls),
                     Entry("a/../../up.txt", b"x"), Entry("ok/Seed.class", cls)])
    return dict(args=["--in", "in.jar", "--out", "out/x.jar"], rc=0, sound=[("out/x.jar", "in.jar")])


@case("apk-entry-names-dotdot-and-absolute")
def _(w):
    e = w.apk_entries(w.seed_dex()) + [Entry("../../escape.txt", b"x"), Entry("/etc/abs.txt", b"y")]
    w.put("in.apk", build_zip(e))
    return dict(args=["--in", "in.apk", "--out", "out/x.apk"], rc=0, sound=[("out/x.apk", "in.apk")])


@case("jar-duplicate-entry-names-kept")
def _(w):
    # the JVM reads such jars (Debian's xmlbeans is one): both copies are instrumented
    # alike, so whichever a class loader takes is traced with the same ids
    cls = w.seed_class()
    w.jar("in.jar", [Entry("s/Seed.class", cls), Entry("s/Seed.class", cls), Entry("r.txt", b"1"),
                     Entry("r.txt", b"2")])
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=0, sound=[("out.jar", "in.jar")],
                names=[("out.jar", ["s/Seed.class", "s/Seed.class", "r.txt", "r.txt",
                                    # the build-id marker class, last (issue 29)
                                    "com/tencent/matrix/trace/generated/BuildId.class"])])


@case("apk-duplicate-classes-dex")
def _(w):
    dex = w.seed_dex()
    w.put("in.apk", build_zip(w.apk_entries(dex) + [Entry("classes.dex", dex)]))
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=1,
                err=["in.apk!classes.dex", "holds this name twice"])


@case("apk-duplicate-resource")
def _(w):
    e = w.apk_entries(w.seed_dex())
    w.put("in.apk", build_zip(e + [Entry("res/raw/data.bin", b"another")]))
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=1,
                err=["in.apk!res/raw/data.bin", "holds this name twice"])


@case("jar-central-directory-past-end")
def _(w):
    w.put("in.jar", build_zip([Entry("s/Seed.class", w.seed_class())], cd_delta=1 << 20))
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=1, err=["in.jar", "central directory"])


@case("jar-zip64")
def _(w):
    w.put("in.jar", build_zip([Entry("s/Seed.class", w.seed_class(), zip64=True),
                               Entry("res.txt", b"text", method=0, zip64=True)], zip64_end=True))
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=0, sound=[("out.jar", "in.jar")])


@case("jar-zip64-locator-past-end")
def _(w):
    w.put("in.jar", build_zip([Entry("s/Seed.class", w.seed_class())], zip64_end=True, locator_to=1 << 40))
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=1, err=["in.jar", "Zip64"])


@case("jar-encrypted-class")
def _(w):
    w.jar("in.jar", [Entry("s/Seed.class", w.seed_class(), flags=1)])
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=1, err=["in.jar!s/Seed.class", "encrypted"])


@case("apk-encrypted-classes-dex")
def _(w):
    e = w.apk_entries(w.seed_dex())
    e[1].flags = 1
    w.put("in.apk", build_zip(e))
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=1, err=["in.apk!classes.dex", "encrypted"])


@case("jar-encrypted-resource-copied")
def _(w):
    w.jar("in.jar", [Entry("s/Seed.class", w.seed_class()), Entry("secret.txt", b"opaque", flags=1)])
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=0)


def big_entry(w, name, kind, declared=None):
    stream, size, crc = inputs.zeros_stream(520222)  # 1 GiB of zeros
    e = Entry(name, raw=stream, usize=size if declared is None else declared, crc=crc)
    if kind == "apk":
        entries = w.apk_entries(w.seed_dex())
        entries[1] = e
        return w.put("in.apk", build_zip(entries))
    return w.jar("in.jar", [Entry("ok/Seed.class", w.seed_class()), e])


@case("jar-class-inflating-to-1g")
def _(w):
    big_entry(w, "s/Big.class", "jar")
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=1,
                err=["in.jar!s/Big.class", "1073738209 bytes", "--max-input-mb"], rss_mb=200)


@case("apk-dex-inflating-to-1g")
def _(w):
    big_entry(w, "classes.dex", "apk")
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=1,
                err=["in.apk!classes.dex", "1073738209 bytes", "--max-input-mb"], rss_mb=200)


@case("jar-class-inflating-past-its-declared-size")
def _(w):
    big_entry(w, "s/Big.class", "jar", declared=4096)
    return dict(args=["--in", "in.jar", "--out", "out.jar"], rc=1, err=["in.jar!s/Big.class", "corrupt"],
                rss_mb=200)


@case("max-input-mb-refuses-a-larger-entry")
def _(w):
    w.jar("in.jar", [Entry("s/Seed.class", w.seed_class()), Entry("s/Pad.class", bytes(3 << 20))])
    return dict(args=["--max-input-mb", "2", "--in", "in.jar", "--out", "out.jar"], rc=1,
                err=["in.jar!s/Pad.class", "3145728 bytes", "2 MB", "--max-input-mb"])


@case("max-input-mb-is-checked")
def _(w):
    return dict(args=["--max-input-mb", "0", "--in", "x", "--out", "y"], rc=2, err=["--max-input-mb wants"])


@case("dex-sparse-3g")
def _(w):
    w.put("big.dex", w.seed_dex())
    with open(w.path("big.dex"), "r+b") as f:
        f.truncate(3 << 30)
    return dict(args=["--in", "big.dex", "--out", "out.dex"], rc=1,
                err=["big.dex", "3221225472 bytes", "--max-input-mb"], rss_mb=200)


@case("jar-sparse-3g")
def _(w):
    with open(w.path("big.jar"), "wb") as f:
        f.truncate(3 << 30)
    return dict(args=["--in", "big.jar", "--out", "out.jar"], rc=1, err=["big.jar", "no zip end record"],
                rss_mb=200)


@case("apk-600mb-asset-copied")
def _(w):
    # a stored asset of 600 MB of zeros (sparse on disk): copied through, never held
    size = 600 << 20
    crc, chunk = 0, bytes(1 << 20)
    for _ in range(size >> 20):
        crc = inputs.zlib.crc32(chunk, crc)
    head = build_zip(w.apk_entries(w.seed_dex()))
    first_cd = head.index(b"PK\x01\x02")
    locals_ = head[:first_cd]
    name = b"assets/big.bin"
    lh = inputs.struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, size, size, len(name), 0) + name
    at = len(locals_)
    ch = inputs.struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, 20, 0, 0, 0, 0x21, crc, size, size,
                            len(name), 0, 0, 0, 0, 0x81A40000, at) + name
    central = head[first_cd:head.rindex(b"PK\x05\x06")] + ch
    n = len(w.apk_entries(b""))
    with open(w.path("in.apk"), "wb") as f:
        f.write(locals_ + lh)
        f.seek(at + len(lh) + size)
        cd_off = f.tell()
        f.write(central + inputs.struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n + 1, n + 1, len(central), cd_off, 0))
    return dict(args=["--in", "in.apk", "--out", "out.apk"], rc=0, rss_mb=200)


# --- command lines -------------------------------------------------------------------------

def special_case(option, target, xfail=None):
    """option naming a FIFO (nobody writes to it: opening it for reading would block) or
    /dev/zero (endless): refused as not a regular file."""
    kind = "fifo" if target == "fifo" else "devzero"

    @case("%s-%s" % (option.strip("-"), kind), xfail=xfail)
    def _(w):
        w.put("in.jar", build_zip([Entry("s/Seed.class", w.seed_class())]))
        if target == "fifo":
            os.mkfifo(w.path("fifo"))
            path = "fifo"
        else:
            path = "/dev/zero"
        if option == "--in":
            args = ["--in", path, "--out", "out.jar"]
        else:
            args = [option, path, "--in", "in.jar", "--out", "out.jar"]
        return dict(args=args, rc=1, err=[path, "not a regular file"], timeout=30)


for opt in ("--in", "--blocklist", "--proguard-mapping", "--base-mapping", "--classpath"):
    for t in ("fifo", "/dev/zero"):
        special_case(opt, t)


@case("fifos-where-the-outputs-go")
def _(w):
    # what is there is replaced, never opened in a way that blocks
    os.makedirs(w.path("classes/p"))
    w.put("classes/p/Seed.class", w.seed_class())
    os.makedirs(w.path("outdir/p"))
    os.makedirs(w.path("map"))
    for f in ("outdir/p/Seed.class", "map/methodMapping.txt", "map/ignoreMethodMapping.txt"):
        os.mkfifo(w.path(f))
    return dict(args=["--in", "classes", "--out", "outdir"], rc=0, timeout=30,
                changed=["outdir/p/Seed.class", "map/methodMapping.txt"])


def existing(w, names):
    """Earlier outputs, each with its own bytes: they must survive a failed run."""
    for n in names:
        w.put(n, ("an earlier output: %s\n" % n).encode())


@case("same-out-twice")
def _(w):
    w.apk("a.apk", w.seed_dex())
    w.jar("b.jar", [Entry("s/Seed.class", w.seed_class())])
    existing(w, ["out.apk", "map/methodMapping.txt"])
    return dict(args=["--in", "a.apk", "--out", "out.apk", "--in", "b.jar", "--out", "out.apk"], rc=2,
                err=["out.apk", "twice"])


@case("same-pair-twice")
def _(w):
    w.apk("a.apk", w.seed_dex())
    existing(w, ["out.apk"])
    return dict(args=["--in", "a.apk", "--out", "out.apk", "--in", "a.apk", "--out", "./out.apk"], rc=2,
                err=["out.apk", "twice"])


@case("same-out-through-a-symlink")
def _(w):
    w.apk("a.apk", w.seed_dex())
    w.apk("b.apk", w.seed_dex())
    os.makedirs(w.path("real"))
    os.symlink("real", w.path("link"))
    existing(w, ["real/out.apk"])
    return dict(args=["--in", "a.apk", "--out", "real/out.apk", "--in", "b.apk", "--out", "link/out.apk"],
                rc=2, err=["twice"])


@case("same-new-out-through-dotdot")
def _(w):
    # neither output exists yet, nor does new/sub: compared as the file system will take them
    w.apk("a.apk", w.seed_dex())
    w.apk("b.apk", w.seed_dex())
    return dict(args=["--in", "a.apk", "--out", "new/x.apk", "--in", "b.apk", "--out", "new/sub/../x.apk"],
                rc=2, err=["new/sub/../x.apk", "twice"])


@case("out-is-another-in")
def _(w):
    w.apk("a.apk", w.seed_dex())
    w.apk("b.apk", w.seed_dex())
    return dict(args=["--in", "a.apk", "--out", "b.apk", "--in", "b.apk", "--out", "c.apk"], rc=2,
                err=["b.apk", "--in"])


@case("out-is-a-classpath-entry")
def _(w):
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    w.jar("lib.jar", [Entry("s/Kind.class", w.seed_class())])
    return dict(args=["--classpath", "lib.jar", "--in", "a.jar", "--out", "lib.jar"], rc=2,
                err=["lib.jar", "--classpath"])


@case("out-is-its-own-in-also-on-the-classpath")
def _(w):
    # allowed: the input is read whole before anything is written
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    return dict(args=["--classpath", "a.jar", "--in", "a.jar", "--out", "a.jar"], rc=0, changed=["a.jar"])


@case("out-is-the-base-mapping")
def _(w):
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    w.put("base.txt", b"1,1,s.Seed f ()V\n")
    return dict(args=["--base-mapping", "base.txt", "--in", "a.jar", "--out", "base.txt"], rc=2,
                err=["base.txt", "--base-mapping"])


@case("out-is-a-mapping-file")
def _(w):
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    existing(w, ["map/methodMapping.txt"])
    return dict(args=["--in", "a.jar", "--out", "map/methodMapping.txt"], rc=2,
                err=["map/methodMapping.txt", "--mapping-dir"])


@case("out-inside-another-out")
def _(w):
    os.makedirs(w.path("classes/p"))
    w.put("classes/p/Seed.class", w.seed_class())
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    return dict(args=["--in", "classes", "--out", "out", "--in", "a.jar", "--out", "out/a.jar"], rc=2,
                err=["out/a.jar", "inside"])


@case("base-mapping-id-wraps")
def _(w):
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    w.put("base.txt", b"# base\n1,1,s.Seed f ()V\n4294967295,1,s.Seed g ()V\n")
    return dict(args=["--base-mapping", "base.txt", "--in", "a.jar", "--out", "out.jar"], rc=1,
                err=["base.txt", "line 3", "4294967295"])


@case("base-mapping-id-at-matrix-max")
def _(w):
    w.jar("a.jar", [Entry("s/Seed.class", w.seed_class())])
    w.put("base.txt", b"1048575,1,s.Seed g ()V\n")
    return dict(args=["--base-mapping", "base.txt", "--in", "a.jar", "--out", "out.jar"], rc=1,
                err=["base.txt", "line 1", "1048575"])


# --- every existing output as it was when a run fails ---------------------------------------

@case("failure-late-keeps-every-output")
def _(w):
    os.makedirs(w.path("classes/p"))
    w.put("classes/p/Seed.class", w.seed_class())
    w.apk("a.apk", w.seed_dex())
    # found only when the jar is written, after the directory's classes: the listing
    # accepts a comment that could pass for an end record, the writer does not
    w.put("bad.jar", build_zip([Entry("s/Seed.class", w.seed_class())], comment=b"fake PK\5\6 end"))
    existing(w, ["out.apk", "outdir/p/Seed.class", "outdir/other.txt", "bad-out.jar",
                 "map/methodMapping.txt", "map/ignoreMethodMapping.txt", "map/instrument-stats.json"])
    return dict(args=["--in", "a.apk", "--out", "out.apk", "--in", "classes", "--out", "outdir",
                      "--in", "bad.jar", "--out", "bad-out.jar"], rc=1, err=["bad.jar", "end-record signature"])


@case("success-replaces-in-place-and-keeps-the-rest")
def _(w):
    os.makedirs(w.path("classes/p"))
    w.put("classes/p/Seed.class", w.seed_class())
    existing(w, ["outdir/p/Seed.class", "outdir/other.txt"])
    return dict(args=["--in", "classes", "--out", "outdir"], rc=0,
                changed=["outdir/p/Seed.class"], kept=["outdir/other.txt"])


# --- the runner -----------------------------------------------------------------------------

def snapshot(root):
    """{relative path: (kind, digest)} of everything under root, never opening a
    special file; large files by size and time only."""
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                if st.st_size > 64 << 20:
                    snap[rel] = ("file", "%d:%d" % (st.st_size, st.st_mtime_ns))
                else:
                    with open(p, "rb") as f:
                        snap[rel] = ("file", hashlib.sha256(f.read()).hexdigest())
            elif stat.S_ISDIR(st.st_mode):
                snap[rel] = ("dir", "")
            else:
                snap[rel] = ("other", str(stat.S_IFMT(st.st_mode)))
    return snap


def outputs_of(args):
    return [args[i + 1] for i, a in enumerate(args) if a == "--out" and i + 1 < len(args)]


def under(rel, roots):
    rel = os.path.normpath(rel)
    return any(rel == os.path.normpath(r) or rel.startswith(os.path.normpath(r) + os.sep) for r in roots)


def run_tool(cmd, cwd, log, timeout):
    """(exit status, peak RSS in MB, seconds, timed out) of cmd. The peak is GNU time's
    (its child's ru_maxrss): a child of this process would start from Python's own peak,
    which Linux carries across exec."""
    with open(log + ".out", "wb") as out, open(log + ".err", "wb") as err:
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", log + ".rss"] + cmd, cwd=cwd, stdout=out,
                             stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
    t0 = time.monotonic()
    try:
        rc = p.wait(timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        rc = p.wait()
        timed_out = True
    secs = time.monotonic() - t0
    rss = 0.0
    try:
        with open(log + ".rss") as f:
            rss = int(f.read().split()[-1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return rc, rss, secs, timed_out


def zip_entry(path, name):
    import zipfile
    with zipfile.ZipFile(path) as z:
        return z.read(name)


def judge(name, spec, w, tci, src, log, dexdump):
    """The list of rules the case broke."""
    bad = []
    args = spec["args"]
    before = snapshot(w.root)
    # hostile inputs, not apps: the runtime's presence is tests/compiler/cli/runtime.sh's
    cmd = [tci, "--no-runtime-check"] + ([] if spec.get("nomap") else ["--mapping-dir", "map"]) + args
    rc, rss, secs, timed_out = run_tool(cmd, w.root, log, spec.get("timeout", TIMEOUT))
    with open(log + ".err", "rb") as f:
        err = f.read().decode("utf-8", "replace")
    after = snapshot(w.root)
    if timed_out:
        bad.append("hung: killed after %d s" % spec.get("timeout", TIMEOUT))
    elif rc != spec["rc"]:
        bad.append("exit %d, want %d" % (rc, spec["rc"]))
    if "Sanitizer" in err or "runtime error:" in err:
        bad.append("a sanitizer report")
    for s in spec.get("err", []):
        if s not in err:
            bad.append("stderr lacks %r" % s)
    if spec["rc"] != 0 and not err.startswith("tc-instrument: "):
        bad.append("stderr does not start with 'tc-instrument: '")
    limit = spec.get("rss_mb", LIMIT_MB + SLACK_MB)
    if rss > limit:
        bad.append("peak RSS %.0f MB > %d MB" % (rss, limit))
    for rel in after:
        if "tc-tmp" in rel:
            bad.append("left behind: %s" % rel)
    allowed = outputs_of(args) + ["map"]
    changed = sorted(r for r in set(before) | set(after)
                     if before.get(r) != after.get(r) and after.get(r, ("file",))[0] != "dir")
    for rel in changed:
        if rc != 0 or not under(rel, allowed):
            bad.append("%s %s" % ("wrote" if rel in after else "removed", rel))
    if rc == 0:
        for out, inp in spec.get("same", []):
            if after.get(out) != before.get(inp):
                bad.append("%s is not a copy of %s" % (out, inp))
        for out, inp in spec.get("sound", []):
            r = subprocess.run([sys.executable, os.path.join(src, "tests/lib/zipcheck.py"), w.path(out),
                                w.path(inp)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode:
                bad.append("unsound zip: %s" % r.stdout.decode().strip()[:300])
        for out, inp, entry in spec.get("entries_same", []):
            if zip_entry(w.path(out), entry) != zip_entry(w.path(inp), entry):
                bad.append("%s!%s is not a copy" % (out, entry))
        for out, names in spec.get("names", []):
            import zipfile
            with zipfile.ZipFile(w.path(out)) as z:
                got = [i.filename for i in z.infolist()]
            if got != names:
                bad.append("%s holds %s, want %s" % (out, got, names))
        for rel in spec.get("changed", []):
            if before.get(rel) == after.get(rel):
                bad.append("%s was not rewritten" % rel)
        if spec.get("stats"):
            with open(w.path("map/instrument-stats.json")) as f:
                problems = "\n".join(str(v) for p in json.load(f).get("problems", []) for v in p.values())
            for t in spec["stats"]:
                if t not in problems:
                    bad.append("instrument-stats.json lists no problem with %r" % t)
        for rel in spec.get("kept", []):
            if before.get(rel) != after.get(rel):
                bad.append("%s was not kept" % rel)
    if spec.get("dexdump_rejects") and dexdump:
        r = subprocess.run([dexdump, "-c", w.path(spec["dexdump_rejects"])], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode == 0:
            bad.append("dexdump accepts the input: the case is not hostile")
    return bad, rc, rss, secs, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tci")
    ap.add_argument("--src")
    ap.add_argument("--work")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for name, _, kw in CASES:
            print(name + ("  [xfail: %s]" % kw["xfail"] if kw.get("xfail") else ""))
        return 0
    for tool, pkg in (("unzip", "unzip"), ("dexdump", "dexdump"), ("/usr/bin/time", "time")):
        if not shutil.which(tool):
            if os.environ.get("TC_REQUIRE_TOOLS") == "1":
                print("FAIL: command '%s' is missing (Debian package %s)" % (tool, pkg))
                return 1
            print("SKIP: command '%s' is missing (install the Debian package %s)" % (tool, pkg))
            return 77
    tci = os.path.abspath(a.tci)
    src = os.path.abspath(a.src)
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed = 0
    n = 0
    for name, fn, kw in CASES:
        if a.only and name not in a.only:
            continue
        n += 1
        root = os.path.join(work, name)
        os.makedirs(root)
        w = Work(root, src)
        spec = fn(w)
        log = os.path.join(work, name + ".log")
        bad, rc, rss, secs, err = judge(name, spec, w, tci, src, log, shutil.which("dexdump"))
        xfail = kw.get("xfail")
        line = "%s (exit %d, %.0f MB, %.1f s)" % (name, rc, rss, secs)
        if bad and xfail:
            print("ok - %s # expected to fail (%s): %s" % (line, xfail, "; ".join(bad)[:300]))
        elif bad:
            failed += 1
            print("not ok - %s" % line)
            for b in bad:
                print("#   %s" % b)
            for l in err.splitlines()[:8]:
                print("#   stderr: %s" % l[:300])
        elif xfail:
            failed += 1
            print("not ok - %s # marked xfail (%s) but behaves: drop the mark" % (line, xfail))
        else:
            print("ok - %s" % line)
            shutil.rmtree(root)  # the 3 GB sparse file and the rest
    print("# %d cases, %d failed" % (n, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
