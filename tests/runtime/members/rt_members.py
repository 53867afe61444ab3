#!/usr/bin/env python3
"""The framework members the runtime reaches, checked against android-all at every level.

usage: rt_members.py --tc-members EXE --jar RUNTIME_JAR [--readme runtime/README.md]
                     [--table] [--verbose]

tc-members (src/tc-hotpath/tc_members.c) lists every class, field and method the
runtime jar's code refers to outside the jar, and every reflective lookup of one, with
the range of Build.VERSION.SDK_INT on the paths to it (its API-level guard) and the
handlers around it. This script decides at which levels each site runs: a method runs
at the levels its callers in the jar reach it from (through their own guards), a
class's methods that the framework or the app calls (callbacks, the public API) at the
levels the class is reached from; the public entry classes from API 21. For each
level from API 21 (Android 5.0) to 37 (Android 17) it then asks tc-members for the member in that
level's org.robolectric:android-all jar (the framework's own class files; fetched and
pinned by tests/lib/maven_fetch.py) and requires, wherever the site runs:

 - that the member exists there, static or not as the instruction assumes, accessible
   (public or protected; any access for the reflective lookups that make it accessible,
   public for Class.getField/getMethod), a field of the type the code assumes
   (reflection: the TYPE of reflection.txt), a method with the parameters it passes;
 - or that the site sits in a handler that catches what its absence throws
   (NoClassDefFoundError, NoSuchFieldError, NoSuchMethodError, IllegalAccessError
   through LinkageError and Error; NoSuchFieldException, NoSuchMethodException,
   ClassNotFoundException through ReflectiveOperationException and Exception);
   a finally ("any") catches nothing.

Classes android-all does not carry (most of libcore: Robolectric runs on the JDK's
java.*) are not judged at that level; members of android.* and com.android.* always are.
--levels LO-HI: only those levels (for the check's mutants). --readme: the table of member x level in that file (between the "rt_members table"
markers) must be the one this run makes (--table prints it). Exit status 0 all good, 1
a member used unguarded where it is missing (or a stale table), 2 bad input or a jar
that cannot be had.
"""
import argparse, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FETCH = os.path.join(SRC, "tests", "lib", "maven_fetch.py")
PREFIX = "com/tencent/matrix/trace/"

# API level -> org.robolectric:android-all version (tests/lib/maven.lock pins each)
LEVELS = {
    21: "5.0.2_r3-robolectric-r0", 22: "5.1.1_r9-robolectric-r2", 23: "6.0.1_r3-robolectric-r1",
    24: "7.0.0_r1-robolectric-r1", 25: "7.1.0_r7-robolectric-r1", 26: "8.0.0_r4-robolectric-r1",
    27: "8.1.0-robolectric-4611349", 28: "9-robolectric-4913185-2", 29: "10-robolectric-5803371",
    30: "11-robolectric-6757853", 31: "12-robolectric-7732740", 32: "12.1-robolectric-8229987",
    33: "13-robolectric-9030017", 34: "14-robolectric-10818077", 35: "15-robolectric-12650502",
    36: "16-robolectric-13921718", 37: "17-robolectric-16653203",
}
MIN, MAX = min(LEVELS), max(LEVELS)
INF = 1 << 30

ACC_PUBLIC, ACC_PRIVATE, ACC_PROTECTED, ACC_STATIC, ACC_INTERFACE = 1, 2, 4, 8, 0x200
LINKAGE_CATCHES = {"java/lang/Throwable", "java/lang/Error", "java/lang/LinkageError",
                   "java/lang/IncompatibleClassChangeError", "java/lang/NoClassDefFoundError",
                   "java/lang/NoSuchFieldError", "java/lang/NoSuchMethodError", "java/lang/IllegalAccessError"}
REFLECT_CATCHES = {"java/lang/Throwable", "java/lang/Exception", "java/lang/ReflectiveOperationException",
                   "java/lang/NoSuchFieldException", "java/lang/NoSuchMethodException",
                   "java/lang/ClassNotFoundException"}
FRAMEWORK = ("android/", "com/android/")
OBJECT_METHODS = {"<init>", "clone", "equals", "finalize", "getClass", "hashCode", "notify", "notifyAll",
                  "toString", "wait"}


def die(msg, code=2):
    print(f"rt_members: {msg}", file=sys.stderr)
    sys.exit(code)


