import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles the Java fixtures of the cli suite in one JVM (javac through javax.tools):
 * {@code java Fixtures.java DATA_DIR OUT_DIR}. See fixtures.sh for what each one is for.
 */
public class Fixtures {
    static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

    static List<String> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted()
                    .collect(Collectors.toList());
        }
    }

    static void javac(String release, Path out, List<String> srcs, String... extra) {
        List<String> args = new ArrayList<>(Arrays.asList("--release", release, "-nowarn",
                "-Xlint:-options", "-encoding", "UTF-8", "-g", "-d", out.toString()));
        args.addAll(Arrays.asList(extra));
        args.addAll(srcs);
        int rc = JAVAC.run(null, null, null, args.toArray(new String[0]));
        if (rc != 0) {
            throw new IllegalStateException("javac failed: " + args);
        }
    }

    /* ProGuard 6.2 reads class files up to Java 13: a library jar of java.base's
     * java.lang, java.util and java.io classes with their version lowered to 57. Only
     * their names and members matter to ProGuard. */
    static void libraryJar(Path out) throws IOException {
        Path jmod = Paths.get(System.getProperty("java.home"), "jmods", "java.base.jmod");
        Pattern keep = Pattern.compile("classes/(java/(lang|util|io)/[^/$]+\\.class)");
        try (InputStream in = Files.newInputStream(jmod);
             OutputStream os = Files.newOutputStream(out);
             ZipOutputStream zos = new ZipOutputStream(os)) {
            in.readNBytes(4); // "JM" 1 0: a jmod is a zip behind a 4-byte header
            ZipInputStream zis = new ZipInputStream(in);
            for (ZipEntry e; (e = zis.getNextEntry()) != null;) {
                var m = keep.matcher(e.getName());
                if (!m.matches()) {
                    continue;
                }
                byte[] b = zis.readAllBytes();
                b[6] = 0;
                b[7] = 57;
                zos.putNextEntry(new ZipEntry(m.group(1)));
                zos.write(b);
                zos.closeEntry();
            }
        }
    }

    public static void main(String[] args) throws IOException {
        Path data = Paths.get(args[0]);
        Path out = Paths.get(args[1]);

        javac("17", out.resolve("app1"), sources(data.resolve("app/v1")));
        List<String> v2 = new ArrayList<>();
        for (String s : sources(data.resolve("app/v1"))) {
            Path over = data.resolve("app/v2").resolve(data.resolve("app/v1").relativize(Paths.get(s)));
            v2.add(Files.exists(over) ? over.toString() : s);
        }
        javac("17", out.resolve("app2"), v2);

        for (int r = 7; r <= 17; r++) {
            List<String> srcs = new ArrayList<>(sources(data.resolve("releases")));
            if (r >= 8) {
                srcs.addAll(sources(data.resolve("releases8")));
            }
            javac(Integer.toString(r), out.resolve("rel/r" + r), srcs);
        }

        javac("8", out.resolve("shop"), sources(data.resolve("shop")));
        javac("8", out.resolve("mr/base"), sources(data.resolve("mr/base")));
        javac("11", out.resolve("mr/v11"), sources(data.resolve("mr/v11")), "-cp",
                out.resolve("mr/base").toString());
        javac("11", out.resolve("module"), sources(data.resolve("module")));
        javac("17", out.resolve("beat"), sources(data.resolve("beat")));
        libraryJar(out.resolve("rt57.jar"));

        // cache.sh's inputs (--release 8): two jars and a directory, a jar it adds, the
        // directory with one class edited, and base.jar once its class is an Activity
        Path c = data.resolve("cache");
        Path co = out.resolve("cache");
        String cp = co.resolve("base") + ":" + co.resolve("dir");
        javac("8", co.resolve("base"), sources(c.resolve("base")));
        javac("8", co.resolve("dir"), sources(c.resolve("dir")));
        javac("8", co.resolve("app"), sources(c.resolve("app")), "-cp", cp);
        javac("8", co.resolve("extra"), sources(c.resolve("extra")), "-cp", cp);
        javac("8", co.resolve("dir-edited"), sources(c.resolve("dir-edited")), "-cp", cp);
        javac("8", co.resolve("stub"), sources(c.resolve("stub")));
        javac("8", co.resolve("base-activity"), sources(c.resolve("base-activity")), "-cp",
                co.resolve("stub").toString());
        for (String j : new String[] {"base", "app", "extra", "base-activity"}) {
            jar(co.resolve(j), co.resolve(j + ".jar"));
        }
    }

    /* A jar of a directory's files, in byte order of their paths, with one fixed time. */
    static void jar(Path dir, Path out) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        try (ZipOutputStream zos = new ZipOutputStream(Files.newOutputStream(out))) {
            for (Path f : files) {
                ZipEntry e = new ZipEntry(dir.relativize(f).toString().replace('\\', '/'));
                e.setTime(315532800000L); // 1980-01-01, zip's first day
                zos.putNextEntry(e);
                zos.write(Files.readAllBytes(f));
                zos.closeEntry();
            }
        }
    }
}
