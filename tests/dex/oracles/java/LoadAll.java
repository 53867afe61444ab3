import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Loads, links (verifies) and initializes every class of the given jars with
 * Class.forName(name, true, loader), the jars and the probe stub being on the class path,
 * and writes one line per class: {@code jar<TAB>class<TAB>status<TAB>detail}.
 *
 * Status: ok; verify (VerifyError: HotSpot's verifier, run with -Xverify:all, rejected the
 * class or one it needed); format (ClassFormatError and subclasses); nodef
 * (NoClassDefFoundError: mostly the absent Android framework, or a class whose
 * initializer failed before); link (any other LinkageError); init
 * (ExceptionInInitializerError: the class verified, its static initializer threw); other.
 *
 * Jars are walked in the order given and entries in name order, so two runs over the same
 * classes see the same cascade of failures and the same order of static initializers. A
 * jar given as {@code PATH@M} contributes only the classes of enjar.py's sample 1/M. Static initializers may print, start threads
 * or never return: the caller bounds the run with a timeout, and this program ends with
 * Runtime.halt once the report is written (its last line is "# done").
 *
 * usage: java -Xverify:all -cp STUB:JARS:LoadAll_dir LoadAll REPORT.tsv JAR[@M]...
 */
public final class LoadAll {
	public static void main(String[] args) throws IOException {
		ClassLoader loader = ClassLoader.getSystemClassLoader();
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Paths.get(args[0]), StandardCharsets.UTF_8))) {
			for (int j = 1; j < args.length; j++) {
				String jar = args[j];
				long sample = 1;
				int at = jar.lastIndexOf('@');
				if (at > 0) {
					sample = Long.parseLong(jar.substring(at + 1));
					jar = jar.substring(0, at);
				}
				List<String> names = new ArrayList<>();
				try (ZipFile z = new ZipFile(jar)) {
					for (ZipEntry e : Collections.list(z.entries())) {
						String n = e.getName();
						if (n.endsWith(".class") && !e.isDirectory() && inSample(n.substring(0, n.length() - 6), sample))
							names.add(n.substring(0, n.length() - 6).replace('/', '.'));
					}
				}
				Collections.sort(names);
				for (String n : names) {
					String status, detail = "";
					try {
						Class.forName(n, true, loader);
						status = "ok";
					} catch (VerifyError e) {
						status = "verify";
						detail = String.valueOf(e.getMessage());
					} catch (ClassFormatError e) {
						status = "format";
						detail = e.toString();
					} catch (NoClassDefFoundError e) {
						status = "nodef";
						detail = String.valueOf(e.getMessage());
					} catch (LinkageError e) {
						status = e instanceof ExceptionInInitializerError ? "init" : "link";
						Throwable c = e.getCause() != null ? e.getCause() : e;
						detail = c.toString();
					} catch (Throwable e) {
						status = "other";
						detail = e.toString();
					}
					out.println(jar + "\t" + n + "\t" + status + "\t"
							+ detail.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
				}
				out.flush();
			}
			out.println("# done");
		}
		Runtime.getRuntime().halt(0);
	}

	/** The sample of enjar.py --sample M: zlib.crc32(internal name) % M == 0. */
	static boolean inSample(String internalName, long m) {
		if (m <= 1)
			return true;
		CRC32 c = new CRC32();
		c.update(internalName.getBytes(StandardCharsets.UTF_8));
		return c.getValue() % m == 0;
	}
}
