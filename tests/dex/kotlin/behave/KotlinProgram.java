/**
 * The behaviour driver of tests/dex/kotlin (oracles.sh --behave): runs the Kotlin
 * program (src/tc/kt/Main.kt) from its enjarify translation. Kotlin compiles a
 * parameterless `fun main()` to MainKt.main()V, with a synthetic main(String[]) bridge
 * that javac cannot call.
 */
public final class KotlinProgram {
	public static void main(String[] args) {
		tc.kt.MainKt.main();
	}
}
