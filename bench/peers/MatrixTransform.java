/*
 * MatrixTransform: a re-implementation, with Debian's ObjectWeb ASM, of the build-time trace
 * transform of Tencent Matrix (TraceCanary: MatrixTrace / MethodCollector / MethodTracer of
 * matrix-gradle-plugin), written for tracecanary's benchmarks and tests. It keeps Matrix's
 * observable behaviour, including its quirks (listed in README.md), and its cost profile: a
 * 16-thread executor, a collect pass that builds ASM tree MethodNodes, a trace pass with
 * AdviceAdapter and ClassWriter.COMPUTE_FRAMES whose common-super-class lookup loads classes
 * through a URLClassLoader over the inputs and the class path.
 *
 *   java -cp peers.jar:ASM-JARS MatrixTransform --mapping-dir D --in X --out Y [--in X --out Y]...
 *        [--blocklist F] [--base-mapping F] [--proguard-mapping F] [--classpath JAR]...
 *        [--threads 16] [--asm-api 9] [--check-class | --skip-check-class] [--expect T,I] [--quiet]
 *
 * stdout: "methods traced=T ignored=I classes_collected=C" (T, I: lines of methodMapping.txt
 * without the dispatch line, lines of ignoreMethodMapping.txt without its header).
 * stderr: "phase=NAME ms=..." for parse, collect, trace, total.
 */

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.Locale;
import java.util.Map;
import java.util.Scanner;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

public final class MatrixTransform {

    // ---- Matrix's constants (TraceBuildConstants) ----
    static final String BEAT_CLASS = "com/tencent/matrix/trace/core/AppMethodBeat";
    static final String FOCUS_METHOD = "onWindowFocusChanged";
    static final String FOCUS_DESC = "(Z)V";
    static final String[] ACTIVITY_CLASSES = {
        "android/app/Activity",
        "android/support/v4/app/FragmentActivity",
        "android/support/v7/app/AppCompatActivity",
        "androidx/appcompat/app/AppCompatActivity",
    };
    static final String[] UN_TRACE_CLASS = {"R.class", "R$", "Manifest", "BuildConfig"};
    static final String DEFAULT_BLOCK_TRACE =
            "[package]\n" + "-keeppackage android/\n" + "-keeppackage com/tencent/matrix/\n";
    static final int METHOD_ID_MAX = 0xFFFFF;
    static final int METHOD_ID_DISPATCH = METHOD_ID_MAX - 1;

    // ---- options ----
    private final List<File[]> pairs = new ArrayList<>();
    private File mappingDir;
    private File blockListFile;
    private File baseMappingFile;
    private File proguardMappingFile;
    private final List<File> classPath = new ArrayList<>();
    private int threads = 16;
    private int api = Opcodes.ASM9;
    private boolean checkClass = false; // Matrix: skipCheckClass = true by default
    private int[] expect;
    private boolean quiet;

    // ---- state, as in Matrix ----
    private final ProguardMapping mapping = new ProguardMapping();
    private final Set<String> blockSet = new HashSet<>();
    private final AtomicInteger methodId = new AtomicInteger(0);
    private final ConcurrentHashMap<String, TraceMethod> collectedMethodMap = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, TraceMethod> collectedIgnoreMethodMap = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> collectedClassExtendMap = new ConcurrentHashMap<>();
    private final AtomicInteger classesCollected = new AtomicInteger();
    private final AtomicInteger collectErrors = new AtomicInteger();
    private final AtomicInteger traceErrors = new AtomicInteger();
    private volatile boolean traceError = false;
    private int tracedWritten;
    private int ignoredWritten;

    // ======================================================================================
    // command line
    // ======================================================================================

    private static void usage(String msg) {
        if (msg != null) {
            System.err.println("MatrixTransform: " + msg);
        }
        System.err.println(
                "usage: MatrixTransform --mapping-dir DIR --in INPUT --out OUTPUT [--in INPUT --out OUTPUT]...\n"
                + "         [--blocklist FILE] [--base-mapping FILE] [--proguard-mapping FILE]\n"
                + "         [--classpath JAR|DIR]... [--threads N] [--asm-api 5|6|7|8|9]\n"
                + "         [--check-class | --skip-check-class] [--expect TRACED,IGNORED] [--quiet] [--warm N]\n"
                + "  INPUT is a class directory, a jar, or a single .class file; OUTPUT is of the same kind.\n"
                + "  --mapping-dir receives methodMapping.txt and ignoreMethodMapping.txt; a mapping.txt in it\n"
                + "  is read as the ProGuard mapping unless --proguard-mapping is given.\n"
                + "  --check-class runs Matrix's optional CheckClassAdapter self-check on every output class\n"
                + "  (off by default, as Matrix's skipCheckClass=true); --skip-check-class turns it off.\n"
                + "  --expect T,I exits 1 unless exactly T methods are traced and I ignored.\n"
                + "  --warm N runs it all N times in one JVM (as in a Gradle daemon) and prints warm_ms=,\n"
                + "  the median of the second half of the rounds.");
        System.exit(2);
    }

