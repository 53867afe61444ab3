#!/usr/bin/env python3
"""Compares the call trees of one javac compilation, traced whole ("full") and with the
hot list kept out ("hot"), as `tc-trace tree` printed them.

usage: compare_trees.py FULL.tree HOT.tree HOT.rules [MIN_MS]

A method's time is its total in the tree: every path ending in it, without counting a
call again under another call of the same method. Prints, for the methods of at least
MIN_MS (default 1) ms in the full tree: how many the hot build still traces, the ones
the hot list kept out (with their times), and any other that went missing (there
should be none: a method not on the list is instrumented in both builds)."""
import sys


def totals(path):
    """method -> (total ms, calls), and the tree's whole time."""
    out, stack, whole = {}, [], 0
    with open(path) as f:
        for line in f:
            if line.startswith('#') or line.lstrip().startswith('total ms'):
                continue
            total, _pct, _self, calls = line[:38].split()
            rest = line[39:].rstrip('\n')
            name = rest.lstrip(' ')
            depth = (len(rest) - len(name)) // 2
            name = name.split('  [no out')[0]
            del stack[depth:]
            if depth == 0:
                whole += int(total)
            if name not in stack:
                t, c = out.get(name, (0, 0))
                out[name] = (t + int(total), c + int(calls))
            else:
                t, c = out[name]
                out[name] = (t, c + int(calls))
            stack.append(name)
    return out, whole


def listed(path):
    names = set()
    with open(path) as f:
        for line in f:
            if line.startswith('-keepmethod '):
                cls, meth, desc = line.split()[1:4]
                names.add(f'{cls}.{meth} {desc}')
    return names


def main():
    full, whole_full = totals(sys.argv[1])
    hot, whole_hot = totals(sys.argv[2])
    rules = listed(sys.argv[3])
    min_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    big = {m: v for m, v in full.items() if v[0] >= min_ms and 'dispatchMessage' not in m}
    kept_out = sorted(((v, m) for m, v in big.items() if m in rules), reverse=True)
    still = [m for m in big if m not in rules and m in hot]
    missing = sorted(m for m in big if m not in rules and m not in hot)
    print(f'one compilation: {whole_full} ms traced whole, {whole_hot} ms with the hot list kept out')
    print(f'methods of {min_ms} ms or more in the full tree: {len(big)}; '
          f'still traced by the hot build: {len(still)}; kept out by the hot list: {len(kept_out)}; '
          f'missing otherwise: {len(missing)}')
    for m in missing:
        print(f'  MISSING {full[m][0]} ms {m}')
    if kept_out:
        print(f'kept out (their time shows as their callers\' self time), {sum(v[0] for v, _ in kept_out)} ms in all:')
        for (t, c), m in kept_out[:15]:
            print(f'  {t:6d} ms {c:8d} calls  {m}')
        if len(kept_out) > 15:
            print(f'  ... {len(kept_out) - 15} more')
    # Time moves from the kept-out methods to their callers: the heaviest traced
    # methods' totals compared.
    print('heaviest methods traced by both, ms in the full / hot tree:')
    for m in sorted(still, key=lambda m: -full[m][0])[:10]:
        print(f'  {full[m][0]:6d} {hot[m][0]:6d}  {m}')
    return 1 if missing else 0


sys.exit(main())
