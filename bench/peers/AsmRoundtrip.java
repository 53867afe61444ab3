/*
 * AsmRoundtrip: ObjectWeb ASM's ClassReader -> ClassWriter(reader, 0) round trip over a corpus held
 * in memory. Benchmark peer of tracecanary's classfile parse + write round trip.
 *
 *   java -cp peers.jar:/usr/share/java/asm.jar AsmRoundtrip DIR|JAR [iterations] [--warmup N] [--warmup-ms MS]
 *
 * Warm-up: at least N whole-corpus iterations (default 3) and at least MS milliseconds (default
 * 4000), then until the last three warm-up iterations are within 5% of each other (HotSpot's C2
 * needs a few seconds for ClassReader/ClassWriter whatever the corpus size), at most 60 s.
 *
 * Output (stdout, one "key=value ..." record per line, see README.md):
 *   corpus path=... classes=N bytes=B skipped_too_new=K skipped_other=F
 *   warmup iterations=W ms=T
 *   iter n=1 ns=... mbps=... out_bytes=...
 *   ...
 *   median_mbps=...
 * Skipped classes are listed on stderr. MB/s means 10^6 bytes of input class files per second.
 */

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

public final class AsmRoundtrip {

    private AsmRoundtrip() {
    }

    private static void usage() {
        System.err.println("usage: AsmRoundtrip DIR|JAR [iterations] [--warmup N] [--warmup-ms MS]");
        System.exit(2);
    }

    public static void main(String[] args) throws IOException {
        String path = null;
        int iterations = 10;
        int warmup = 3;
        long warmupMs = 4000;
        boolean haveIter = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--warmup")) {
                if (++i >= args.length) {
                    usage();
                }
                warmup = Integer.parseInt(args[i]);
            } else if (a.equals("--warmup-ms")) {
                if (++i >= args.length) {
                    usage();
                }
                warmupMs = Long.parseLong(args[i]);
            } else if (a.equals("-h") || a.equals("--help")) {
                usage();
            } else if (path == null) {
                path = a;
            } else if (!haveIter) {
                iterations = Integer.parseInt(a);
                haveIter = true;
            } else {
                usage();
            }
        }
        if (path == null || iterations < 1 || warmup < 0) {
            usage();
        }

        List<String> names = new ArrayList<>();
        List<byte[]> raw = new ArrayList<>();
        load(Paths.get(path), names, raw);

        // Keep only what ASM 9.4 accepts; a class it rejects is skipped and reported.
        List<byte[]> corpus = new ArrayList<>(raw.size());
        long bytes = 0;
        int tooNew = 0;
        int other = 0;
        for (int i = 0; i < raw.size(); i++) {
            byte[] b = raw.get(i);
            try {
                roundTrip(b);
                corpus.add(b);
                bytes += b.length;
            } catch (IllegalArgumentException e) {
                String m = String.valueOf(e.getMessage());
                if (m.startsWith("Unsupported class file major version")) {
                    tooNew++;
                    System.err.println("skipped too_new " + names.get(i) + ": " + m);
                } else {
                    other++;
                    System.err.println("skipped other " + names.get(i) + ": " + e);
                }
            } catch (RuntimeException e) {
                other++;
                System.err.println("skipped other " + names.get(i) + ": " + e);
            }
        }
        raw = null;
        byte[][] classes = corpus.toArray(new byte[0][]);
        corpus = null;

        System.out.println("corpus path=" + path + " classes=" + classes.length + " bytes=" + bytes
                + " skipped_too_new=" + tooNew + " skipped_other=" + other);
        if (classes.length == 0) {
            System.err.println("AsmRoundtrip: no class accepted by ASM under " + path);
            System.exit(1);
        }

        long w0 = System.nanoTime();
        int warmed = 0;
        long[] last = new long[3];
        while (true) {
            long t = System.nanoTime();
            runOnce(classes);
            last[warmed % 3] = System.nanoTime() - t;
            warmed++;
            long elapsedMs = (System.nanoTime() - w0) / 1_000_000;
            if (warmed < warmup || elapsedMs < warmupMs) {
                continue;
            }
            if (warmup == 0 || elapsedMs > 60_000) {
                break;
            }
            long lo = Math.min(last[0], Math.min(last[1], last[2]));
            long hi = Math.max(last[0], Math.max(last[1], last[2]));
            if (warmed >= 3 && hi <= lo * 1.05) {
                break;
            }
        }
        System.out.println("warmup iterations=" + warmed + " ms=" + (System.nanoTime() - w0) / 1_000_000);

        double[] mbps = new double[iterations];
        for (int it = 0; it < iterations; it++) {
            long t0 = System.nanoTime();
            long out = runOnce(classes);
            long ns = System.nanoTime() - t0;
            mbps[it] = bytes * 1000.0 / ns; // bytes/ns * 1e9 / 1e6
            System.out.println("iter n=" + (it + 1) + " ns=" + ns + " mbps="
                    + String.format(Locale.ROOT, "%.2f", mbps[it]) + " out_bytes=" + out);
        }
        double[] sorted = mbps.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        System.out.println("median_mbps=" + String.format(Locale.ROOT, "%.2f", median));
    }

    private static long runOnce(byte[][] classes) {
        long out = 0;
        for (byte[] b : classes) {
            out += roundTrip(b).length;
        }
        return out;
    }

    private static byte[] roundTrip(byte[] b) {
        ClassReader reader = new ClassReader(b);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(writer, 0);
        return writer.toByteArray();
    }

    private static void load(Path p, List<String> names, List<byte[]> out) throws IOException {
        if (Files.isDirectory(p)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(p)) {
                files = s.filter(f -> f.toString().endsWith(".class") && Files.isRegularFile(f))
                        .sorted().collect(Collectors.toList());
            }
            for (Path f : files) {
                names.add(p.relativize(f).toString());
                out.add(Files.readAllBytes(f));
            }
        } else if (Files.isRegularFile(p) && p.toString().endsWith(".class")) {
            names.add(p.toString());
            out.add(Files.readAllBytes(p));
        } else if (Files.isRegularFile(p)) {
            try (ZipFile zf = new ZipFile(p.toFile())) {
                Enumeration<? extends ZipEntry> en = zf.entries();
                while (en.hasMoreElements()) {
                    ZipEntry e = en.nextElement();
                    if (!e.isDirectory() && e.getName().endsWith(".class")) {
                        try (InputStream in = zf.getInputStream(e)) {
                            names.add(e.getName());
                            out.add(in.readAllBytes());
                        }
                    }
                }
            }
        } else {
            throw new IOException("no such directory or jar: " + p);
        }
    }
}
