package sample;

import android.app.Activity;
import android.os.Handler;
import android.os.Looper;
import android.view.Choreographer;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * Plays the Android framework's part on a plain JVM, with the stub android.* classes:
 * a main looper, the application's creation, two activities launched and focused,
 * frames drawn at 60 Hz, and the user's actions as messages. Not instrumented (it
 * stands for code the app does not own), like the framework on a device.
 *
 * Timeline (seconds): 0 app create, splash; 0.4 main activity; 1 refresh (slow, about
 * 0.8 s: a slow-message report); 2-4 scrolling with janky frames in MainActivity
 * (dropped frames); 4.5 sync (5.3 s: lag and ANR reports); 10.5 done.
 */
public final class Launcher {
    private static Handler main;
    private static SampleApp app;
    private static MainActivity mainActivity;

    public static void main(String[] args) throws Exception {
        Looper.prepareMainLooper();
        main = new Handler(Looper.getMainLooper());
        app = new SampleApp();
        main.post(app::onCreate);
        main.post(() -> {
            SplashActivity splash = new SplashActivity();
            show(splash, splash::create);
            main.postDelayed(() -> {
                splash.onWindowFocusChanged(false);
                mainActivity = new MainActivity(app.catalog());
                show(mainActivity, mainActivity::create);
                app.dispatchActivityStopped(splash);
                app.dispatchActivityDestroyed(splash);
                // posted from here, not at start: on a loaded machine onCreate can outlast
                // the first delays, and the main activity must exist before they run
                if (RELOADS > 0) { /* a short run: the start-up, N reloads, the end */
                    for (int i = 0; i < RELOADS; i++)
                        main.post(() -> mainActivity.onReload());
                    main.post(Launcher::quit);
                    return;
                }
                main.postDelayed(() -> mainActivity.beginRefresh(), 600);  /* ~1,000 ms */
                main.postDelayed(Launcher::scroll, 1_600);                 /* ~2,000 ms */
                main.postDelayed(() -> mainActivity.onSync(), 4_100);      /* ~4,500 ms */
            }, 400);
        });
        if (RELOADS == 0)
            main.postDelayed(Launcher::quit, 11_500);
        Looper.loop();
        TraceCanary.release();
        System.out.println("sample: done");
    }

    /** -Dsample.reloads=N: a short run (about a second) of the start-up and N reloads
     *  of the catalog, each a message, then the end (tests/samples/compare.sh records
     *  several per build); 0, the default: the whole timeline above. */
    private static final int RELOADS = Integer.getInteger("sample.reloads", 0);

    private static void quit() {
        if (Catalog.slowedNs > 0)
            System.out.println("sample: slowLoadMs spun " + Catalog.slowedNs + " ns");
        TraceCanary.stop();
        Looper.getMainLooper().quit();
    }

    /** Creates an activity the way ActivityThread does, then gives it window focus. */
    private static void show(Activity a, Runnable create) {
        app.dispatchActivityCreated(a);
        create.run();
        app.dispatchActivityStarted(a);
        app.dispatchActivityResumed(a);
        a.onWindowFocusChanged(true);
    }

    /** Two seconds of scrolling: every frame renders a page of the catalog; every
     *  fifth frame also decodes an image on the main thread, which drops frames. */
    private static void scroll() {
        long until = System.nanoTime() + 2_000_000_000L;
        java.util.List<Product> page = app.catalog().search("item-1", 30);
        Choreographer.FrameCallback frame = new Choreographer.FrameCallback() {
            private int n;

            @Override
            public void doFrame(long frameTimeNanos) {
                mainActivity.render(page);
                if (++n % 5 == 0)
                    Work.spin(40 + (n % 3) * 60); /* 40, 100 or 160 ms */
                if (System.nanoTime() < until)
                    Choreographer.getInstance().postFrameCallback(this);
            }
        };
        Choreographer.getInstance().postFrameCallback(frame);
    }
}
