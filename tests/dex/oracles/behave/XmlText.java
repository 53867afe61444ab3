import java.io.StringReader;
import net.gcardone.junidecode.Junidecode;
import org.apache.xerces.parsers.DOMParser;
import org.apache.xerces.parsers.SAXParser;
import org.w3c.dom.Document;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Xerces-J and junidecode from the server APK (classes16.dex): DOM parsing of a document
 * with an internal DTD, entities, namespaces, CDATA and comments, printed as a tree; SAX
 * parsing with a handler; a malformed document (the exception travels through the
 * scanner's stack); and transliteration to ASCII of several scripts.
 */
public final class XmlText {
	static final String XML = "<?xml version='1.0'?>\n"
			+ "<!DOCTYPE book [<!ENTITY auth 'J. Doe'><!ATTLIST chapter n CDATA '0'>]>\n"
			+ "<book xmlns='urn:b' xmlns:x='urn:x' lang='en'>\n"
			+ "  <title>On &amp; off &auth;</title>\n"
			+ "  <chapter n='1'><x:p>first <![CDATA[<raw> & stuff]]></x:p><!-- note --></chapter>\n"
			+ "  <chapter><x:p>second &#x263A; &#65;</x:p><empty/></chapter>\n"
			+ "</book>\n";

	public static void main(String[] args) throws Exception {
		DOMParser dom = new DOMParser();
		dom.setFeature("http://xml.org/sax/features/namespaces", true);
		dom.parse(new InputSource(new StringReader(XML)));
		Document doc = dom.getDocument();
		print(doc.getDocumentElement(), "");
		SAXParser sax = new SAXParser();
		StringBuilder events = new StringBuilder();
		sax.setContentHandler(new DefaultHandler() {
			@Override
			public void startElement(String uri, String local, String q, Attributes atts) {
				events.append('<').append(q).append(' ').append(atts.getLength());
			}

			@Override
			public void endElement(String uri, String local, String q) {
				events.append('>');
			}
		});
		sax.parse(new InputSource(new StringReader(XML)));
		System.out.println("sax " + events);
		for (String bad : new String[] { "<a><b></a>", "<a x='1' x='2'/>", "<a>&undefined;</a>", "" }) {
			try {
				new DOMParser().parse(new InputSource(new StringReader(bad)));
				System.out.println("accepted " + bad);
			} catch (Exception e) { // the enjarified jar declares no throws clauses
				if (e instanceof SAXParseException)
					System.out.println("rejected [" + bad + "] line " + ((SAXParseException) e).getLineNumber() + ": "
							+ e.getMessage());
				else if (e instanceof SAXException)
					System.out.println("rejected [" + bad + "]: " + e.getMessage());
				else
					throw e;
			}
		}
		for (String s : new String[] { "\u041c\u043e\u0441\u043a\u0432\u0430", "\u5317\u4eac\u5e02",
				"\u00c9l\u00e8ve \u00e0 Z\u00fcrich", "\u0391\u03b8\u03ae\u03bd\u03b1", "\ud55c\uad6d\uc5b4",
				"\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\u263a\u2603" })
			System.out.println("unidecode " + Junidecode.unidecode(s));
	}

	static void print(Node n, String indent) {
		StringBuilder b = new StringBuilder(indent).append(n.getNodeType()).append(' ').append(n.getNodeName());
		if (n.getNamespaceURI() != null)
			b.append(" {").append(n.getNamespaceURI()).append('}');
		NamedNodeMap atts = n.getAttributes();
		if (atts != null)
			for (int i = 0; i < atts.getLength(); i++)
				b.append(' ').append(atts.item(i).getNodeName()).append('=').append(atts.item(i).getNodeValue());
		if (n.getNodeValue() != null)
			b.append(" [").append(n.getNodeValue().replace("\n", "\\n").replace("\u263a", "\\u263a")).append(']');
		System.out.println(b);
		for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling())
			print(c, indent + "  ");
	}
}
