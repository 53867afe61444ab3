import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/* Loads and links every class of a jar (run with -Xverify:all), printing one line per
 * class that fails; VerifyError counts apart from other failures. usage: LoadAll JAR DIR */
public class LoadAll {
	public static void main(String[] args) throws Exception {
		URLClassLoader loader = new URLClassLoader(new URL[] {
			new File(args[0]).toURI().toURL(), new File(args[1]).toURI().toURL()});
		int ok = 0, verify = 0, other = 0;
		try (JarFile jar = new JarFile(args[0])) {
			for (JarEntry e : Collections.list(jar.entries())) {
				if (!e.getName().endsWith(".class"))
					continue;
				String name = e.getName().replace('/', '.').replaceAll("\\.class$", "");
				try {
					Class.forName(name, true, loader);
					ok++;
				} catch (VerifyError err) {
					verify++;
					System.out.println("VerifyError " + name + ": " + err.getMessage());
				} catch (Throwable t) {
					other++;
					System.out.println("other " + name + ": " + t);
				}
			}
		}
		System.out.println(ok + " loaded, " + verify + " VerifyError, " + other + " other");
	}
}
