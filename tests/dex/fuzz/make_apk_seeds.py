#!/usr/bin/env python3
"""Makes the APK fuzz target's seeds (seeds-apk/) from our own seed dex files
(seeds/, assembled from seeds-src/ by make_seeds.sh), with the zip writer of the
hostile suite (tests/hostile/inputs.py): small APKs with the shapes the APK path must
keep straight. The seeds are committed; run this after changing it.

    seeds-apk/plain.apk         classes.dex deflated; a stored resource, a stored .so, an
                                old signature file
    seeds-apk/old-zipalign.apk  the same aligned as zipalign before build tools 24 did
                                (bare zero padding in the local extra blocks)
    seeds-apk/two-dex.apk       classes.dex stored behind an old 0xd935 field, classes2.dex
                                deflated, a time extra field on the resource
    seeds-apk/malformed-dex.apk a classes.dex defining a class twice (copied unchanged)
    seeds-apk/lone.dex          a dex on its own
"""
import os
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../.."))
sys.path.insert(0, os.path.join(root, "tests/hostile"))
from inputs import Dex, Entry, build_zip  # noqa: E402

out = os.path.join(here, "seeds-apk")
os.makedirs(out, exist_ok=True)
dex26 = open(os.path.join(here, "seeds/shapes-api26.dex"), "rb").read()
dex21 = open(os.path.join(here, "seeds/shapes-api21.dex"), "rb").read()


def entries(dex, dex_method=8, dex_extra=b"", more=()):
    return [Entry("AndroidManifest.xml", b"\x03\x00\x08\x00manifest"),
            Entry("classes.dex", dex, method=dex_method, lextra=dex_extra)] + list(more) + [
            Entry("res/raw/data.bin", b"stored resource", method=0),
            Entry("lib/arm64-v8a/libx.so", b"\x7fELF" + bytes(40), method=0),
            Entry("META-INF/CERT.SF", b"Signature-Version: 1.0\r\n")]


def put(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


put("plain.apk", build_zip(entries(dex26)))
subprocess.run([sys.executable, os.path.join(root, "tests/dex/old_zipalign.py"), os.path.join(out, "plain.apk"),
                os.path.join(out, "old-zipalign.apk")], check=True)
two = entries(dex26, dex_method=0, dex_extra=b"\x35\xd9\x04\x00\x04\x00\x00\x00",
              more=[Entry("classes2.dex", dex21)])
two[3].lextra = b"UT\x05\x00\x03\x10\x20\x30\x40"
put("two-dex.apk", build_zip(two))
d = Dex(dex26)
d.put4(d.class_def(1), d.u4(d.class_def(0)))
put("malformed-dex.apk", build_zip(entries(d.fix())))
shutil.copyfile(os.path.join(here, "seeds/shapes-api26.dex"), os.path.join(out, "lone.dex"))
for f in sorted(os.listdir(out)):
    print(f, os.path.getsize(os.path.join(out, f)))