class Site:
    __slots__ = ("cls", "mname", "mdesc", "off", "lo", "hi", "kind", "owner", "name", "desc", "catch",
                 "type", "levels")

    def __init__(self, f):
        (self.cls, self.mname, self.mdesc, self.off, lo, hi, self.kind, self.owner, self.name,
         self.desc, catch) = f
        self.lo, self.hi = (INF, -1) if lo == "dead" else (int(lo), int(hi))
        self.catch = set() if catch == "-" else set(catch.split(","))
        self.type = None

    def where(self):
        return f"{self.cls[len(PREFIX):] if self.cls.startswith(PREFIX) else self.cls}.{self.mname} @{self.off}"


def read_sites(exe, jar):
    p = subprocess.run([exe, "sites", jar], capture_output=True, text=True)
    if p.returncode:
        die(f"tc-members sites {jar}: {p.stderr.strip()}")
    classes, methods, sites = {}, {}, []
    for line in p.stdout.splitlines():
        f = line.split(" ")
        if f[0] == "class":
            classes[f[1]] = (f[2], int(f[3]), [] if f[4] == "-" else f[4].split(","))
        elif f[0] == "method":
            methods[(f[1], f[2], f[3])] = int(f[4])
        elif f[0] == "site":
            sites.append(Site(f[1:]))
    return classes, methods, sites


def elem(owner):
    """The class an array type's site needs, or None for a primitive array."""
    o = owner.lstrip("[")
    if o == owner:
        return owner
    return o[1:-1] if o.startswith("L") else None


def levels(classes, methods, sites):
    """The lowest level each method of the jar runs at (INF: never)."""
    internal = set(classes)
    by_target = {}   # (cls, name, desc) -> call sites in the jar
    refs = {}        # cls -> sites in other classes that name it
    for s in sites:
        if s.lo > s.hi:
            continue
        o = elem(s.owner) if s.owner not in ("?", "-") else None
        if o in internal and o != s.cls:
            refs.setdefault(o, []).append(s)
        if o in internal and s.kind.startswith("invoke"):
            # an inherited method: the class in the jar that declares it
            c = o
            while c in internal and (c, s.name, s.desc) not in methods:
                c = classes[c][0]
            by_target.setdefault((c, s.name, s.desc), []).append(s)
    # the public API and the classes nothing in the jar names run from API 21
    clevel = {c: (MIN if c not in refs else INF) for c in classes}
    mlevel = {m: INF for m in methods}
    for _ in range(100):
        changed = False
        for m, acc in methods.items():
            c = m[0]
            cand = [max(mlevel[(s.cls, s.mname, s.mdesc)], s.lo) for s in by_target.get(m, [])]
            # what the framework, a lambda or the app may call: the class's level
            if not (acc & (ACC_PRIVATE | ACC_STATIC)) or not cand or m[1] == "<clinit>":
                cand.append(clevel[c])
            v = min(cand)
            if v < mlevel[m]:
                mlevel[m], changed = v, True
        for c in classes:
            cand = [max(mlevel[(s.cls, s.mname, s.mdesc)], s.lo) for s in refs.get(c, [])]
            v = min(cand) if c in refs else MIN
            if v < clevel[c]:
                clevel[c], changed = v, True
        if not changed:
            break
    return clevel, mlevel


def read_reflection(path):
    out = {}
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) != 4:
            die(f"{path}:{n}: expected CALLER NAME OWNER TYPE")
        out[(PREFIX + line[0], line[1])] = [line[2], line[3], n, False]
    return out


def jar_paths(levels):
    """The android-all jar of each level, from the download cache (fetched when absent)."""
    coords = [f"org.robolectric:android-all:{LEVELS[l]}" for l in levels]
    p = subprocess.run([sys.executable, FETCH] + coords, capture_output=True, text=True)
    if p.returncode:
        die(f"the android-all jars cannot be had: {p.stderr.strip()}")
    return dict(zip(levels, p.stdout.split("\n")))


def lookup(exe, jar, queries):
    p = subprocess.run([exe, "lookup", jar], input="".join(" ".join(q) + "\n" for q in queries),
                       capture_output=True, text=True)
    if p.returncode:
        die(f"tc-members lookup {jar}: {p.stderr.strip()}")
    answers = p.stdout.splitlines()
    if len(answers) != len(queries):
        die(f"tc-members lookup {jar}: {len(answers)} answers to {len(queries)} queries")
    return dict(zip(queries, answers))


