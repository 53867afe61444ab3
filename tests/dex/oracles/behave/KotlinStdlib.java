import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kotlin.collections.ArraysKt;
import kotlin.collections.CollectionsKt;
import kotlin.collections.MapsKt;
import kotlin.jvm.functions.Function1;
import kotlin.jvm.functions.Function2;
import kotlin.sequences.Sequence;
import kotlin.sequences.SequencesKt;
import kotlin.text.MatchResult;
import kotlin.text.Regex;
import kotlin.text.StringsKt;

/**
 * kotlin-stdlib from the server APK (classes.dex), called from Java: collection
 * operations (sort, distinct, window, chunk, zip, fold, join), strings (split, pad,
 * replace, repeat, trimIndent), Regex (findAll, replace with a lambda, split), lazy
 * sequences (generateSequence, filter, map, take); and exceptions thrown from a lambda
 * through the library and by the library. The enjarified jar has no generic signatures,
 * hence the raw types and casts.
 */
@SuppressWarnings({ "rawtypes", "unchecked" })
public final class KotlinStdlib {
	static Function1 f1(java.util.function.Function<Object, Object> f) {
		return f::apply;
	}

	static Function2 f2(java.util.function.BiFunction<Object, Object, Object> f) {
		return f::apply;
	}

	public static void main(String[] args) {
		List words = StringsKt.split("the quick brown fox jumps over the lazy dog again and again",
				new String[] { " " }, false, 0);
		System.out.println("words " + words);
		java.util.Comparator byLenThenAlpha = (a, b) -> ((String) a).length() != ((String) b).length()
				? Integer.compare(((String) a).length(), ((String) b).length()) : ((String) a).compareTo((String) b);
		System.out.println("sorted " + CollectionsKt.sortedWith(words, byLenThenAlpha));
		System.out.println("distinct " + CollectionsKt.distinct(words));
		System.out.println("windowed " + CollectionsKt.windowed(words.subList(0, 6), 3, 2, true));
		System.out.println("chunked " + CollectionsKt.chunked(words, 4));
		System.out.println("zip " + CollectionsKt.zip(words.subList(0, 4), CollectionsKt.reversed(words.subList(0, 4))));
		System.out.println("joined " + CollectionsKt.joinToString(words, "+", "<", ">", 5, "...",
				f1(w -> StringsKt.capitalize((String) w))));
		int[] nums = { 5, 3, 9, 1, 7, 3, 8 };
		System.out.println("ints " + ArraysKt.sorted(nums) + " sum=" + ArraysKt.sum(nums) + " max="
				+ ArraysKt.maxOrNull(nums) + " distinct=" + ArraysKt.distinct(nums));
		System.out.println("fold " + CollectionsKt.fold(Arrays.asList(1, 2, 3, 4, 5), 1L,
				f2((acc, x) -> (Long) acc * 10 + (Integer) x)));
		System.out.println("pad [" + StringsKt.padStart("42", 6, '0') + "] [" + StringsKt.padEnd("ab", 5, '.') + "] "
				+ StringsKt.replace("a-b-c-d", "-", "::", false) + " " + StringsKt.repeat("xy", 3) + " "
				+ StringsKt.substringAfterLast("a/b/c.txt", '/', "none") + " ["
				+ StringsKt.trimIndent("\n   x\n    y\n").replace("\n", "|") + "]");
		Regex re = new Regex("(\\w+)@(\\w+)\\.(com|org)");
		String text = "mail alice@example.com, bob@site.org and carol@nowhere.net";
		for (Object o : SequencesKt.toList(re.findAll(text, 0))) {
			MatchResult m = (MatchResult) o;
			System.out.println("match " + m.getValue() + " groups=" + m.getGroupValues() + " range=" + m.getRange());
		}
		System.out.println("replaced " + re.replace(text, f1(o -> {
			MatchResult m = (MatchResult) o;
			return ((String) m.getGroupValues().get(2)).toUpperCase() + "!" + m.getRange().getFirst();
		})));
		System.out.println("split " + new Regex("[,;]\\s*").split("a, b;c ,d;  e", 0));
		Sequence fib = SequencesKt.map(SequencesKt.generateSequence(new int[] { 0, 1 },
				f1(p -> new int[] { ((int[]) p)[1], ((int[]) p)[0] + ((int[]) p)[1] })), f1(p -> ((int[]) p)[0]));
		System.out.println("fib " + SequencesKt.toList(SequencesKt.take(SequencesKt.filter(fib,
				f1(x -> (Integer) x % 2 == 0)), 12)));
		Sequence lazy = SequencesKt.map(SequencesKt.filter(CollectionsKt.asSequence(words),
				f1(w -> ((String) w).length() > 3)), f1(w -> ((String) w).toUpperCase()));
		System.out.println("lazy " + SequencesKt.toList(lazy));
		Map freq = new TreeMap(MapsKt.toMap(CollectionsKt.zip(words, CollectionsKt.map(words,
				f1(w -> ((String) w).length())))));
		System.out.println("map " + freq);
		try {
			CollectionsKt.map(words, f1(w -> {
				if (w.equals("over"))
					throw new IllegalStateException("stop at " + w);
				return ((String) w).length();
			}));
		} catch (IllegalStateException e) {
			System.out.println("thrown through map: " + e.getMessage());
		}
		try {
			CollectionsKt.first(new ArrayList());
		} catch (java.util.NoSuchElementException e) {
			System.out.println("first of empty: " + e.getMessage());
		}
	}
}
