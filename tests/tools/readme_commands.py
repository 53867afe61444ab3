#!/usr/bin/env python3
"""The documentation's commands still parse, and its links still lead somewhere.

    tests/tools/readme_commands.py --root SRC [--build DIR] [--tool NAME=PATH]... [-v] [FILE.md...]
    tests/tools/readme_commands.py --self-test --root SRC [--tool NAME=PATH]...

Reads the fenced code blocks (sh, bash, shell, console or none) of FILE.md (default:
README.md and docs/*.md under SRC) and checks every command whose program is one of the
tools below, by asking the tool:

- its subcommand exists (tc-trace's "Commands:" list; tc-instrument's usage lines);
- every option it uses is one the tool's help lists for that subcommand (tc-trace: the
  command's usage lines, with [SLICE] expanded, and its own paragraph; the others: their
  whole --help or usage text; "-m, --mapping" style aliases count as one);
- tc-trace and tc-instrument parse their arguments in order and stop at --help, printing
  the usage: the command, --help appended, is run in an empty directory and must exit 0
  (this checks that an option applies to the subcommand and that its value parses; nothing
  is read or written). Lines with [...] are synopses: only their options are checked.

Outside code blocks: every local link and image ([text](path), ![alt](path)) must name a
file or directory that exists, and a #fragment a heading of the target page (GitHub's
slugs); every path in backticks under a top-level folder of the repository must exist
(a * matches as a glob), and one under build/ must be made by --build DIR when given (one
of its targets, or a file there); so must a command in a code block run as scripts/...,
bench/... or build/....

--self-test plants a wrong option, a wrong subcommand, an option of another subcommand,
a bad value, a broken link, a broken anchor and a missing path in a page of its own and
checks that each one is reported (and that a good page passes).

-v prints each command checked.

Exit status: 0 when all is well, 1 when something is wrong (each problem is printed with
FILE:LINE), 2 on usage errors.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# How to ask each tool for its options. help: the arguments that print its help (stdout
# or stderr); dry: it parses its arguments in order and stops at --help; stop: options
# after this token belong to another program.
SPECS = {
    'tc-trace': {'help': ['--help'], 'dry': True},
    'tc-instrument': {'help': ['--help'], 'dry': True},
    'tc-dump': {'help': ['--help']},
    'tc-ringdump': {'help': []},
    'tc-dexverify': {'help': []},
    'fresh-check.sh': {'help': ['--help'], 'stop': '--'},
}
SHELL_LANGS = {'', 'sh', 'bash', 'shell', 'console', 'sh-session'}
TOP = ['.ci', 'base', 'bench', 'classfile', 'dex', 'docs', 'mapfile', 'rules', 'runtime',
       'samples', 'scripts', 'src', 'tests', 'trace']
VERBOSE = False
OPT = re.compile(r'(?<![\w/.$-])(--?[A-Za-z][A-Za-z0-9-]*)')


def run(argv, cwd=None, env=None):
    p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def options_in(text):
    return set(OPT.findall(text))


def aliases(text):
    """Pairs written as "-m, --mapping FILE" or "--threads N, -j N"."""
    pairs = []
    for m in re.finditer(r'(--?[A-Za-z][\w-]*)(?: [A-Z_]+)?, (--?[A-Za-z][\w-]*)', text):
        pairs.append((m.group(1), m.group(2)))
    return pairs


def block_after(lines, start):
    """The lines from start up to the first blank line."""
    out = []
    for l in lines[start:]:
        if not l.strip():
            break
        out.append(l)
    return out


class Tool:
    """What one tool's help says: its subcommands and the options each one takes."""

    def __init__(self, name, path):
        self.name, self.path, self.spec = name, path, SPECS[name]
        rc, out, err = run([path] + self.spec['help'])
        self.help = out + err
        if not self.help.strip():
            raise SystemExit(f'readme_commands: {path} {" ".join(self.spec["help"])} printed nothing')
        self.cache = {}
        self.subcommands = {}  # name -> (options, positional count or None)
        if name == 'tc-trace':
            lines = self.help.splitlines()
            i = next((k for k, l in enumerate(lines) if l.strip() == 'Commands:'), None)
            if i is None:
                raise SystemExit('readme_commands: tc-trace --help has no "Commands:" list')
            for l in block_after(lines, i + 1):
                self.subcommands[l.split()[0]] = None  # options: asked for when needed
            if re.search(r'tc-trace help COMMAND', self.help):
                self.subcommands['help'] = (set(), None)
        else:
            # "tool word PLACEHOLDER..." usage lines name subcommands (tc-instrument diff)
            for l in self.help.splitlines():
                m = re.match(r'\s*(?:usage:\s*)?' + re.escape(name) + r' ([a-z][a-z-]*)((?: [A-Z_]+)*)\s*$', l)
                if m:
                    self.subcommands[m.group(1)] = (options_in(m.group(2)), len(m.group(2).split()))

    def allowed(self, sub):
        """The options the help lists for subcommand sub (None: the main form)."""
        if sub in self.cache:
            return self.cache[sub]
        if self.name == 'tc-trace' and sub is not None:
            rc, out, err = run([self.path, 'help', sub])
            lines = (out + err).splitlines()
            u = next((k for k, l in enumerate(lines) if l.startswith('usage:')), None)
            usage = '\n'.join(block_after(lines, u)) if u is not None else ''
            text = usage
            for k, l in enumerate(lines):
                # a placeholder of the usage, [NAME], expanded from its section "NAME ...:"
                m = re.match(r'([A-Z]+)\b.*:$', l)
                if m and '[' + m.group(1) + ']' in usage:
                    text += '\n' + '\n'.join(block_after(lines, k + 1))
                # the command's own paragraph, "sub:  ..." and its indented lines
                if l.startswith(sub + ':'):
                    para = [l]
                    for l2 in lines[k + 1:]:
                        if not l2.startswith(' '):
                            break
                        para.append(l2)
                    text += '\n' + '\n'.join(para)
            opts = options_in(text)
            whole = '\n'.join(lines)
        elif sub is not None:
            opts = set(self.subcommands[sub][0])
            whole = self.help
        else:
            # the main form: every option of the help but those only in subcommand lines
            opts = options_in(self.help)
            whole = self.help
        for a, b in aliases(whole):
            if a in opts or b in opts:
                opts |= {a, b}
        opts |= {'--help', '-h'}
        self.cache[sub] = opts
        return opts


