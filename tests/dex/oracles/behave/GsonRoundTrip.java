import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gson from the server APK (classes.dex): reflective round trips of nested objects,
 * generic collections through TypeToken, the tree model, pretty printing, and a
 * malformed document (the exception travels through Gson's reader and adapters).
 */
public final class GsonRoundTrip {
	static final class Point {
		int x, y;
		String label;
		Point() {
		}
		Point(int x, int y, String label) {
			this.x = x;
			this.y = y;
			this.label = label;
		}
	}

	static final class Shape {
		String name;
		List<Point> points = new ArrayList<>();
		Map<String, Double> attrs = new LinkedHashMap<>();
		Shape child;
		int[] weights;
		boolean closed;
	}

	static List<Map<String, List<Integer>>> generic;

	public static void main(String[] args) throws Exception {
		Gson gson = new GsonBuilder().serializeNulls().create();
		Shape s = build(4);
		String json = gson.toJson(s);
		System.out.println(json);
		Shape back = (Shape) gson.fromJson(json, Shape.class);
		System.out.println("same after round trip: " + gson.toJson(back).equals(json));
		System.out.println(new GsonBuilder().setPrettyPrinting().create().toJson(back.child.child));
		generic = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			Map<String, List<Integer>> m = new LinkedHashMap<>();
			for (int j = 0; j <= i; j++) {
				List<Integer> l = new ArrayList<>();
				for (int k = 0; k < j + 2; k++)
					l.add(i * 100 + j * 10 + k);
				m.put("k" + j, l);
			}
			generic.add(m);
		}
		String g = gson.toJson(generic);
		// The enjarified jar has no generic signatures: take the type from a field of ours.
		Object g2 = gson.fromJson(g, GsonRoundTrip.class.getDeclaredField("generic").getGenericType());
		System.out.println(g + " -> " + g2 + " " + g2.equals(generic));
		JsonElement tree = JsonParser.parseString("{\"a\":[1,2.5,\"x\",null,{\"b\":true}],\"c\":{\"d\":-3e2}}");
		System.out.println("tree " + tree + " a.size=" + tree.getAsJsonObject().get("a").getAsJsonArray().size()
				+ " c.d=" + tree.getAsJsonObject().getAsJsonObject("c").get("d").getAsDouble());
		for (String bad : new String[] { "{\"x\": 1, \"y\": }", "[1, 2", "{\"points\": 5}" }) {
			try {
				gson.fromJson(bad, Shape.class);
				System.out.println("parsed " + bad);
			} catch (JsonSyntaxException e) {
				System.out.println("rejected " + bad + ": " + e.getClass().getSimpleName());
			}
		}
	}

	static Shape build(int depth) {
		Shape s = new Shape();
		s.name = "shape\"" + depth + "\u00e9";
		for (int i = 0; i < depth; i++)
			s.points.add(new Point(i, -i * depth, i % 2 == 0 ? "p" + i : null));
		s.attrs.put("area", depth * 1.5);
		s.attrs.put("ratio", 1.0 / (depth + 1));
		s.weights = new int[depth];
		for (int i = 0; i < depth; i++)
			s.weights[i] = i * i;
		s.closed = depth % 2 == 0;
		s.child = depth > 0 ? build(depth - 1) : null;
		return s;
	}
}
