"""Hostile inputs for tc-instrument, made byte by byte without the code under test:
damaged dex files (from a valid seed), zip archives written field by field (names,
flags, sizes and offsets as chosen), and deflate streams that inflate to a gigabyte.
Used by hostile.py."""
import hashlib
import struct
import zlib

# --- dex ------------------------------------------------------------------------------

HEADER_FIELDS = ("file_size header_size endian_tag link_size link_off map_off string_ids_size "
                 "string_ids_off type_ids_size type_ids_off proto_ids_size proto_ids_off "
                 "field_ids_size field_ids_off method_ids_size method_ids_off class_defs_size "
                 "class_defs_off data_size data_off").split()

TYPE_CODE, TYPE_CLASS_DATA, TYPE_STRING_DATA, TYPE_MAP = 0x2001, 0x2000, 0x2002, 0x1000


class Dex:
    """A dex file as bytes, with the header, the map and the ids located, for edits in
    place; fix() recomputes the signature and the checksum."""

    def __init__(self, data):
        self.b = bytearray(data)

    def u2(self, off):
        return struct.unpack_from("<H", self.b, off)[0]

    def u4(self, off):
        return struct.unpack_from("<I", self.b, off)[0]

    def put2(self, off, v):
        struct.pack_into("<H", self.b, off, v)

    def put4(self, off, v):
        struct.pack_into("<I", self.b, off, v)

    def h(self, name):
        return self.u4(32 + 4 * HEADER_FIELDS.index(name))

    def set_h(self, name, v):
        self.put4(32 + 4 * HEADER_FIELDS.index(name), v)

    def map(self):
        """[(type, count, offset, where the entry is)]"""
        m = self.h("map_off")
        return [(self.u2(m + 4 + 12 * i), self.u4(m + 8 + 12 * i), self.u4(m + 12 + 12 * i), m + 4 + 12 * i)
                for i in range(self.u4(m))]

    def section(self, type_):
        for t, n, off, at in self.map():
            if t == type_:
                return n, off, at
        raise KeyError(hex(type_))

    def string_data(self, i):
        """(offset of the MUTF-8 bytes, their length) of string i"""
        p = self.u4(self.h("string_ids_off") + 4 * i)
        while self.b[p] & 0x80:
            p += 1
        p += 1
        return p, self.b.index(0, p) - p

    def type_desc(self, t):
        p, n = self.string_data(self.u4(self.h("type_ids_off") + 4 * t))
        return bytes(self.b[p:p + n])

    def type_index(self, desc):
        for t in range(self.h("type_ids_size")):
            if self.type_desc(t) == desc:
                return t
        raise KeyError(desc)

    def class_def(self, i):
        return self.h("class_defs_off") + 32 * i

    def fix(self):
        self.b[12:32] = hashlib.sha1(self.b[32:]).digest()
        struct.pack_into("<I", self.b, 8, zlib.adler32(bytes(self.b[12:])) & 0xFFFFFFFF)
        return bytes(self.b)


# --- zip --------------------------------------------------------------------------------


class Entry:
    def __init__(self, name, data=b"", method=8, flags=0, lextra=b"", cextra=b"", usize=None, csize=None,
                 crc=None, raw=None, local=True, zip64=False):
        self.name = name.encode() if isinstance(name, str) else name
        self.data = data
        self.method = method
        self.flags = flags
        self.lextra = lextra
        self.cextra = cextra
        self.raw = raw  # the stored bytes as given (method 8: a raw deflate stream)
        self.usize, self.csize, self.crc = usize, csize, crc
        self.zip64 = zip64


def deflate(data, level=6):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def build_zip(entries, comment=b"", cd_delta=0, zip64_end=False, locator_to=None):
    """A zip archive as the entries say (no check of anything): the local headers and
    data, the central directory, the end records. cd_delta moves the directory offset
    the end record gives; zip64_end writes Zip64 end records, whose locator points at
    locator_to when given."""
    out = bytearray()
    central = bytearray()
    for e in entries:
        raw = e.raw if e.raw is not None else (deflate(e.data) if e.method == 8 else e.data)
        crc = e.crc if e.crc is not None else zlib.crc32(e.data) & 0xFFFFFFFF
        usize = e.usize if e.usize is not None else len(e.data)
        csize = e.csize if e.csize is not None else len(raw)
        local = len(out)
        lext = e.lextra
        cext = e.cextra
        if e.zip64:
            lext = struct.pack("<HHQQ", 1, 16, usize, csize) + lext
            cext = struct.pack("<HHQQQ", 1, 24, usize, csize, local) + cext
        l_u, l_c = (0xFFFFFFFF, 0xFFFFFFFF) if e.zip64 else (usize, csize)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if e.zip64 else 20, e.flags, e.method, 0, 0x21,
                           crc, l_c, l_u, len(e.name), len(lext)) + e.name + lext + raw
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, 45 if e.zip64 else 20, e.flags,
                               e.method, 0, 0x21, crc, l_c, l_u, len(e.name), len(cext), 0, 0, 0, 0x81A40000,
                               0xFFFFFFFF if e.zip64 else local) + e.name + cext
    cd = len(out)
    out += central
    if zip64_end:
        at = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(entries), len(entries), len(central),
                           cd)
        out += struct.pack("<IIQI", 0x07064B50, 0, at if locator_to is None else locator_to, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, len(comment))
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central),
                           cd + cd_delta, len(comment))
    return bytes(out + comment)


def zeros_stream(units):
    """A raw deflate stream of one fixed-Huffman block inflating to 1 + 2064 * units
    zero bytes (a literal 0, then 8 * units matches of length 258 at distance 1), made
    without compressing anything: each match is 13 bits, so 8 of them are 13 bytes and
    the stream is periodic. Returns (stream, size, crc32)."""
    def bits(n_matches):
        acc, nbits, out = 0, 0, bytearray()

        def put(v, n):  # v holds n bits, LSB first
            nonlocal acc, nbits
            acc |= v << nbits
            nbits += n
            while nbits >= 8:
                out.append(acc & 0xFF)
                acc >>= 8
                nbits -= 8

        def code(c, n):  # Huffman codes go MSB first
            put(int(format(c, "0%db" % n)[::-1], 2), n)

        put(1, 1)  # BFINAL
        put(1, 2)  # BTYPE 01: fixed codes
        code(0x30, 8)  # literal 0
        for _ in range(n_matches):
            code(0b11000101, 8)  # length 258: code 285
            code(0, 5)  # distance 1: code 0
        code(0, 7)  # end of block: code 256
        if nbits:
            out.append(acc & 0xFF)
        return bytes(out)

    small = bits(8 * 4)
    d = zlib.decompressobj(-15)
    assert d.decompress(small) == bytes(1 + 258 * 32) and d.eof
    # bytes [2, 2 + 13 * 3) repeat with period 13: insert periods at byte 15
    cut, period = 15, small[2:15]
    assert small[15:28] == period
    stream = small[:cut] + period * (units - 4) + small[cut:]
    size = 1 + 2064 * units
    crc, left, chunk = 0, size, bytes(1 << 20)
    while left:
        n = min(left, len(chunk))
        crc = zlib.crc32(chunk[:n], crc)
        left -= n
    return stream, size, crc & 0xFFFFFFFF
