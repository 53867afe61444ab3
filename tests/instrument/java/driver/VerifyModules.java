package driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Loads and links every class of a jimage-style module tree (MODS/module/a/b/C.class)
 * with the system class loader, so that classes patched into the JDK's modules
 * (--patch-module) are verified (run with -Xverify:all). getDeclaredMethods() links
 * the class, which runs the verifier. Prints each failure and a summary; exits 1 when
 * any class fails.
 */
public final class VerifyModules {
    public static void main(String[] args) throws IOException {
        Path root = Paths.get(args[0]);
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
        }
        int ok = 0, bad = 0;
        for (Path p : files) {
            Path rel = root.relativize(p);
            String name = rel.subpath(1, rel.getNameCount()).toString().replace('/', '.');
            name = name.substring(0, name.length() - ".class".length());
            if (name.endsWith("module-info") || name.endsWith("package-info"))
                continue;
            try {
                Class<?> c = Class.forName(name, false, ClassLoader.getSystemClassLoader());
                c.getDeclaredMethods();
                c.getDeclaredConstructors();
                ok++;
            } catch (Throwable e) {
                bad++;
                System.out.println("FAILED " + name + ": " + e);
            }
        }
        System.out.println("verified " + ok + " classes, " + bad + " failed");
        System.exit(bad == 0 && ok > 0 ? 0 : 1);
    }
}
