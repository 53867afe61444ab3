import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.DecimalFormat;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.NumberFormat;
import com.ibm.icu.text.PluralRules;
import com.ibm.icu.text.RuleBasedNumberFormat;
import com.ibm.icu.text.Transliterator;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ICU4J from the server APK (classes.dex, data from the APK's com/ibm/icu/impl/data):
 * normalization, collation, transliteration, break iteration, number and spell-out
 * formatting, plural rules, character properties. Deterministic output only.
 */
public final class IcuText {
	public static void main(String[] args) throws Exception {
		String[] words = { "\u00c4pfel", "apple", "Zebra", "zoo", "\u00d6l", "ober", "\u00c4rger", "arg", "\u00df", "ss",
				"caf\u00e9", "cafe" };
		Normalizer2 nfc = Normalizer2.getNFCInstance(), nfd = Normalizer2.getNFDInstance(),
				nfkc = Normalizer2.getNFKCInstance();
		for (String s : new String[] { "caf\u00e9", "e\u0301", "\ufb01", "\u00c5", "\u2460\u2461", "\u01c4" })
			System.out.println("norm " + esc(s) + " nfc=" + esc(nfc.normalize(s)) + " nfd=" + esc(nfd.normalize(s))
					+ " nfkc=" + esc(nfkc.normalize(s)) + " isNFC=" + nfc.isNormalized(s));
		for (String tag : new String[] { "de", "sv", "en", "fr" }) {
			Collator c = Collator.getInstance(new ULocale(tag));
			List<String> l = new ArrayList<>(Arrays.asList(words));
			l.sort(c);
			System.out.println("collate " + tag + " " + esc(l.toString()));
		}
		for (String id : new String[] { "Greek-Latin", "Cyrillic-Latin", "Any-Latin; Latin-ASCII", "Latin-Katakana",
				"Upper", "Hex-Any" }) {
			Transliterator t = Transliterator.getInstance(id);
			String in = id.equals("Hex-Any") ? "\\u0041\\u00DF" : id.equals("Latin-Katakana") ? "tokyo" : "\u0391\u03b8\u03ae\u03bd\u03b1 \u041c\u043e\u0441\u043a\u0432\u0430 \u5317\u4eac \u00dcn\u00efc\u00f6d\u00e9";
			System.out.println("translit " + id + " " + esc(t.transliterate(in)));
		}
		String text = "Mr. Smith went to Washington. He said: \"Hello, world!\" Then he left... 3.14 is pi.";
		for (int kind = 0; kind < 3; kind++) {
			BreakIterator b = kind == 0 ? BreakIterator.getWordInstance(ULocale.ENGLISH)
					: kind == 1 ? BreakIterator.getSentenceInstance(ULocale.ENGLISH)
							: BreakIterator.getLineInstance(ULocale.ENGLISH);
			b.setText(text);
			StringBuilder sb = new StringBuilder();
			for (int p = b.first(); p != BreakIterator.DONE; p = b.next())
				sb.append(p).append(' ');
			System.out.println("break " + kind + " " + sb.toString().trim());
		}
		double[] nums = { 0, 1, 2.5, -1234567.891, 1e-7, 1e21 };
		for (String tag : new String[] { "en_US", "de_DE", "fr_FR", "ar_EG", "hi_IN", "ja_JP" }) {
			ULocale loc = new ULocale(tag);
			NumberFormat nf = NumberFormat.getInstance(loc), cur = NumberFormat.getCurrencyInstance(loc),
					pct = NumberFormat.getPercentInstance(loc);
			StringBuilder sb = new StringBuilder("number " + tag);
			for (double d : nums)
				sb.append(" | ").append(esc(nf.format(d)));
			sb.append(" | ").append(esc(cur.format(1234.5))).append(" | ").append(esc(pct.format(0.256)));
			System.out.println(sb);
			RuleBasedNumberFormat spell = new RuleBasedNumberFormat(loc, RuleBasedNumberFormat.SPELLOUT);
			System.out.println("spell " + tag + " " + esc(spell.format(1999)) + " / " + esc(spell.format(-42)));
			PluralRules pr = PluralRules.forLocale(loc);
			System.out.println("plural " + tag + " 0=" + pr.select(0) + " 1=" + pr.select(1) + " 2=" + pr.select(2)
					+ " 5=" + pr.select(5) + " 1.5=" + pr.select(1.5));
		}
		DecimalFormat df = new DecimalFormat("#,##0.00;(#,##0.00)");
		System.out.println("pattern " + df.format(-9876.545) + " " + df.parse("(1,234.50)"));
		for (int cp : new int[] { 'A', 0x00DF, 0x0391, 0x05D0, 0x4E2D, 0x1F600 })
			System.out.println("char U+" + Integer.toHexString(cp) + " " + UCharacter.getName(cp) + " upper="
					+ esc(UCharacter.toUpperCase(new String(Character.toChars(cp)))) + " type=" + UCharacter.getType(cp)
					+ " script=" + UCharacter.getIntPropertyValue(cp, com.ibm.icu.lang.UProperty.SCRIPT));
	}

	/** Non-ASCII as \\uXXXX so that the output does not depend on the console encoding. */
	static String esc(String s) {
		StringBuilder b = new StringBuilder();
		for (char c : s.toCharArray())
			if (c >= 0x20 && c < 0x7f)
				b.append(c);
			else
				b.append(String.format("\\u%04x", (int) c));
		return b.toString();
	}
}
