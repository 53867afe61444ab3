/*
 * VerifyAll: load and link (hence verify) every class of jars and class directories on HotSpot.
 *
 *   java -Xverify:all -cp peers.jar[:DEPENDENCY-JARS] VerifyAll [--full] [--strict] [--quiet] JAR|DIR...
 *
 * For every class C of the inputs (module-info and META-INF/versions/ entries excepted), in name
 * order: Class.forName(C, false, loader) then C.getDeclaredMethods(), which links the class and so
 * runs the verifier. The loader is child-first over the inputs (parent: the application class
 * loader, which supplies the -cp dependencies), so the classes checked are the inputs' own even if
 * another copy is on -cp; java.* names can only come from the JDK and are reported as "shadowed".
 *
 * stdout, one line per problem, then the summary line:
 *   VerifyError CLASS: MESSAGE           (java.lang.VerifyError)
 *   ClassFormatError CLASS: MESSAGE      (ClassFormatError and its subclasses, counted with VerifyError)
 *   LinkageError CLASS: EXCEPTION: MESSAGE  (other linkage problems: missing dependencies,
 *                                           incompatible class changes, prohibited names, ...)
 *   verified N classes, M VerifyError, K other linkage problems
 * N counts every class examined. Exit status: 1 if M > 0 (or K > 0 with --strict), 2 on a usage or
 * I/O error, 0 otherwise. --full prints the whole verifier message (newlines as " | ").
 */

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

public final class VerifyAll {

    private VerifyAll() {
    }

    /** Child-first over the inputs; java.* (which only the boot loader may define) goes to the parent. */
    static final class ChildFirstLoader extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        ChildFirstLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && !name.startsWith("java.")) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException e) {
                        c = null;
                    }
                }
                if (c == null) {
                    c = getParent().loadClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    public static void main(String[] args) {
        boolean full = false;
        boolean strict = false;
        boolean quiet = false;
        List<File> inputs = new ArrayList<>();
        for (String a : args) {
            switch (a) {
                case "--full":
                    full = true;
                    break;
                case "--strict":
                    strict = true;
                    break;
                case "--quiet":
                    quiet = true;
                    break;
                case "-h":
                case "--help":
                    usage();
                    break;
                default:
                    if (a.startsWith("--")) {
                        usage();
                    }
                    inputs.add(new File(a));
            }
        }
        if (inputs.isEmpty()) {
            usage();
        }

        TreeSet<String> names = new TreeSet<>();
        URL[] urls = new URL[inputs.size()];
        try {
            for (int i = 0; i < inputs.size(); i++) {
                File f = inputs.get(i);
                if (!f.exists()) {
                    throw new IOException("no such file or directory: " + f);
                }
                urls[i] = f.toURI().toURL();
                listClasses(f, names);
            }
        } catch (IOException e) {
            System.err.println("VerifyAll: " + e.getMessage());
            System.exit(2);
        }

        ChildFirstLoader loader = new ChildFirstLoader(urls, VerifyAll.class.getClassLoader());
        int total = 0;
        int verifyErrors = 0;
        int other = 0;
        List<String> shadowed = new ArrayList<>();
        for (String name : names) {
            total++;
            try {
                Class<?> c = Class.forName(name, false, loader);
                if (c.getClassLoader() != loader) {
                    shadowed.add(name);
                }
                c.getDeclaredMethods(); // links, hence verifies
            } catch (VerifyError e) {
                verifyErrors++;
                System.out.println("VerifyError " + name + ": " + message(e, full));
            } catch (ClassFormatError e) {
                verifyErrors++;
                System.out.println("ClassFormatError " + name + ": " + e.getClass().getName() + ": "
                        + message(e, full));
            } catch (LinkageError | ClassNotFoundException | SecurityException | TypeNotPresentException e) {
                other++;
                System.out.println("LinkageError " + name + ": " + e.getClass().getName() + ": "
                        + message(e, full));
            }
        }
        if (!shadowed.isEmpty() && !quiet) {
            System.err.println("VerifyAll: " + shadowed.size() + " classes resolved outside the inputs"
                    + " (JDK or parent loader), not checked from the inputs: first " + shadowed.get(0)
                    + " (use --patch-module to check JDK classes)");
        }
        System.out.println("verified " + total + " classes, " + verifyErrors + " VerifyError, " + other
                + " other linkage problems");
        System.exit(verifyErrors > 0 || (strict && other > 0) ? 1 : 0);
    }

    private static void usage() {
        System.err.println("usage: java -Xverify:all -cp peers.jar[:DEPS] VerifyAll [--full] [--strict] [--quiet] JAR|DIR...");
        System.exit(2);
    }

    /** HotSpot's VerifyError text is multi-line; keep the headline, Location and Reason on one line. */
    static String message(Throwable e, boolean full) {
        String m = e.getMessage();
        if (m == null) {
            return "";
        }
        String[] lines = m.split("\r?\n");
        if (full) {
            return String.join(" | ", lines).replaceAll("\\s+", " ").trim();
        }
        StringBuilder sb = new StringBuilder(lines[0].trim());
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].trim();
            if ((t.equals("Location:") || t.equals("Reason:")) && i + 1 < lines.length) {
                sb.append("; ").append(t).append(' ').append(lines[i + 1].trim());
            }
        }
        return sb.toString();
    }

    private static void listClasses(File f, TreeSet<String> names) throws IOException {
        if (f.isDirectory()) {
            Path root = f.toPath();
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(p -> Files.isRegularFile(p)).forEach(p -> {
                    String rel = root.relativize(p).toString().replace(File.separatorChar, '/');
                    addEntry(rel, names);
                });
            }
        } else if (f.getName().endsWith(".class")) {
            throw new IOException("give the class directory, not a single class file: " + f);
        } else {
            try (ZipFile zf = new ZipFile(f)) {
                Enumeration<? extends ZipEntry> en = zf.entries();
                while (en.hasMoreElements()) {
                    ZipEntry e = en.nextElement();
                    if (!e.isDirectory()) {
                        addEntry(e.getName(), names);
                    }
                }
            }
        }
    }

    private static void addEntry(String path, TreeSet<String> names) {
        if (!path.endsWith(".class") || path.startsWith("META-INF/")) {
            return;
        }
        String n = path.substring(0, path.length() - ".class".length());
        if (n.equals("module-info") || n.endsWith("/module-info")) {
            return;
        }
        names.add(n.replace('/', '.'));
    }
}