def strip_comment(line):
    """A shell line without its # comment (a # that starts a word, outside quotes)."""
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in '\'"':
            q = c
        elif c == '#' and (i == 0 or line[i - 1] in ' \t'):
            return line[:i]
    return line


def code_lines(text):
    """(line number, text, in a shell-like block) of every line inside a fenced code block,
    continuation lines joined."""
    out, fence, lang, pending, pending_no = [], None, '', '', 0
    for no, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        m = re.match(r'(`{3,}|~{3,})\s*([\w+-]*)', s)
        if fence is None and m:
            fence, lang = m.group(1), m.group(2).lower()
            continue
        if fence is not None and s.startswith(fence) and s.strip('`~') == '':
            fence = None
            continue
        if fence is None:
            continue
        if lang not in SHELL_LANGS:
            continue
        if pending:
            pending += ' ' + s
        else:
            pending, pending_no = s, no
        if pending.endswith('\\'):
            pending = pending[:-1]
            continue
        out.append((pending_no, pending))
        pending = ''
    return out


def commands(line):
    """The simple commands of a shell line, as token lists."""
    line = strip_comment(line).strip()
    # a command substitution is another command, whose output the shell splices in
    # (README's `$([ -f $base ] && echo --base-mapping $base)`): its words are no
    # arguments of the tool around it
    line = re.sub(r'\$\([^()]*\)', '', line)
    if line.startswith('$ '):
        line = line[2:]
    if not line:
        return []
    if '[' in line:  # a synopsis: "[--sort total|call|calls]" holds no pipes
        return [line.split()]
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        toks = list(lex)
    except ValueError:
        return [line.split()]
    cmds, cur = [], []
    for t in toks:
        if t in ('|', '||', '&&', ';', '&'):
            cmds.append(cur)
            cur = []
        else:
            cur.append(t)
    cmds.append(cur)
    return [c for c in cmds if c]


