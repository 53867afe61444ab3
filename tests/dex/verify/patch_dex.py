#!/usr/bin/env python3
"""Patches the code_item of the one method whose code starts with the marker
`const v0, 0x7e57ca5e`, for bad cases smali cannot write (it computes ins_size and
outs_size and aligns payloads), then fixes the signature and checksum.

usage: patch_dex.py FILE.dex PATCH...
  regs=N | ins=N | outs=N        a code_item header field
  unit K = V | unit K += V       code unit K of the method's insns (V: int, 0x hex)
"""
import hashlib
import re
import struct
import sys
import zlib

MARK = bytes.fromhex("14005eca577e")  # const v0, 0x7e57ca5e (31i)


def main():
    path, patches = sys.argv[1], sys.argv[2:]
    data = bytearray(open(path, "rb").read())
    at = data.find(MARK)
    if at < 0 or data.find(MARK, at + 1) >= 0:
        sys.exit(f"{path}: expected exactly one marker const")
    code = at - 16  # insns follow the 16-byte code_item header
    for p in patches:
        m = re.fullmatch(r"(regs|ins|outs)=(\d+)", p.strip())
        if m:
            struct.pack_into("<H", data, code + {"regs": 0, "ins": 2, "outs": 4}[m[1]], int(m[2]))
            continue
        m = re.fullmatch(r"unit (\d+) (=|\+=) (-?(?:0x[0-9a-fA-F]+|\d+))", p.strip())
        if not m:
            sys.exit(f"bad patch: {p!r}")
        off = at + 2 * int(m[1])
        v = int(m[3], 0)
        if m[2] == "+=":
            v += struct.unpack_from("<H", data, off)[0]
        struct.pack_into("<H", data, off, v & 0xFFFF)
    data[12:32] = hashlib.sha1(bytes(data[32:])).digest()
    struct.pack_into("<I", data, 8, zlib.adler32(bytes(data[12:])))
    open(path, "wb").write(data)


main()
