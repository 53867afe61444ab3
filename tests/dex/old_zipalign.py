#!/usr/bin/env python3
"""Rewrites an APK as zipalign before build tools 24 aligned it: the data of every stored
entry on 4 bytes, padded with 1 to 3 bare zero bytes in the local extra block (no field
header, no 0xd935 field), no other extra field, no signature change (the entries' bytes
are copied as they are). Such APKs are still found in the wild (npm packages bundle
them); `unzip -t` accepts them, as fewer than 4 bytes left in an extra block are no field.

usage: old_zipalign.py IN.apk OUT.apk
"""
import struct
import sys
import zipfile


def main():
    src = open(sys.argv[1], "rb").read()
    out, central = bytearray(), bytearray()
    infos = zipfile.ZipFile(sys.argv[1]).infolist()
    for zi in infos:
        h = zi.header_offset
        n, m = struct.unpack("<HH", src[h + 26:h + 30])
        data = src[h + 30 + n + m:h + 30 + n + m + zi.compress_size]
        name = src[h + 30:h + 30 + n]
        pad = (-(len(out) + 30 + len(name))) % 4 if zi.compress_type == 0 else 0
        local = len(out)
        flags = zi.flag_bits & ~8  # sizes in the local header, no data descriptor
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, zi.compress_type, 0, 0x21, zi.CRC,
                           zi.compress_size, zi.file_size, len(name), pad)
        out += name + bytes(pad) + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, zi.compress_type, 0,
                               0x21, zi.CRC, zi.compress_size, zi.file_size, len(name), 0, 0, 0, 0, 0,
                               local)
        central += name
    cd = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(infos), len(infos), len(central), cd, 0)
    with open(sys.argv[2], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
