#!/usr/bin/env python3
"""Layers point down: fails when an #include "..." in one top-level folder reaches a
folder it must not (see the READMEs of base/, classfile/, dex/, rules/, mapfile/, src/,
runtime/, trace/).

    tests/tools/layers.py [ROOT]       check the tree at ROOT (default: this repository)
    tests/tools/layers.py --self-test  check that planted bad includes are caught

Which folder an include lands in is found as the compiler would find it: next to the
including file, then from the including folder's own root and tree, then from the other
folders' roots and trees. A name found in no folder of ours is a system or generated
header and is not judged. A name that could be two folders' header is an error: the
include must say which.

The rule table is by layer, bottom first; base/ is the bottom layer (error record,
arena, byte buffer), which every other layer may include.
"""
import os
import re
import shutil
import sys
import tempfile

FOLDERS = ['base', 'classfile', 'dex', 'rules', 'mapfile', 'src', 'runtime', 'trace']
# What each layer may include, itself aside. base/ includes nothing of ours; everyone
# may include base/; runtime/ stands alone (it ships in apps) and takes only base/.
ALLOWED = {
    'base': set(),
    'classfile': {'base'},
    'dex': {'base'},
    'rules': {'base', 'classfile', 'dex', 'mapfile'},
    'mapfile': {'base'},
    'src': {'base', 'classfile', 'dex', 'rules', 'mapfile'},
    'runtime': {'base', 'runtime/include'},
    # the runtime's public headers: an app's NDK build has runtime/include/ alone, so they
    # include nothing but each other (their own error record, tc_rt_error.h, not base's)
    'runtime/include': set(),
    # the runtime's internals (runtime/src/): its public headers besides
    'runtime/src': {'base', 'runtime', 'runtime/include'},
    # tc-trace and tc-ringdump: the runtime's public headers (the ring-file format, the
    # analysis), never its internals; base/ and mapfile/
    'trace': {'base', 'mapfile', 'runtime', 'runtime/include'},
}
# Rooms of a folder that are a layer of their own, above the rest of the folder.
SUBLAYERS = {'runtime/src/': 'runtime/src', 'runtime/include/': 'runtime/include'}
# Folders never scanned (generated or third-party code would live there).
SKIP_DIRS = {'build', '.git'}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(rel):
    """The layer of a repository-relative path, or None for a file outside the layers."""
    for prefix, layer in SUBLAYERS.items():
        if rel.startswith(prefix):
            return layer
    top = rel.split('/', 1)[0]
    return top if top in FOLDERS else None


def index(root):
    """Every file under the layer folders: relative path, and basename -> paths."""
    files, by_name = set(), {}
    for top in FOLDERS:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(s for s in subdirs if s not in SKIP_DIRS)
            for n in names:
                rel = os.path.relpath(os.path.join(d, n), root)
                files.add(rel)
                by_name.setdefault(n, []).append(rel)
    return files, by_name


def resolve(root, files, by_name, src, name):
    """The path an include of `name` from file `src` reaches, a list of candidates when
    it is ambiguous, or None when it is no file of ours."""
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if here in files:
        return here
    top = src.split('/', 1)[0]
    own = os.path.normpath(os.path.join(top, name))
    if own in files:
        return own
    base = os.path.basename(name)
    mine = [p for p in by_name.get(base, []) if p.split('/', 1)[0] == top and p.endswith('/' + name)]
    if len(mine) == 1:
        return mine[0]
    others = []
    for other in FOLDERS:
        if other == top:
            continue
        p = os.path.normpath(os.path.join(other, name))
        if p in files:
            others.append(p)
            continue
        others += [q for q in by_name.get(base, []) if q.split('/', 1)[0] == other and q.endswith('/' + name)]
    if len(mine) > 1:
        return sorted(mine)
    if len(others) == 1:
        return others[0]
    return sorted(others) if others else None


def check(root):
    """The violations in the tree at root, as lines of text."""
    files, by_name = index(root)
    bad = []
    for src in sorted(files):
        if not src.endswith(('.c', '.h')):
            continue
        me = layer_of(src)
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            got = resolve(root, files, by_name, src, name)
            if got is None:
                continue
            if isinstance(got, list):
                bad.append(f'{src}:{line}: #include "{name}" could be any of {", ".join(got)}: say which')
                continue
            them = layer_of(got)
            if them is None or them == me or them in ALLOWED[me]:
                continue
            bad.append(f'{src}:{line}: #include "{name}" reaches {got}: {me}/ must not include {them}/ '
                       f'(it may include {", ".join(sorted(ALLOWED[me])) or "nothing of ours"})')
    return bad