def program(tokens):
    """(tool name, arguments) when the command runs one of the tools, else None."""
    while tokens and re.match(r'[A-Za-z_][A-Za-z0-9_]*=', tokens[0]):
        tokens = tokens[1:]
    if not tokens:
        return None
    base = os.path.basename(tokens[0].strip('"\''))
    return (base, tokens[1:]) if base in SPECS else None


def check_command(tool, args, synopsis, where, problems, scratch):
    if tool.spec.get('stop') in args:
        args = args[:args.index(tool.spec['stop'])]
    words = [a.strip('[]').rstrip('.').rstrip(']') for a in args]
    sub = None
    if tool.subcommands and words and not words[0].startswith('-'):
        if tool.name == 'tc-trace' or words[0] in tool.subcommands:
            sub = words[0]
            if sub not in tool.subcommands:
                problems.append(f'{where}: {tool.name} has no command "{sub}" (its --help lists '
                                f'{", ".join(sorted(tool.subcommands))})')
                return
            words = words[1:]
    if tool.name == 'tc-trace' and sub is None and words and words[0] not in ('--help', '-h'):
        problems.append(f'{where}: tc-trace needs a command first, got "{words[0]}"')
        return
    if sub == 'help':
        if words and words[0] not in tool.subcommands:
            problems.append(f'{where}: tc-trace help: no command "{words[0]}"')
        return
    allowed = tool.allowed(sub)
    what = f'{tool.name} {sub}' if sub else tool.name
    before = len(problems)
    for w in words:
        for piece in w.split('|'):
            m = re.match(r'(--?[A-Za-z][A-Za-z0-9-]*)', piece)
            if not m or piece == '-':
                continue
            opt = m.group(1)
            if tool.name == 'tc-instrument' and re.fullmatch(r'-j\d+', piece):
                opt = '-j'
            if opt not in allowed:
                problems.append(f'{where}: {what}: option {opt} is not in its help')
    if sub is not None and tool.name != 'tc-trace' and tool.subcommands[sub][1] is not None:
        positional = [w for w in words if not w.startswith('-')]
        want = tool.subcommands[sub][1]
        if not synopsis and len(positional) != want:
            problems.append(f'{where}: {what} takes {want} arguments, got {len(positional)}')
        return
    # (an option the help does not know is reported once, not again by the tool)
    if synopsis or not tool.spec.get('dry') or len(problems) > before:
        return
    env = dict(os.environ, HOME=scratch, XDG_CACHE_HOME=scratch)
    rc, out, err = run([tool.path] + args + ['--help'], cwd=scratch, env=env)
    if rc != 0 or not out.startswith('usage:'):
        msg = (err.strip().splitlines() or ['(no message)'])[0]
        problems.append(f'{where}: {what}: the tool refuses the arguments (exit {rc}): {msg}')


def slug_set(path, cache={}):
    if path in cache:
        return cache[path]
    slugs, seen, fence = set(), {}, None
    for l in open(path, encoding='utf-8').read().splitlines():
        s = l.strip()
        m = re.match(r'(`{3,}|~{3,})', s)
        if m and (fence is None or s.startswith(fence)):
            fence = m.group(1) if fence is None else None
            continue
        if fence is not None:
            continue
        m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', l)
        if not m:
            continue
        t = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', m.group(1))
        t = re.sub(r'<[^>]+>', '', t).lower()
        t = re.sub(r'[^\w\- ]', '', t).replace(' ', '-')
        n = seen.get(t, 0)
        seen[t] = n + 1
        slugs.add(t if n == 0 else f'{t}-{n}')
    cache[path] = slugs
    return slugs


