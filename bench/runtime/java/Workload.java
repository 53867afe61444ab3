import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small compiler pipeline (lexer, recursive-descent parser, constant
 * folder, evaluator, printer) over generated source, every method traced by
 * hand the way tc-instrument instruments: Beat.i(id) at entry, Beat.o(id)
 * before each exit (try/finally covers throws). Many small methods, as in
 * app code. run.sh compiles three copies (WorkloadNone/Peer/Ours), with
 * Beat replaced by BeatNone/BeatPeer/BeatOurs (Beats.java).
 */
final class Workload {
    // ---- lexer ----
    static final int NUM = 0, ID = 1, OP = 2, LP = 3, RP = 4, COMMA = 5, EOF = 6;

    static final class Tok {
        final int kind;
        final String text;
        Tok(int kind, String text) { this.kind = kind; this.text = text; }
    }

    static boolean isDigit(char c) {
        Beat.i(1);
        try { return c >= '0' && c <= '9'; } finally { Beat.o(1); }
    }

    static boolean isLetter(char c) {
        Beat.i(2);
        try { return (c >= 'a' && c <= 'z') || c == '_'; } finally { Beat.o(2); }
    }

    static int scanWhile(String s, int p, boolean digits) {
        Beat.i(3);
        try {
            while (p < s.length() && (digits ? isDigit(s.charAt(p)) : isLetter(s.charAt(p)) || isDigit(s.charAt(p)))) {
                p++;
            }
            return p;
        } finally { Beat.o(3); }
    }

    static List<Tok> lex(String s) {
        Beat.i(4);
        try {
            List<Tok> out = new ArrayList<>();
            int p = 0;
            while (p < s.length()) {
                char c = s.charAt(p);
                if (c == ' ') { p++; continue; }
                if (isDigit(c)) { int e = scanWhile(s, p, true); out.add(new Tok(NUM, s.substring(p, e))); p = e; }
                else if (isLetter(c)) { int e = scanWhile(s, p, false); out.add(new Tok(ID, s.substring(p, e))); p = e; }
                else { out.add(new Tok(c == '(' ? LP : c == ')' ? RP : c == ',' ? COMMA : OP, String.valueOf(c))); p++; }
            }
            out.add(new Tok(EOF, ""));
            return out;
        } finally { Beat.o(4); }
    }

    // ---- AST ----
    abstract static class Node {}
    static final class Num extends Node { final long v; Num(long v) { this.v = v; } }
    static final class Var extends Node { final String name; Var(String n) { name = n; } }
    static final class Bin extends Node { final char op; final Node l, r; Bin(char op, Node l, Node r) { this.op = op; this.l = l; this.r = r; } }
    static final class Call extends Node { final String fn; final List<Node> args; Call(String f, List<Node> a) { fn = f; args = a; } }

    // ---- parser ----
    static final class Parser {
        final List<Tok> toks;
        int p;
        Parser(List<Tok> t) { toks = t; }

        Tok peek() {
            Beat.i(10);
            try { return toks.get(p); } finally { Beat.o(10); }
        }

        Tok next() {
            Beat.i(11);
            try { return toks.get(p++); } finally { Beat.o(11); }
        }

        boolean at(char op) {
            Beat.i(12);
            try { Tok t = peek(); return t.kind == OP && t.text.charAt(0) == op; } finally { Beat.o(12); }
        }

        Node expr() {
            Beat.i(13);
            try {
                Node l = term();
                while (at('+') || at('-')) { char op = next().text.charAt(0); l = new Bin(op, l, term()); }
                return l;
            } finally { Beat.o(13); }
        }

        Node term() {
            Beat.i(14);
            try {
                Node l = factor();
                while (at('*') || at('%')) { char op = next().text.charAt(0); l = new Bin(op, l, factor()); }
                return l;
            } finally { Beat.o(14); }
        }

        Node factor() {
            Beat.i(15);
            try {
                Tok t = next();
                if (t.kind == NUM) return new Num(Long.parseLong(t.text));
                if (t.kind == LP) { Node e = expr(); next(); return e; }
                if (peek().kind == LP) return call(t.text);
                return new Var(t.text);
            } finally { Beat.o(15); }
        }