def self_test():
    """A small tree, checked clean, then with each kind of bad include planted."""
    good = {
        'base/arena.h': '',
        'base/tc_error.h': '',
        'classfile/classfile.h': '#include "arena.h"\n',
        'dex/dex.h': '#include "arena.h"\n#include "tc_error.h"\n',
        'rules/rules.h': '#include "classfile.h"\n#include "dex.h"\n',
        'src/pipeline/pipeline.h': '#include "rules.h"\n#include "containers/jar.h"\n#include <stdio.h>\n',
        'src/containers/jar.h': '#include "tc_error.h"\n',
        'src/output/json.h': '',
        'runtime/src/json.h': '',
        'runtime/src/ring.h': '#include "json.h"\n#include "tc_runtime.h"\n',
        'runtime/include/tc_runtime.h': '',
        'mapfile/method_mapping.h': '#include "tc_error.h"\n',
        'trace/trace_mapping.h': '#include "method_mapping.h"\n#include "tc_runtime.h"\n',
    }
    planted = [
        ('classfile/cp.c', '#include "rules.h"\n', 'classfile/ must not include rules/'),
        ('classfile/cp.c', '#include "dex.h"\n', 'classfile/ must not include dex/'),
        ('dex/dex_read.c', '#include "pipeline/pipeline.h"\n', 'dex/ must not include src/'),
        ('dex/dex_read.c', '#include "classfile.h"\n', 'dex/ must not include classfile/'),
        ('rules/rules.c', '#include "containers/jar.h"\n', 'rules/ must not include src/'),
        ('src/pipeline/x.c', '#include "ring.h"\n', 'src/ must not include runtime/'),
        ('src/pipeline/x.c', '#include "tc_runtime.h"\n', 'src/ must not include runtime/'),
        ('runtime/src/x.c', '#include "classfile.h"\n', 'runtime/src/ must not include classfile/'),
        ('runtime/src/x.c', '#include "pipeline/pipeline.h"\n', 'runtime/src/ must not include src/'),
        ('runtime/src/x.c', '#include "method_mapping.h"\n', 'runtime/src/ must not include mapfile/'),
        ('mapfile/x.c', '#include "rules.h"\n', 'mapfile/ must not include rules/'),
        ('trace/x.c', '#include "rules.h"\n', 'trace/ must not include rules/'),
        ('runtime/src/x.c', '#include "trace_mapping.h"\n', 'runtime/src/ must not include trace/'),
        ('trace/x.c', '#include "ring.h"\n', 'trace/ must not include runtime/src/'),
        ('runtime/include/x.h', '#include "ring.h"\n', 'runtime/include/ must not include runtime/src/'),
        ('runtime/include/x.h', '#include "tc_error.h"\n', 'runtime/include/ must not include base/'),
        ('base/arena.h', '#include "classfile.h"\n', 'base/ must not include classfile/'),
        ('base/x.h', '#include "dex.h"\n', 'base/ must not include dex/'),
        ('rules/rules.c', '#include "json.h"\n', 'could be any of'),
    ]
    failures = 0

    def tree(extra):
        d = tempfile.mkdtemp(prefix='tc-layers-')
        for rel, text in list(good.items()) + extra:
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'a') as f:
                f.write(text)
        return d

    d = tree([])
    got = check(d)
    shutil.rmtree(d)
    if got:
        print('self-test: the clean tree was refused:\n  ' + '\n  '.join(got))
        failures += 1
    for rel, text, want in planted:
        d = tree([(rel, text)])
        got = check(d)
        shutil.rmtree(d)
        if len(got) != 1 or want not in got[0]:
            print(f'self-test: {rel} with {text.strip()}: wanted one "{want}", got {got}')
            failures += 1
        else:
            print(f'self-test: caught {got[0]}')
    print(f'self-test: {len(planted) - failures if failures else len(planted)} planted includes caught'
          if not failures else f'self-test: {failures} failures')
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    bad = check(os.path.abspath(root))
    for b in bad:
        print(b)
    if bad:
        print(f'layers.py: {len(bad)} include(s) run up a layer or are ambiguous')
        return 1
    print('layers.py: every #include points down')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
