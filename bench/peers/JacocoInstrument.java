/*
 * JacocoInstrument: JaCoCo's offline instrumentation of a jar (or a class file, or a directory),
 * done the way JaCoCo's command line "instrument" does it: an Instrumenter with an
 * OfflineInstrumentationAccessGenerator, instrumentAll() on the raw file streams (signatures
 * removed, non-class entries copied). Benchmark peer of tc-instrument on jars.
 *
 *   java -cp peers.jar:/usr/share/java/org.jacoco.core.jar:ASM-JARS JacocoInstrument IN OUT
 *
 * stdout: "jacoco classes=N in_bytes=B out_bytes=B ms=T"; on failure a message and exit 1.
 */

import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.OfflineInstrumentationAccessGenerator;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

public final class JacocoInstrument {

    private JacocoInstrument() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: JacocoInstrument IN.jar|IN.class|INDIR OUT.jar|OUT.class|OUTDIR");
            System.exit(2);
        }
        File src = new File(args[0]);
        File dest = new File(args[1]);
        if (!src.exists()) {
            System.err.println("JacocoInstrument: no such input: " + src);
            System.exit(2);
        }
        Instrumenter instrumenter = new Instrumenter(new OfflineInstrumentationAccessGenerator());
        instrumenter.setRemoveSignatures(true); // the CLI default (no --nosignatures-kept option)
        long t0 = System.nanoTime();
        int n;
        try {
            n = src.isDirectory() ? instrumentDir(instrumenter, src, dest) : instrumentFile(instrumenter, src, dest);
        } catch (IOException e) {
            System.err.println("JacocoInstrument: " + e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                System.err.println("  caused by: " + c);
            }
            System.exit(1);
            return;
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println(String.format(Locale.ROOT, "jacoco classes=%d in_bytes=%d out_bytes=%d ms=%d",
                n, size(src), size(dest), ms));
    }

    private static long size(File f) {
        if (f.isDirectory()) {
            long s = 0;
            File[] l = f.listFiles();
            if (l != null) {
                for (File c : l) {
                    s += size(c);
                }
            }
            return s;
        }
        return f.length();
    }

    private static int instrumentDir(Instrumenter instrumenter, File src, File dest) throws IOException {
        int n = 0;
        File[] l = src.listFiles();
        if (l == null) {
            throw new IOException("cannot list " + src);
        }
        for (File c : l) {
            File d = new File(dest, c.getName());
            n += c.isDirectory() ? instrumentDir(instrumenter, c, d) : instrumentFile(instrumenter, c, d);
        }
        return n;
    }

    // As org.jacoco.cli.internal.commands.Instrument#instrument(File, File).
    private static int instrumentFile(Instrumenter instrumenter, File src, File dest) throws IOException {
        File parent = dest.getAbsoluteFile().getParentFile();
        if (parent != null) {
            parent.mkdirs();
        }
        try (InputStream input = new FileInputStream(src)) {
            try (OutputStream output = new FileOutputStream(dest)) {
                return instrumenter.instrumentAll(input, output, src.getAbsolutePath());
            }
        } catch (IOException e) {
            dest.delete();
            throw e;
        }
    }
}
