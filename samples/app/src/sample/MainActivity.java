package sample;

import android.app.Activity;

/** The main screen. It does not declare onWindowFocusChanged: tc-instrument adds one
 *  that calls the super class's and then AppMethodBeat.at(). */
public class MainActivity extends Activity {
    private final Catalog catalog;
    private int shown;

    public MainActivity(Catalog catalog) {
        this.catalog = catalog;
    }

    void create() {
        Theme.apply(this);
        render(catalog.search("item-1", 20));
    }

    /** Handles a tap on "refresh": far too slow for the main thread (about 800 ms),
     *  mostly in one spot the report should point at. */
    void onRefresh() {
        for (int round = 0; round < 3; round++) {
            catalog.load(4_000);
            render(catalog.search("item-2", 50));
        }
        decodeBanner();
    }

    /** Pull to reload: a small catalog, a message of its own (the short runs of
     *  tests/samples/compare.sh, -Dsample.reloads=N). */
    void onReload() {
        catalog.load(200);
    }

    /** Decoding a large image on the main thread: the slow part of a refresh. */
    void decodeBanner() {
        Work.spin(Math.max(0, 800 - Work.elapsedSince(refreshStart)));
    }

    private long refreshStart;

    void beginRefresh() {
        refreshStart = System.nanoTime();
        onRefresh();
    }

    /** A sync that never yields: long enough for a lag report at 2 s and an ANR at 5 s. */
    void onSync() {
        Work.spin(5_300);
    }

    void render(java.util.List<Product> items) {
        shown = 0;
        for (Product p : items)
            shown += Theme.measure(p.name);
    }
}