        Node call(String fn) {
            Beat.i(16);
            try {
                next();
                List<Node> args = new ArrayList<>();
                if (peek().kind != RP) {
                    args.add(expr());
                    while (peek().kind == COMMA) { next(); args.add(expr()); }
                }
                next();
                return new Call(fn, args);
            } finally { Beat.o(16); }
        }
    }

    // ---- passes ----
    static long apply(char op, long a, long b) {
        Beat.i(20);
        try {
            switch (op) {
                case '+': return a + b;
                case '-': return a - b;
                case '*': return a * b;
                default: return b == 0 ? 0 : a % b;
            }
        } finally { Beat.o(20); }
    }

    static Node fold(Node n) {
        Beat.i(21);
        try {
            if (n instanceof Bin) {
                Bin b = (Bin) n;
                Node l = fold(b.l), r = fold(b.r);
                if (l instanceof Num && r instanceof Num) return new Num(apply(b.op, ((Num) l).v, ((Num) r).v));
                return new Bin(b.op, l, r);
            }
            if (n instanceof Call) {
                Call c = (Call) n;
                List<Node> a = new ArrayList<>();
                for (Node x : c.args) a.add(fold(x));
                return new Call(c.fn, a);
            }
            return n;
        } finally { Beat.o(21); }
    }

    static long lookup(Map<String, Long> env, String name) {
        Beat.i(22);
        try { Long v = env.get(name); return v == null ? name.length() : v; } finally { Beat.o(22); }
    }

    static long callFn(String fn, long[] a) {
        Beat.i(23);
        try {
            long r = fn.length();
            for (long x : a) r = r * 31 + x;
            return r;
        } finally { Beat.o(23); }
    }

    static long eval(Node n, Map<String, Long> env) {
        Beat.i(24);
        try {
            if (n instanceof Num) return ((Num) n).v;
            if (n instanceof Var) return lookup(env, ((Var) n).name);
            if (n instanceof Bin) { Bin b = (Bin) n; return apply(b.op, eval(b.l, env), eval(b.r, env)); }
            Call c = (Call) n;
            long[] a = new long[c.args.size()];
            for (int k = 0; k < a.length; k++) a[k] = eval(c.args.get(k), env);
            return callFn(c.fn, a);
        } finally { Beat.o(24); }
    }

    static void print(Node n, StringBuilder sb) {
        Beat.i(25);
        try {
            if (n instanceof Num) sb.append(((Num) n).v);
            else if (n instanceof Var) sb.append(((Var) n).name);
            else if (n instanceof Bin) { Bin b = (Bin) n; sb.append('('); print(b.l, sb); sb.append(b.op); print(b.r, sb); sb.append(')'); }
            else {
                Call c = (Call) n;
                sb.append(c.fn).append('(');
                for (int k = 0; k < c.args.size(); k++) { if (k > 0) sb.append(','); print(c.args.get(k), sb); }
                sb.append(')');
            }
        } finally { Beat.o(25); }
    }

    // ---- source generation (not traced: it makes the input) ----
    static long seed = 42;

    static int rnd(int n) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (int) ((seed >>> 33) % n);
    }

    static String gen(int depth) {
        int k = depth <= 0 ? rnd(2) : rnd(5);
        switch (k) {
            case 0: return String.valueOf(rnd(1000));
            case 1: return "v" + rnd(8);
            case 2: return "f" + rnd(4) + "(" + gen(depth - 1) + ", " + gen(depth - 1) + ")";
            default: return "(" + gen(depth - 1) + " " + "+-*%".charAt(rnd(4)) + " " + gen(depth - 1) + ")";
        }
    }

    static final List<String> SOURCES = new ArrayList<>();
    static final Map<String, Long> ENV = new HashMap<>();

    static {
        for (int k = 0; k < 64; k++) SOURCES.add(gen(7));
        for (int k = 0; k < 8; k++) ENV.put("v" + k, (long) k * 7 + 3);
    }

    /** One pass over all sources; returns a checksum so nothing is dead code. */
    static long run() {
        Beat.i(30);
        try {
            long sum = 0;
            for (String s : SOURCES) {
                Node ast = new Parser(lex(s)).expr();
                Node folded = fold(ast);
                sum += eval(folded, ENV) + eval(ast, ENV);
                StringBuilder sb = new StringBuilder();
                print(folded, sb);
                sum += sb.length();
            }
            return sum;
        } finally { Beat.o(30); }
    }
}
