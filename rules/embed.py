#!/usr/bin/env python3
"""Writes a C file defining `const char NAME[]` with the bytes of INPUT."""
import sys

name, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(src, 'rb').read()
with open(dst, 'w') as out:
    out.write('/* Generated from %s by rules/embed.py. */\n' % src.split('/')[-1])
    out.write('#include <stddef.h>\n')
    out.write('const char %s[] = {\n' % name)
    for i in range(0, len(data), 12):
        out.write('\t' + ' '.join('0x%02x,' % b for b in data[i:i + 12]) + '\n')
    out.write('\t0x00,\n};\n')
    out.write('const size_t %s_len = %d;\n' % (name, len(data)))