def prose_lines(text):
    """(line number, text) of every line outside fenced code blocks."""
    fence = None
    for no, l in enumerate(text.splitlines(), 1):
        s = l.strip()
        m = re.match(r'(`{3,}|~{3,})', s)
        if m and (fence is None or s.startswith(fence)):
            fence = m.group(1) if fence is None else None
            continue
        if fence is None:
            yield no, l


def in_build(build, rel, cache={}):
    """Whether the build makes rel (a file, or a folder holding one): from its target list
    (meson-info/intro-targets.json), so that it need not be built yet; else on disk."""
    if build not in cache:
        made = set()
        try:
            with open(os.path.join(build, 'meson-info', 'intro-targets.json')) as f:
                for t in json.load(f):
                    for fn in t.get('filename', []):
                        made.add(os.path.relpath(fn, build))
        except (OSError, ValueError):
            pass
        cache[build] = made
    rel = rel.rstrip('/')
    made = cache[build]
    if rel in made or any(m.startswith(rel + '/') for m in made):
        return True
    return bool(glob.glob(os.path.join(build, rel)))


def check_links(path, root, build, problems):
    text = open(path, encoding='utf-8').read()
    here = os.path.dirname(path)
    rel = os.path.relpath(path, root)
    for no, l in prose_lines(text):
        bare = re.sub(r'`[^`]*`', '', l)
        for m in re.finditer(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)', bare):
            target = m.group(1)
            if re.match(r'[a-z][a-z0-9+.-]*:', target):
                continue
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(here, file)) if file else path
            if not os.path.exists(dest):
                problems.append(f'{rel}:{no}: link to {target}: no such file')
            elif frag and dest.endswith('.md') and frag not in slug_set(dest):
                problems.append(f'{rel}:{no}: link to {target}: no heading "{frag}" there')
        for m in re.finditer(r'`([^`\s]+)`', l):
            p = m.group(1)
            if any(c in p for c in '<>{}…') or '...' in p:
                continue
            p = p.rstrip('.,:;')
            first = p.split('/')[0]
            if first == 'build' and '/' in p:
                if build and not in_build(build, p[len('build/'):]):
                    problems.append(f'{rel}:{no}: `{p}`: not in the build ({build})')
            elif first in TOP and '/' in p:
                if not glob.glob(os.path.join(root, p)):
                    problems.append(f'{rel}:{no}: `{p}`: no such path in the repository')


def check_files(files, root, build, tools, problems):
    checked = 0
    with tempfile.TemporaryDirectory(prefix='readme-commands.') as scratch:
        for path in files:
            rel = os.path.relpath(path, root)
            text = open(path, encoding='utf-8').read()
            for no, line in code_lines(text):
                for toks in commands(line):
                    prog = program(toks)
                    if not prog:
                        first = toks[0] if toks else ''
                        if first.split('/')[0] in TOP and '/' in first and not os.path.exists(os.path.join(root, first)):
                            problems.append(f'{rel}:{no}: {first}: no such file')
                        elif first.startswith('build/') and build and not in_build(build, first[6:]):
                            problems.append(f'{rel}:{no}: {first}: not in the build ({build})')
                        continue
                    name, args = prog
                    if name not in tools:
                        problems.append(f'{rel}:{no}: {name} named but not given (--tool {name}=PATH)')
                        continue
                    check_command(tools[name], args, '[' in line, f'{rel}:{no}', problems, scratch)
                    checked += 1
                    if VERBOSE:
                        print(f'checked {rel}:{no}: {name} {" ".join(args)}')
            check_links(path, root, build, problems)
    return checked


