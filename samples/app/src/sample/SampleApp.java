package sample;

import android.app.Application;

import com.tencent.matrix.trace.android.AndroidTracing;
import com.tencent.matrix.trace.core.TraceCanary;

/**
 * The application: installs tracing in onCreate, as an app does with Matrix, then does
 * some start-up work of its own (traced, since tc-instrument instruments this class).
 */
public class SampleApp extends Application {
    private final Catalog catalog = new Catalog();

    @Override
    public void onCreate() {
        super.onCreate();
        TraceCanary.Config c = new TraceCanary.Config();
        c.libraryPath(System.getProperty("tc.lib"));
        c.reportPath = System.getProperty("tc.reports");
        c.bufferPath = System.getProperty("tc.ring");
        c.fpsSliceMs = 1_000; // frame windows of a second (10 by default): the run scrolls for two
        AndroidTracing.install(this, c, (tag, key, json) ->
                System.out.println("report " + tag + " " + key));
        catalog.load(2_000);
    }

    Catalog catalog() {
        return catalog;
    }
}