def query_of(s):
    """(OWNER[, NAME, DESC]) to ask, or None when the site needs no member of another jar."""
    o = elem(s.owner)
    if o is None:
        return None
    if s.kind in ("class", "new", "forname", "super"):
        return (o,)
    if s.kind.startswith("refl"):
        return (o, s.name, "?" if "field" in s.kind else s.desc)
    return (o, s.name, s.desc)


def judge(s, answer, level):
    """'+' fine, 'n' not judged (libcore outside android-all), or why it fails."""
    f = answer.split(" ")
    if f[0] == "unresolved" and f[1] == "java/lang/Object" and s.name not in OBJECT_METHODS and \
            s.owner.startswith(FRAMEWORK):
        return "missing"  # a framework class's own member, not one of Object's
    if f[0] == "unresolved" or (f[0] == "noclass" and not s.owner.lstrip("[L").startswith(FRAMEWORK)):
        return "n"
    if f[0] == "noclass":
        return "no class"
    if f[0] == "missing":
        return "missing"
    acc, declaring = int(f[1]), f[2]
    if len(f) == 3 or s.kind in ("class", "new", "forname", "super"):
        if s.kind == "new" and acc & ACC_INTERFACE:
            return "an interface"
        return "+"
    if s.kind.startswith("refldecl") and declaring != elem(s.owner):
        return f"declared in {declaring}, not in the class getDeclared* asks"
    if s.kind.startswith("refl"):
        if s.kind.startswith("reflpub") and not acc & ACC_PUBLIC:
            return "not public (Class.getField/getMethod see public members only)"
        if s.type and f[3] != s.type:
            return f"is {f[3]}, the code assumes {s.type}"
        return "+"
    static = s.kind in ("getstatic", "putstatic", "invokestatic")
    if bool(acc & ACC_STATIC) != static:
        return "static" if acc & ACC_STATIC else "not static"
    if acc & ACC_PRIVATE or not acc & (ACC_PUBLIC | ACC_PROTECTED):
        return "not accessible (private or package-private)"
    return "+"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tc-members", required=True)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--reflection", default=os.path.join(HERE, "reflection.txt"))
    ap.add_argument("--readme")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--levels", help="only these API levels, e.g. 21-23 (the self-tests' mutants)")
    a = ap.parse_args()
    run_levels = list(LEVELS)
    if a.levels:
        lo, _, hi = a.levels.partition("-")
        run_levels = [l for l in LEVELS if int(lo) <= l <= int(hi or lo)]
        if not run_levels or a.readme or a.table:
            die(f"--levels: a range within {MIN}-{MAX}, without --readme or --table")
    t0 = time.time()

    classes, methods, sites = read_sites(a.tc_members, a.jar)
    clevel, mlevel = levels(classes, methods, sites)
    internal = set(classes)
    refl = read_reflection(a.reflection)
    bad = []

    # the sites that need another jar's classes: direct references, reflective lookups,
    # and the supertypes of the jar's classes (a class fails to load without them)
    checked = []
    for c, (sup, _, ifaces) in classes.items():
        for t in [sup] + ifaces:
            if t != "-" and t not in internal:
                s = Site([c, "<class>", "-", "-", str(clevel[c]) if clevel[c] < INF else "dead", str(MAX) if
                          clevel[c] < INF else "dead", "super", t, "-", "-", "-"])
                checked.append(s)
    for s in sites:
        if s.cls == PREFIX + "android/Reflection" and s.kind.startswith("refl"):
            continue  # the helper itself: its callers' lookups are the sites
        if s.kind.startswith("refl"):
            r = refl.get((f"{s.cls}.{s.mname}", s.name))
            if r is None:
                if elem(s.owner) in internal or s.owner.startswith(PREFIX):
                    continue  # the jar's own classes (the generated BuildId)
                bad.append(f"{s.where()}: reflective {s.kind} of {s.owner}.{s.name}: not in {a.reflection}: "
                           "say there which class it is and the type the code uses it as")
                continue
            r[3] = True
            if s.owner == "?":
                if r[0] == "=":
                    bad.append(f"{s.where()}: {s.name}: the code does not name the class; reflection.txt must")
                    continue
                s.owner = r[0]
            elif r[0] != "=" and r[0] != s.owner:
                bad.append(f"{s.where()}: {s.name}: the code names {s.owner}, reflection.txt {r[0]}")
            s.type = r[1]
            if "method" in s.kind and s.desc != "?" and not r[1].startswith(s.desc):
                bad.append(f"{s.where()}: {s.name}{s.desc}: reflection.txt says {r[1]}")
            if "method" in s.kind and s.desc == "?":
                s.desc = r[1][: r[1].index(")") + 1]
        elif s.kind == "forname" and (s.owner == "?" or s.owner.startswith(PREFIX)):
            continue
        o = elem(s.owner) if s.owner not in ("?", "-") else None
        if o is None or o in internal:
            continue
        checked.append(s)
    for (caller, name), r in sorted(refl.items()):
        if not r[3]:
            bad.append(f"{a.reflection}:{r[2]}: {caller[len(PREFIX):]} looks up no {name} any more: drop the line")

    # each site's levels: those of its method, within its own guard
    for s in checked:
        if s.kind == "super":
            lo = clevel[s.cls]
        else:
            lo = mlevel.get((s.cls, s.mname, s.mdesc), INF)
        lo, hi = max(lo, s.lo), s.hi
        s.levels = [l for l in LEVELS if lo <= l <= hi]

    queries = sorted({q for s in checked for q in [query_of(s)] if q})
    jars = jar_paths(run_levels)
    with ThreadPoolExecutor(max_workers=2) as ex:
        answers = dict(zip(run_levels, ex.map(lambda l: lookup(a.tc_members, jars[l], queries), run_levels)))

    # member -> {level: cell}; the cells: + there, g guarded (absent, never reached there),
    # c caught (absent, reached in its handler), . not judged (libcore), X used unguarded
    table = {}
    for s in checked:
        q = query_of(s)
        if not q:
            continue
        label = q[0] if len(q) == 1 else f"{q[0]}.{q[1]} {q[2]}"
        if s.kind.startswith("refl"):
            label = f"{q[0]}.{q[1]} {s.type} (reflection)"
        row = table.setdefault(label, {})
        for l in run_levels:
            v = judge(s, answers[l][q], l)
            reached = l in s.levels
            catches = LINKAGE_CATCHES if not (s.kind.startswith("refl") or s.kind == "forname") else REFLECT_CATCHES
            if v == "+":
                cell = "+"
            elif v == "n":
                cell = "."
            elif not reached:
                cell = "g"
            elif s.catch & catches:
                cell = "c"
            else:
                cell = "X"
                bad.append(f"{s.where()}: {s.kind} {label}: {v} at API {l}, and the site runs there "
                           f"(API {s.levels[0]}..{s.levels[-1]}) outside any guard or handler that covers it")
            # a member several sites use: the worst cell
            order = "X.cg+"
            old = row.get(l)
            row[l] = cell if old is None or order.index(cell) < order.index(old) else old

    framework = {k: v for k, v in table.items() if k.startswith(FRAMEWORK + ("sun/misc/",)) or
                 k.endswith("(reflection)")}
    direct = sum(1 for k in framework if "(reflection)" not in k)
    reflective = len(framework) - direct
    lines = ["| member (API level: " + " ".join(str(l % 100) for l in LEVELS) + ") | cells |", "|---|---|"]
    for k in sorted(framework):
        v = framework[k]
        lines.append(f"| `{k}` | `{''.join(v.get(l, ' ') for l in LEVELS)}` |")
    tablestr = "\n".join(lines) + "\n"

    for s in bad:
        print(f"not ok - {s}")
    if a.verbose:
        for s in checked:
            print(f"# {s.where()} {s.kind} {s.owner}.{s.name} {s.desc} levels "
                  f"{(s.levels[0], s.levels[-1]) if s.levels else 'none'} catch {','.join(sorted(s.catch)) or '-'}")
    if a.table:
        sys.stdout.write(tablestr)
    stale = False
    if a.readme:
        text = open(a.readme).read()
        m = re.search(r"<!-- rt_members table -->\n(.*?)<!-- /rt_members table -->", text, re.S)
        if not m:
            print(f"not ok - {a.readme}: no <!-- rt_members table --> ... <!-- /rt_members table --> block")
            stale = True
        elif m.group(1) != tablestr:
            print(f"not ok - {a.readme}'s member table is not this run's: make it again with "
                  f"tests/runtime/members/rt_members.py --table (see tests/runtime/members/README.md)")
            stale = True
    print(f"# {direct} framework members used directly, {reflective} by reflection, "
          f"{len(table) - len(framework)} of libcore (judged where android-all has them); {len(checked)} sites; "
          f"API {run_levels[0]}..{run_levels[-1]}; {time.time() - t0:.1f} s")
    print(f"rt_members: {'FAIL' if bad or stale else 'ok'}")
    sys.exit(1 if bad or stale else 0)


main()