    private void parseArgs(String[] args) {
        File pendingIn = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--in":
                    if (pendingIn != null) {
                        usage("--in " + pendingIn + " has no --out");
                    }
                    pendingIn = new File(arg(args, ++i, a));
                    break;
                case "--out":
                    if (pendingIn == null) {
                        usage("--out without --in");
                    }
                    pairs.add(new File[] {pendingIn, new File(arg(args, ++i, a))});
                    pendingIn = null;
                    break;
                case "--mapping-dir":
                    mappingDir = new File(arg(args, ++i, a));
                    break;
                case "--blocklist":
                    blockListFile = new File(arg(args, ++i, a));
                    break;
                case "--base-mapping":
                    baseMappingFile = new File(arg(args, ++i, a));
                    break;
                case "--proguard-mapping":
                    proguardMappingFile = new File(arg(args, ++i, a));
                    break;
                case "--classpath":
                    for (String p : arg(args, ++i, a).split(File.pathSeparator)) {
                        if (!p.isEmpty()) {
                            classPath.add(new File(p));
                        }
                    }
                    break;
                case "--threads":
                    threads = Integer.parseInt(arg(args, ++i, a));
                    break;
                case "--asm-api":
                    api = asmApi(Integer.parseInt(arg(args, ++i, a)));
                    break;
                case "--check-class":
                    checkClass = true;
                    break;
                case "--skip-check-class":
                case "--no-self-check":
                    checkClass = false;
                    break;
                case "--expect": {
                    String[] p = arg(args, ++i, a).split(",");
                    if (p.length != 2) {
                        usage("--expect wants TRACED,IGNORED");
                    }
                    expect = new int[] {Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim())};
                    break;
                }
                case "--quiet":
                    quiet = true;
                    break;
                case "-h":
                case "--help":
                    usage(null);
                    break;
                default:
                    usage("unknown argument " + a);
            }
        }
        if (pendingIn != null) {
            usage("--in " + pendingIn + " has no --out");
        }
        if (pairs.isEmpty()) {
            usage("no --in/--out pair");
        }
        if (mappingDir == null) {
            usage("--mapping-dir is required");
        }
        if (threads < 1) {
            usage("--threads must be >= 1");
        }
        for (File[] p : pairs) {
            if (!p[0].exists()) {
                usage("input does not exist: " + p[0]);
            }
        }
    }

    private static String arg(String[] args, int i, String opt) {
        if (i >= args.length) {
            usage(opt + " needs a value");
        }
        return args[i];
    }

    private static int asmApi(int v) {
        switch (v) {
            case 5: return Opcodes.ASM5;
            case 6: return Opcodes.ASM6;
            case 7: return Opcodes.ASM7;
            case 8: return Opcodes.ASM8;
            case 9: return Opcodes.ASM9;
            default:
                usage("--asm-api must be 5..9");
                return 0;
        }
    }

    // ======================================================================================
    // main flow (Matrix's MatrixTrace.doTransform: parse, collect, trace)
    // ======================================================================================

    public static void main(String[] args) throws Exception {
        // --warm N: the whole transform N times in this JVM, each with fresh state and fresh
        // outputs, as a Gradle daemon runs it build after build once its JIT has warmed; the
        // rounds' times go to standard error and the median of the second half (the warm
        // rounds) to standard output as "warm_ms=...".
        int warm = 0;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--warm")) {
                warm = Integer.parseInt(arg(args, ++i, "--warm"));
                if (warm < 2) {
                    usage("--warm wants at least 2 rounds");
                }
            } else {
                rest.add(args[i]);
            }
        }
        String[] a = rest.toArray(new String[0]);
        if (warm == 0) {
            MatrixTransform t = new MatrixTransform();
            t.parseArgs(a);
            System.exit(t.run());
        }
        double[] ms = new double[warm];
        for (int r = 0; r < warm; r++) {
            MatrixTransform t = new MatrixTransform();
            t.parseArgs(a);
            t.quiet = true;
            long t0 = System.nanoTime();
            int rc = t.run();
            ms[r] = (System.nanoTime() - t0) / 1e6;
            if (rc != 0) {
                System.exit(rc);
            }
            System.err.println(String.format(Locale.ROOT, "warm round=%d ms=%.1f", r + 1, ms[r]));
        }
        double[] tail = java.util.Arrays.copyOfRange(ms, warm / 2, warm);
        java.util.Arrays.sort(tail);
        int n = tail.length;
        double median = n % 2 == 1 ? tail[n / 2] : (tail[n / 2 - 1] + tail[n / 2]) / 2;
        System.out.println(String.format(Locale.ROOT, "warm_ms=%.1f rounds=%d", median, warm));
        System.exit(0);
    }

    private static boolean isRealZip(File f) {
        if (!f.isFile()) {
            return false;
        }
        try (InputStream in = new FileInputStream(f)) {
            byte[] m = in.readNBytes(4);
            return m.length == 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4;
        } catch (IOException e) {
            return false;
        }
    }

    private int run() throws Exception {
        long tStart = System.nanoTime();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            // Matrix keeps inputs in ConcurrentHashMaps keyed by File: same (hash) order here.
            Map<File, File> dirInputOutMap = new ConcurrentHashMap<>();
            Map<File, File> jarInputOutMap = new ConcurrentHashMap<>();
            for (File[] p : pairs) {
                if (isRealZip(p[0])) {
                    jarInputOutMap.put(p[0], p[1]);
                    File parent = p[1].getAbsoluteFile().getParentFile();
                    if (parent != null) {
                        parent.mkdirs();
                    }
                    if (p[1].exists()) {
                        p[1].delete();
                    }
                } else {
                    dirInputOutMap.put(p[0], p[1]);
                    if (p[0].isDirectory()) {
                        p[1].mkdirs();
                    } else {
                        File parent = p[1].getAbsoluteFile().getParentFile();
                        if (parent != null) {
                            parent.mkdirs();
                        }
                    }
                }
            }

            // step 1: parse
            long t = System.nanoTime();
            Future<?> parse = executor.submit(() -> {
                try {
                    parseMappings();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return null;
            });
            parse.get();
            phase("parse", t);

            // step 2: collect
            t = System.nanoTime();
            collect(executor, dirInputOutMap.keySet(), jarInputOutMap.keySet());
            phase("collect", t);

            // step 3: trace
            t = System.nanoTime();
            List<File> allInputs = new ArrayList<>(dirInputOutMap.keySet());
            allInputs.addAll(jarInputOutMap.keySet());
            URLClassLoader loader = traceClassLoader(allInputs);
            trace(executor, dirInputOutMap, jarInputOutMap, loader);
            phase("trace", t);
        } finally {
            executor.shutdownNow();
        }
        phase("total", tStart);

        System.out.println("methods traced=" + tracedWritten + " ignored=" + ignoredWritten
                + " classes_collected=" + classesCollected.get()
                + " collect_errors=" + collectErrors.get() + " trace_errors=" + traceErrors.get());
        if (traceError) {
            System.err.println("MatrixTransform: something wrong with trace (CheckClassAdapter), see above");
            return 1;
        }
        if (expect != null && (expect[0] != tracedWritten || expect[1] != ignoredWritten)) {
            System.err.println("MatrixTransform: expected traced=" + expect[0] + " ignored=" + expect[1]
                    + ", got traced=" + tracedWritten + " ignored=" + ignoredWritten);
            return 1;
        }
        return 0;
    }

    private static void phase(String name, long t0) {
        System.err.println(String.format(Locale.ROOT, "phase=%s ms=%.1f", name, (System.nanoTime() - t0) / 1e6));
    }

    private void warn(String s) {
        if (!quiet) {
            System.err.println(s);
        }
    }

    // ======================================================================================
    // step 1: ProGuard mapping, block list, base method mapping (Matrix's ParseMappingTask)
    // ======================================================================================

    private void parseMappings() throws IOException {
        File pg = proguardMappingFile != null ? proguardMappingFile : new File(mappingDir, "mapping.txt");
        if (pg.isFile()) {
            mapping.read(pg);
        }
        parseBlockFile();
        if (baseMappingFile != null && baseMappingFile.exists()) {
            readBaseMapping(baseMappingFile);
            // retrace: original -> obfuscated names, re-keyed
            HashMap<String, TraceMethod> re = new HashMap<>(collectedMethodMap.size());
            for (TraceMethod m : collectedMethodMap.values()) {
                m.proguard(mapping);
                re.put(m.getMethodName(), m);
            }
            collectedMethodMap.clear();
            collectedMethodMap.putAll(re);
        }
    }

    private void parseBlockFile() throws IOException {
        String file = "";
        if (blockListFile != null && blockListFile.isFile()) {
            file = new String(Files.readAllBytes(blockListFile.toPath()), StandardCharsets.UTF_8);
        }
        String blockStr = DEFAULT_BLOCK_TRACE + file;
        String[] lines = blockStr.trim().replace("/", ".").replace("\r", "").split("\n");
        for (String block : lines) {
            if (block.length() == 0 || block.startsWith("#") || block.startsWith("[")) {
                continue;
            }
            if (block.startsWith("-keepclass ")) {
                block = block.replace("-keepclass ", "");
                blockSet.add(mapping.proguardClassName(block, block));
            } else if (block.startsWith("-keeppackage ")) {
                block = block.replace("-keeppackage ", "");
                blockSet.add(mapping.proguardPackageName(block, block));
            }
        }
    }

    // Matrix's getMethodFromBaseMethod: any Throwable ends the reading, silently keeping what was read.
    private void readBaseMapping(File f) {
        try (Scanner sc = new Scanner(f, "UTF-8")) {
            while (sc.hasNext()) {
                String line = sc.nextLine();
                if (line == null || line.isEmpty()) {
                    continue;
                }
                line = line.trim();
                if (line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split(",");
                TraceMethod m = new TraceMethod();
                m.id = Integer.parseInt(fields[0]);
                m.accessFlag = Integer.parseInt(fields[1]);
                String[] mf = fields[2].split(" ");
                m.className = mf[0].replace("/", ".");
                m.methodName = mf[1];
                if (mf.length > 2) {
                    m.desc = mf[2].replace("/", ".");
                }
                collectedMethodMap.put(m.getMethodName(), m);
                if (methodId.get() < m.id && m.id != METHOD_ID_DISPATCH) {
                    methodId.set(m.id);
                }
            }
        } catch (Throwable t) {
            warn("base mapping " + f + ": " + t + " (rest of the file ignored, as in Matrix)");
        }
    }

    // Matrix's MethodCollector.isNeedTrace. Called with the dotted name in the collect pass and
    // with the internal (slashed) name in the trace pass, as Matrix does.
    boolean isNeedTrace(String clsName) {
        if (blockSet.contains(clsName)) {
            return false;
        }
        clsName = mapping.originalClassName(clsName, clsName);
        clsName = clsName.replaceAll("/", ".");
        for (String packageName : blockSet) {
            if (clsName.startsWith(packageName.replaceAll("/", "."))) {
                return false;
            }
        }
        return true;
    }

    static boolean isNeedTraceFile(String fileName) {
        if (!fileName.endsWith(".class")) {
            return false;
        }
        for (String s : UN_TRACE_CLASS) {
            if (fileName.contains(s)) {
                return false;
            }
        }
        return true;
    }

    static boolean isWindowFocusChangeMethod(String name, String desc) {
        return FOCUS_METHOD.equals(name) && FOCUS_DESC.equals(desc);
    }

    // ======================================================================================
    // step 2: collect (Matrix's MethodCollector)
    // ======================================================================================

    private void collect(ExecutorService executor, Set<File> srcs, Set<File> jars)
            throws ExecutionException, InterruptedException {
        List<Future<?>> futures = new LinkedList<>();
        for (File src : srcs) {
            ArrayList<File> files = new ArrayList<>();
            if (src.isDirectory()) {
                listClassFiles(files, src, true);
            } else {
                files.add(src);
            }
            for (File f : files) {
                futures.add(executor.submit(() -> collectSrc(f)));
            }
        }
        for (File jar : jars) {
            futures.add(executor.submit(() -> collectJar(jar)));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        futures.clear();
        futures.add(executor.submit(this::saveIgnoreCollectedMethod));
        futures.add(executor.submit(this::saveCollectedMethod));
        for (Future<?> f : futures) {
            f.get();
        }
    }

    private void collectSrc(File classFile) {
        try (InputStream is = new FileInputStream(classFile)) {
            collectClass(is);
        } catch (Exception e) {
            // Matrix: e.printStackTrace(); the class is simply not collected.
            collectErrors.incrementAndGet();
            warn("collect: " + classFile + ": " + e);
        }
    }

    private void collectJar(File jar) {
        try (ZipFile zip = new ZipFile(jar)) {
            Enumeration<? extends ZipEntry> en = zip.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                if (isNeedTraceFile(e.getName())) {
                    InputStream in = zip.getInputStream(e);
                    collectClass(in); // Matrix neither closes the stream nor catches per entry
                }
            }
        } catch (Exception e) {
            // Matrix: one failing entry ends the collection of the rest of that jar.
            collectErrors.incrementAndGet();
            warn("collect: " + jar + ": " + e + " (rest of this jar not collected, as in Matrix)");
        }
    }

    private void collectClass(InputStream in) throws IOException {
        ClassReader cr = new ClassReader(in);
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cr.accept(new CollectClassAdapter(api, cw), 0);
        classesCollected.incrementAndGet();
    }

    private final class CollectClassAdapter extends ClassVisitor {
        private String className;
        private boolean isABSClass;

        CollectClassAdapter(int api, ClassVisitor cv) {
            super(api, cv);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            super.visit(version, access, name, signature, superName, interfaces);
            className = name;
            if ((access & Opcodes.ACC_ABSTRACT) > 0 || (access & Opcodes.ACC_INTERFACE) > 0) {
                isABSClass = true;
            }
            // ConcurrentHashMap: a null super class (java/lang/Object, module-info) throws NPE here,
            // exactly as in Matrix.
            collectedClassExtendMap.put(className, superName);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String signature,
                                         String[] exceptions) {
            if (isABSClass) {
                return super.visitMethod(access, name, desc, signature, exceptions);
            }
            return new CollectMethodNode(api, className, access, name, desc, signature, exceptions);
        }
    }

    private final class CollectMethodNode extends MethodNode {
        private final String className;
        private boolean isConstructor;

        CollectMethodNode(int api, String className, int access, String name, String desc, String signature,
                          String[] exceptions) {
            super(api, access, name, desc, signature, exceptions);
            this.className = className;
        }

        @Override
        public void visitEnd() {
            super.visitEnd();
            TraceMethod traceMethod = TraceMethod.create(0, access, className, name, desc);
            if ("<init>".equals(name)) {
                isConstructor = true;
            }
            boolean isNeedTrace = isNeedTrace(traceMethod.className);
            if ((isEmptyMethod() || isGetSetMethod() || isSingleMethod()) && isNeedTrace) {
                collectedIgnoreMethodMap.put(traceMethod.getMethodName(), traceMethod);
                return;
            }
            if (isNeedTrace && !collectedMethodMap.containsKey(traceMethod.getMethodName())) {
                traceMethod.id = methodId.incrementAndGet();
                collectedMethodMap.put(traceMethod.getMethodName(), traceMethod);
            } else if (!isNeedTrace && !collectedIgnoreMethodMap.containsKey(traceMethod.className)) {
                // Matrix's quirk: the map is keyed by method key, so this test is always true.
                collectedIgnoreMethodMap.put(traceMethod.getMethodName(), traceMethod);
            }
        }

        private boolean isGetSetMethod() {
            int invokeSpecials = 0;
            ListIterator<AbstractInsnNode> it = instructions.iterator();
            while (it.hasNext()) {
                int opcode = it.next().getOpcode();
                if (opcode == -1) {
                    continue;
                }
                // Matrix also lists H_GETFIELD.. H_PUTSTATIC (1..4): they are <= SALOAD anyway.
                if (opcode != Opcodes.GETFIELD && opcode != Opcodes.GETSTATIC
                        && opcode != Opcodes.RETURN && opcode != Opcodes.ARETURN
                        && opcode != Opcodes.DRETURN && opcode != Opcodes.FRETURN
                        && opcode != Opcodes.LRETURN && opcode != Opcodes.IRETURN
                        && opcode != Opcodes.PUTFIELD && opcode != Opcodes.PUTSTATIC
                        && opcode > Opcodes.SALOAD) {
                    if (isConstructor && opcode == Opcodes.INVOKESPECIAL) {
                        invokeSpecials++;
                        if (invokeSpecials > 1) {
                            return false;
                        }
                        continue;
                    }
                    return false;
                }
            }
            return true;
        }

        private boolean isSingleMethod() {
            ListIterator<AbstractInsnNode> it = instructions.iterator();
            while (it.hasNext()) {
                int opcode = it.next().getOpcode();
                if (opcode == -1) {
                    continue;
                }
                if (Opcodes.INVOKEVIRTUAL <= opcode && opcode <= Opcodes.INVOKEDYNAMIC) {
                    return false;
                }
            }
            return true;
        }

        private boolean isEmptyMethod() {
            ListIterator<AbstractInsnNode> it = instructions.iterator();
            while (it.hasNext()) {
                if (it.next().getOpcode() != -1) {
                    return false;
                }
            }
            return true;
        }
    }

    private Void saveIgnoreCollectedMethod() throws IOException {
        File file = new File(mappingDir, "ignoreMethodMapping.txt");
        file.getAbsoluteFile().getParentFile().mkdirs();
        List<TraceMethod> list = new ArrayList<>(collectedIgnoreMethodMap.values());
        Collections.sort(list, (a, b) -> a.className.compareTo(b.className));
        int n = 0;
        try (PrintWriter pw = new PrintWriter(new OutputStreamWriter(new FileOutputStream(file, false), "UTF-8"))) {
            pw.println("ignore methods:");
            for (TraceMethod m : list) {
                m.revert(mapping);
                pw.println(m.toIgnoreString());
                n++;
            }
        }
        ignoredWritten = n;
        return null;
    }

    private Void saveCollectedMethod() throws IOException {
        File file = new File(mappingDir, "methodMapping.txt");
        file.getAbsoluteFile().getParentFile().mkdirs();
        TraceMethod extra = TraceMethod.create(METHOD_ID_DISPATCH, Opcodes.ACC_PUBLIC, "android.os.Handler",
                "dispatchMessage", "(Landroid.os.Message;)V");
        collectedMethodMap.put(extra.getMethodName(), extra);
        List<TraceMethod> list = new ArrayList<>(collectedMethodMap.values());
        Collections.sort(list, (a, b) -> a.id - b.id);
        int n = 0;
        try (PrintWriter pw = new PrintWriter(new OutputStreamWriter(new FileOutputStream(file, false), "UTF-8"))) {
            for (TraceMethod m : list) {
                m.revert(mapping);
                pw.println(m.toString());
                if (m != extra) {
                    n++;
                }
            }
        }
        tracedWritten = n;
        return null;
    }

    // ======================================================================================
    // step 3: trace (Matrix's MethodTracer)
    // ======================================================================================

    private URLClassLoader traceClassLoader(List<File> inputs) throws IOException {
        // Matrix's TraceClassLoader: URLClassLoader(android.jar + all inputs), parent = the system
        // class loader. Here --classpath plays the role of android.jar.
        List<URL> urls = new ArrayList<>();
        for (File f : classPath) {
            urls.add(f.toURI().toURL());
        }
        for (File f : inputs) {
            urls.add(f.toURI().toURL());
        }
        return new URLClassLoader(urls.toArray(new URL[0]));
    }

    private void trace(ExecutorService executor, Map<File, File> srcMap, Map<File, File> jarMap,
                       ClassLoader loader) throws ExecutionException, InterruptedException {
        List<Future<?>> futures = new LinkedList<>();
        for (Map.Entry<File, File> e : srcMap.entrySet()) {
            futures.add(executor.submit(() -> traceSrc(e.getKey(), e.getValue(), loader)));
        }
        for (Map.Entry<File, File> e : jarMap.entrySet()) {
            futures.add(executor.submit(() -> traceJar(e.getKey(), e.getValue(), loader)));
        }
        for (Future<?> f : futures) {
            f.get();
        }
    }

    private byte[] traceClass(InputStream in, ClassLoader loader, String what) throws IOException {
        ClassReader cr = new ClassReader(in);
        ClassWriter cw = new TraceClassWriter(ClassWriter.COMPUTE_FRAMES, loader);
        cr.accept(new TraceClassAdapter(api, cw), ClassReader.EXPAND_FRAMES);
        byte[] data = cw.toByteArray();
        if (checkClass) {
            try {
                ClassReader r = new ClassReader(data);
                r.accept(new CheckClassAdapter(new ClassWriter(0)), ClassReader.EXPAND_FRAMES);
            } catch (Throwable t) {
                System.err.println("trace output ERROR : " + t.getMessage() + ", " + what);
                traceError = true;
            }
        }
        return data;
    }

    private void traceSrc(File input, File output, ClassLoader loader) {
        ArrayList<File> files = new ArrayList<>();
        if (input.isDirectory()) {
            listClassFiles(files, input, false);
        } else {
            files.add(input);
        }
        String inAbs = input.getAbsolutePath();
        String outAbs = output.getAbsolutePath();
        for (File classFile : files) {
            try {
                File out = new File(classFile.getAbsolutePath().replace(inAbs, outAbs));
                if (out.getCanonicalPath().equals(classFile.getCanonicalPath())) {
                    throw new RuntimeException("Input file(" + classFile.getCanonicalPath()
                            + ") should not be same with output!");
                }
                if (!out.exists()) {
                    out.getParentFile().mkdirs();
                }
                out.createNewFile();
                if (isNeedTraceFile(classFile.getName())) {
                    byte[] data;
                    try (InputStream is = new FileInputStream(classFile)) {
                        data = traceClass(is, loader, classFile.toString());
                    }
                    try (FileOutputStream os = new FileOutputStream(output.isDirectory() ? out : output)) {
                        os.write(data);
                    }
                } else {
                    Files.copy(classFile.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (Exception e) {
                // Matrix: log, then Files.copy(input, output, REPLACE_EXISTING) of the whole input,
                // which for a non-empty directory output fails; the class's output stays empty.
                traceErrors.incrementAndGet();
                warn("trace: " + classFile + ": " + e);
                try {
                    Files.copy(input.toPath(), output.toPath(), StandardCopyOption.REPLACE_EXISTING);
                } catch (Exception e1) {
                    warn("trace: copy " + input + " -> " + output + ": " + e1);
                }
            }
        }
    }

    private void traceJar(File input, File output, ClassLoader loader) {
        ZipOutputStream zos = null;
        ZipFile zip = null;
        try {
            zos = new ZipOutputStream(new FileOutputStream(output));
            zip = new ZipFile(input);
            Enumeration<? extends ZipEntry> en = zip.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                String name = e.getName();
                if (isNeedTraceFile(name)) {
                    byte[] data = traceClass(zip.getInputStream(e), loader, name);
                    addZipEntry(zos, new ZipEntry(name), new ByteArrayInputStream(data));
                } else {
                    addZipEntry(zos, new ZipEntry(name), zip.getInputStream(e));
                }
            }
        } catch (Exception e) {
            // Matrix: the whole input jar is copied to the output, uninstrumented.
            traceErrors.incrementAndGet();
            warn("trace: " + input + ": " + e + " (jar copied unchanged, as in Matrix)");
            try {
                if (zos != null) {
                    zos.close();
                    zos = null;
                }
                if (input.length() > 0) {
                    Files.copy(input.toPath(), output.toPath(), StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (Exception e1) {
                warn("trace: copy " + input + ": " + e1);
            }
        } finally {
            try {
                if (zos != null) {
                    zos.finish();
                    zos.flush();
                    zos.close();
                }
                if (zip != null) {
                    zip.close();
                }
            } catch (Exception e) {
                warn("close stream err! " + e);
            }
        }
    }

    // Matrix's FileUtil.addZipEntry: 16 KiB buffer, flush after every chunk.
    private static void addZipEntry(ZipOutputStream zos, ZipEntry entry, InputStream in) throws IOException {
        try {
            zos.putNextEntry(entry);
            byte[] buffer = new byte[16 * 1024];
            int len;
            while ((len = in.read(buffer, 0, buffer.length)) != -1) {
                zos.write(buffer, 0, len);
                zos.flush();
            }
        } finally {
            try {
                in.close();
            } catch (IOException ignored) {
                // as Matrix's closeQuietly
            }
            zos.closeEntry();
        }
    }

    private static void listClassFiles(ArrayList<File> out, File folder, boolean filterNames) {
        File[] files = folder.listFiles();
        if (files == null) {
            return;
        }
        for (File f : files) {
            if (f.isDirectory()) {
                listClassFiles(out, f, filterNames);
            } else if (filterNames ? isNeedTraceFile(f.getName()) : f.isFile()) {
                out.add(f);
            }
        }
    }

    private boolean isActivityOrSubClass(String className) {
        className = className.replace(".", "/");
        for (String a : ACTIVITY_CLASSES) {
            if (className.equals(a)) {
                return true;
            }
        }
        String sup = collectedClassExtendMap.get(className);
        return sup != null && isActivityOrSubClass(sup);
    }

    private final class TraceClassAdapter extends ClassVisitor {
        private String className;
        private String superName;
        private boolean isABSClass;
        private boolean hasWindowFocusMethod;
        private boolean isActivityOrSubClass;
        private boolean isNeedTrace;

        TraceClassAdapter(int api, ClassVisitor cv) {
            super(api, cv);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            super.visit(version, access, name, signature, superName, interfaces);
            this.className = name;
            this.superName = superName;
            this.isActivityOrSubClass = isActivityOrSubClass(name);
            this.isNeedTrace = MatrixTransform.this.isNeedTrace(name); // internal name, as Matrix
            if ((access & Opcodes.ACC_ABSTRACT) > 0 || (access & Opcodes.ACC_INTERFACE) > 0) {
                this.isABSClass = true;
            }
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String signature,
                                         String[] exceptions) {
            if (!hasWindowFocusMethod) {
                hasWindowFocusMethod = isWindowFocusChangeMethod(name, desc);
            }
            if (isABSClass) {
                return super.visitMethod(access, name, desc, signature, exceptions);
            }
            MethodVisitor mv = cv.visitMethod(access, name, desc, signature, exceptions);
            return new TraceMethodAdapter(api, mv, access, name, desc, className, hasWindowFocusMethod,
                    isActivityOrSubClass, isNeedTrace);
        }

        @Override
        public void visitEnd() {
            if (!hasWindowFocusMethod && isActivityOrSubClass && isNeedTrace) {
                insertWindowFocusChangeMethod(cv, superName);
            }
            super.visitEnd();
        }
    }

    private final class TraceMethodAdapter extends AdviceAdapter {
        private final String methodKey;
        private final String className;
        private final boolean hasWindowFocusMethod;
        private final boolean isActivityOrSubClass;
        private final boolean isNeedTrace;

        TraceMethodAdapter(int api, MethodVisitor mv, int access, String name, String desc, String className,
                           boolean hasWindowFocusMethod, boolean isActivityOrSubClass, boolean isNeedTrace) {
            super(api, mv, access, name, desc);
            this.methodKey = TraceMethod.create(0, access, className, name, desc).getMethodName();
            this.className = className;
            this.hasWindowFocusMethod = hasWindowFocusMethod;
            this.isActivityOrSubClass = isActivityOrSubClass;
            this.isNeedTrace = isNeedTrace;
        }

        @Override
        protected void onMethodEnter() {
            TraceMethod m = collectedMethodMap.get(methodKey);
            if (m != null) {
                mv.visitLdcInsn(m.id);
                mv.visitMethodInsn(INVOKESTATIC, BEAT_CLASS, "i", "(I)V", false);
                if (checkNeedTraceWindowFocusChangeMethod(m)) {
                    traceWindowFocusChangeMethod(mv);
                }
            }
        }

        @Override
        protected void onMethodExit(int opcode) {
            TraceMethod m = collectedMethodMap.get(methodKey);
            if (m != null) {
                mv.visitLdcInsn(m.id);
                mv.visitMethodInsn(INVOKESTATIC, BEAT_CLASS, "o", "(I)V", false);
            }
        }

        private boolean checkNeedTraceWindowFocusChangeMethod(TraceMethod m) {
            if (hasWindowFocusMethod && isActivityOrSubClass && isNeedTrace) {
                TraceMethod focus = TraceMethod.create(-1, Opcodes.ACC_PUBLIC, className, FOCUS_METHOD, FOCUS_DESC);
                // compares against the (already reverted) collected entry, as Matrix's equals()
                return focus.getMethodName().equals(m.getMethodName());
            }
            return false;
        }
    }

    private static void traceWindowFocusChangeMethod(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BEAT_CLASS, "at", "(Landroid/app/Activity;Z)V", false);
    }

    private static void insertWindowFocusChangeMethod(ClassVisitor cv, String superClassName) {
        MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PUBLIC, FOCUS_METHOD, FOCUS_DESC, null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, superClassName, FOCUS_METHOD, FOCUS_DESC, false);
        traceWindowFocusChangeMethod(mv);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(2, 2);
        mv.visitEnd();
    }

    /**
     * Matrix's TraceClassWriter: ASM's own lookup (the tool's class loader) first; on an exception,
     * three attempts that load both types through the trace class loader and/or the tool's class
     * loader and answer java/lang/Object when a type cannot be loaded (Exception or LinkageError).
     * A LinkageError thrown by ASM's own lookup is not caught (as in Matrix).
     */
    static final class TraceClassWriter extends ClassWriter {
        private final ClassLoader loader;

        TraceClassWriter(int flags, ClassLoader loader) {
            super(flags);
            this.loader = loader;
        }

        @Override
        protected String getCommonSuperClass(String type1, String type2) {
            try {
                return super.getCommonSuperClass(type1, type2);
            } catch (Exception e) {
                try {
                    return common(type1, loader, type2, loader);
                } catch (Exception e1) {
                    ClassLoader own = getClass().getClassLoader();
                    try {
                        return common(type1, own, type2, loader);
                    } catch (Exception e2) {
                        return common(type1, loader, type2, own);
                    }
                }
            }
        }

        private static String common(String type1, ClassLoader l1, String type2, ClassLoader l2) {
            Class<?> c1;
            Class<?> c2;
            try {
                c1 = Class.forName(type1.replace('/', '.'), false, l1);
                c2 = Class.forName(type2.replace('/', '.'), false, l2);
            } catch (Exception | LinkageError e) {
                return "java/lang/Object";
            }
            if (c1.isAssignableFrom(c2)) {
                return type1;
            }
            if (c2.isAssignableFrom(c1)) {
                return type2;
            }
            if (c1.isInterface() || c2.isInterface()) {
                return "java/lang/Object";
            }
            do {
                c1 = c1.getSuperclass();
            } while (!c1.isAssignableFrom(c2));
            return c1.getName().replace('.', '/');
        }
    }

    // ======================================================================================
    // Matrix's TraceMethod
    // ======================================================================================

    static final class TraceMethod {
        int id;
        int accessFlag;
        String className;
        String methodName;
        String desc;

        static TraceMethod create(int id, int accessFlag, String className, String methodName, String desc) {
            TraceMethod m = new TraceMethod();
            m.id = id;
            m.accessFlag = accessFlag;
            m.className = className.replace("/", ".");
            m.methodName = methodName;
            m.desc = desc.replace("/", ".");
            return m;
        }

        boolean isNativeMethod() {
            return (accessFlag & Opcodes.ACC_NATIVE) != 0;
        }

        String getMethodName() {
            if (desc == null || isNativeMethod()) {
                return className + "." + methodName;
            }
            return className + "." + methodName + "." + desc;
        }

        @Override
        public String toString() {
            if (desc == null || isNativeMethod()) {
                return id + "," + accessFlag + "," + className + " " + methodName;
            }
            return id + "," + accessFlag + "," + className + " " + methodName + " " + desc;
        }

        String toIgnoreString() {
            if (desc == null || isNativeMethod()) {
                return className + " " + methodName;
            }
            return className + " " + methodName + " " + desc;
        }

        /** obfuscated -> original (Matrix: TraceMethod.revert). */
        void revert(ProguardMapping p) {
            ProguardMapping.MethodInfo mi = p.originalMethodInfo(className, methodName, desc);
            methodName = mi.originalName;
            desc = mi.desc;
            className = p.originalClassName(className, className);
        }

        /** original -> obfuscated (Matrix: TraceMethod.proguard). */
        void proguard(ProguardMapping p) {
            ProguardMapping.MethodInfo mi = p.obfuscatedMethodInfo(className, methodName, desc);
            methodName = mi.originalName;
            desc = mi.desc;
            className = p.proguardClassName(className, className);
        }
    }

    // ======================================================================================
    // ProGuard mapping (behaviour of Matrix's MappingReader + MappingCollector)
    // ======================================================================================

    static final class ProguardMapping {
        final HashMap<String, String> obfToRaw = new HashMap<>();
        final HashMap<String, String> rawToObf = new HashMap<>();
        final HashMap<String, String> rawToObfPackage = new HashMap<>();
        final Map<String, Map<String, Set<MethodInfo>>> obfClassMethods = new HashMap<>();
        final Map<String, Map<String, Set<MethodInfo>>> rawClassMethods = new HashMap<>();

        static final class MethodInfo {
            String originalType;
            String originalArguments;
            String originalName;
            String desc;

            MethodInfo(String type, String name, String args) {
                originalType = type;
                originalName = name;
                originalArguments = args;
            }

            MethodInfo(MethodInfo o) {
                this(o.originalType, o.originalName, o.originalArguments);
                desc = o.desc;
            }

            boolean matches(String type, String args) {
                return (type == null || type.equals(originalType))
                        && (args == null || args.equals(originalArguments));
            }
        }

        void read(File f) throws IOException {
            try (BufferedReader r = Files.newBufferedReader(f.toPath(), StandardCharsets.UTF_8)) {
                String className = null;
                String line;
                while ((line = r.readLine()) != null) {
                    line = line.trim();
                    if (line.startsWith("#")) {
                        continue;
                    }
                    if (line.endsWith(":")) {
                        className = parseClassMapping(line);
                    } else if (className != null) {
                        parseMemberMapping(className, line);
                    }
                }
            }
        }

        private String parseClassMapping(String line) {
            int arrow = line.indexOf("->");
            if (arrow < 0) {
                return null;
            }
            int colon = line.indexOf(':', arrow + 2);
            if (colon < 0) {
                return null;
            }
            String raw = line.substring(0, arrow).trim();
            String obf = line.substring(arrow + 2, colon).trim();
            obfToRaw.put(obf, raw);
            rawToObf.put(raw, obf);
            int a = raw.lastIndexOf('.');
            int b = obf.lastIndexOf('.');
            if (a > 0 && b > 0) {
                rawToObfPackage.put(raw.substring(0, a), obf.substring(0, b));
            }
            return raw;
        }

        // "[a:b:]type name[(args)][:c:d] -> newName", Matrix's index arithmetic.
        private void parseMemberMapping(String className, String line) {
            int c1 = line.indexOf(':');
            int c2 = c1 < 0 ? -1 : line.indexOf(':', c1 + 1);
            int space = line.indexOf(' ', c2 + 2);
            int lp = line.indexOf('(', space + 1);
            int rp = lp < 0 ? -1 : line.indexOf(')', lp + 1);
            int c3 = rp < 0 ? -1 : line.indexOf(':', rp + 1);
            int c4 = c3 < 0 ? -1 : line.indexOf(':', c3 + 1);
            int arrow = line.indexOf("->", (c4 >= 0 ? c4 : c3 >= 0 ? c3 : rp >= 0 ? rp : space) + 1);
            if (space < 0 || arrow < 0) {
                return;
            }
            String type = line.substring(c2 + 1, space).trim();
            String name = line.substring(space + 1, lp >= 0 ? lp : arrow).trim();
            String newName = line.substring(arrow + 2).trim();
            int dot = name.lastIndexOf('.');
            if (dot >= 0) {
                className = name.substring(0, dot);
                name = name.substring(dot + 1);
            }
            if (type.length() > 0 && name.length() > 0 && newName.length() > 0 && rp >= 0) {
                String args = line.substring(lp + 1, rp).trim();
                String newClassName = rawToObf.get(className);
                obfClassMethods.computeIfAbsent(newClassName, k -> new HashMap<>())
                        .computeIfAbsent(newName, k -> new LinkedHashSet<>())
                        .add(new MethodInfo(type, name, args));
                rawClassMethods.computeIfAbsent(className, k -> new HashMap<>())
                        .computeIfAbsent(name, k -> new LinkedHashSet<>())
                        .add(new MethodInfo(type, newName, args));
            }
        }

        String originalClassName(String obf, String dflt) {
            String r = obfToRaw.get(obf);
            return r != null ? r : dflt;
        }

        String proguardClassName(String raw, String dflt) {
            String r = rawToObf.get(raw);
            return r != null ? r : dflt;
        }

        String proguardPackageName(String raw, String dflt) {
            String r = rawToObfPackage.get(raw);
            return r != null ? r : dflt;
        }

        MethodInfo originalMethodInfo(String obfClass, String obfName, String obfDesc) {
            String[] d = parseMethodDesc(obfDesc, false);
            Map<String, Set<MethodInfo>> byName = obfClassMethods.get(obfClass);
            if (byName != null) {
                Set<MethodInfo> set = byName.get(obfName);
                if (set != null) {
                    for (MethodInfo mi : set) {
                        if (mi.matches(d[2], d[1])) {
                            MethodInfo r = new MethodInfo(mi);
                            r.desc = d[0];
                            return r;
                        }
                    }
                }
            }
            MethodInfo r = new MethodInfo("", obfName, "");
            r.desc = d[0];
            return r;
        }

        MethodInfo obfuscatedMethodInfo(String rawClass, String rawName, String rawDesc) {
            String[] d = parseMethodDesc(rawDesc, true);
            Map<String, Set<MethodInfo>> byName = rawClassMethods.get(rawClass);
            if (byName != null) {
                Set<MethodInfo> set = byName.get(rawName);
                if (set != null) {
                    for (MethodInfo mi : set) {
                        MethodInfo r = new MethodInfo(mi);
                        obfuscateTypes(r);
                        if (r.matches(d[2], d[1])) {
                            r.desc = d[0];
                            return r;
                        }
                    }
                }
            }
            MethodInfo r = new MethodInfo("", rawName, "");
            r.desc = d[0];
            return r;
        }

        private void obfuscateTypes(MethodInfo mi) {
            StringBuilder sb = new StringBuilder();
            for (String s : mi.originalArguments.split(",")) {
                String key = s.replace("[", "").replace("]", "");
                String o = rawToObf.get(key);
                sb.append(o != null ? s.replace(key, o) : s).append(',');
            }
            if (sb.length() > 0) {
                sb.setLength(sb.length() - 1);
            }
            String ret = mi.originalType;
            String key = ret.replace("[", "").replace("]", "");
            String o = rawToObf.get(key);
            if (o != null) {
                ret = ret.replace(key, o);
            }
            mi.originalArguments = sb.toString();
            mi.originalType = ret;
        }

        /** Returns {desc, arguments (java names, comma separated), return type (java name)}. */
        private String[] parseMethodDesc(String desc, boolean rawToObfuscated) {
            HashMap<String, String> map = rawToObfuscated ? rawToObf : obfToRaw;
            Type[] argTypes = Type.getArgumentTypes(desc); // NPE on a null desc, as in Matrix
            StringBuilder args = new StringBuilder();
            StringBuilder d = new StringBuilder("(");
            for (Type t : argTypes) {
                String key = t.getClassName().replace("[", "").replace("]", "");
                String m = map.get(key);
                if (m != null) {
                    args.append(t.getClassName().replace(key, m));
                    d.append(t.toString().replace(key, m));
                } else {
                    args.append(t.getClassName());
                    d.append(t.toString());
                }
                args.append(',');
            }
            d.append(')');
            Type ret;
            try {
                ret = Type.getReturnType(desc);
            } catch (ArrayIndexOutOfBoundsException e) {
                ret = Type.getReturnType(desc + ";");
            }
            String key = ret.getClassName().replace("[", "").replace("]", "");
            String m = map.get(key);
            String retName;
            if (m != null) {
                retName = ret.getClassName().replace(key, m);
                d.append(ret.toString().replace(key, m));
            } else {
                retName = ret.getClassName();
                d.append(ret.toString());
            }
            if (args.length() > 0) {
                args.setLength(args.length() - 1);
            }
            return new String[] {d.toString(), args.toString(), retName};
        }
    }
}