def self_test(tools):
    bad = {
        'option': ('```sh\ntc-trace tree --ring r --mapping m --no-such-option 3\n```\n', 'option --no-such-option is not in its help'),
        'command': ('```sh\ntc-trace treee --ring r\n```\n', 'has no command "treee"'),
        'other command': ('```sh\ntc-trace reports --reports r --min-ms 5\n```\n', 'option --min-ms is not in its help'),
        'exclusive': ('```sh\ntc-trace tree --ring r --section s --message 1\n```\n', 'refuses the arguments'),
        'bad value': ('```sh\ntc-trace tree --ring r --sort sideways\n```\n', 'refuses the arguments'),
        'instrument option': ('```sh\ntc-instrument --mapping-dir m --in a --out b --fast\n```\n', 'option --fast is not in its help'),
        'instrument value': ('```sh\ntc-instrument --mapping-dir m --in a --out b --threads 0\n```\n', 'refuses the arguments'),
        'diff arguments': ('```sh\ntc-instrument diff a.txt\n```\n', 'takes 2 arguments'),
        'ringdump': ('```\ntc-ringdump -x trace.ring\n```\n', 'option -x is not in its help'),
        'continued': ('```sh\ntc-trace chrome --ring r \\\n    --names fancy\n```\n', 'refuses the arguments'),
        'piped': ('```sh\ncat r | tc-trace tree --rings r\n```\n', 'option --rings is not in its help'),
        'link': ('See [x](no-such-page.md).\n', 'no such file'),
        'anchor': ('# Title\n\nSee [x](#no-such-heading).\n', 'no heading "no-such-heading"'),
        'path': ('The file `trace/no_such_file.c` does it.\n', 'no such path'),
    }
    good = ('# Good\n\nSee [it](#good) and [the trace README](../trace/README.md#trace), `trace/tc_trace.c`.\n\n'
            '```sh\ntc-trace tree --ring trace.ring --mapping m.txt --message 1..3 --thread main -o t.txt  # a comment\n'
            'tc-trace help tree\ntc-instrument --mapping-dir map -j4 --in a.jar --out b.jar\n'
            'tc-instrument diff old.txt new.txt\n'
            'tc-trace tree --ring FILE [--mapping FILE] [SLICE] [--sort total|call|calls]\n```\n')
    failures = 0
    # a small tree of its own: root/docs/ holds the pages, root/trace/ what they name
    with tempfile.TemporaryDirectory(prefix='readme-self-test.') as top:
        os.makedirs(os.path.join(top, 'docs'))
        os.makedirs(os.path.join(top, 'trace'))
        with open(os.path.join(top, 'trace', 'README.md'), 'w') as f:
            f.write('# trace/\n')
        open(os.path.join(top, 'trace', 'tc_trace.c'), 'w').close()
        d = os.path.join(top, 'docs')
        cases = dict((k, v) for k, v in bad.items() if all(t in tools for t in ('tc-trace', 'tc-instrument', 'tc-ringdump')))
        for name, (text, want) in list(cases.items()) + [('good', (good, None))]:
            p = os.path.join(d, name.replace(' ', '-') + '.md')
            with open(p, 'w', encoding='utf-8') as f:
                f.write(text)
            problems = []
            check_files([p], top, None, tools, problems)
            if want is None:
                ok = not problems
            else:
                ok = len(problems) == 1 and want in problems[0]
            print(f'{"ok" if ok else "NOT OK"}: {name}: {problems if problems else "passes"}')
            failures += not ok
    return failures


def main(argv):
    root, build, tools, files, selftest = None, None, {}, [], False
    it = iter(argv)
    for a in it:
        if a == '--root':
            root = next(it)
        elif a == '--build':
            build = next(it)
        elif a == '--tool':
            n, _, p = next(it).partition('=')
            if n not in SPECS or not p:
                print(f'readme_commands: --tool NAME=PATH, NAME one of {", ".join(SPECS)}', file=sys.stderr)
                return 2
            tools[n] = os.path.abspath(p)
        elif a == '--self-test':
            selftest = True
        elif a in ('-v', '--verbose'):
            global VERBOSE
            VERBOSE = True
        elif a.startswith('-'):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not root:
        print('readme_commands: --root SRC is required', file=sys.stderr)
        return 2
    root = os.path.abspath(root)
    tools = {n: Tool(n, p) for n, p in tools.items()}
    if selftest:
        return 1 if self_test(tools) else 0
    if not files:
        files = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    problems = []
    checked = check_files([os.path.abspath(f) for f in files], root, build, tools, problems)
    for p in problems:
        print(p)
    print(f'{len(files)} pages, {checked} commands checked, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
