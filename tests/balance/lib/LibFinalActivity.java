import android.app.Activity;

/** A class-path-only Activity whose onWindowFocusChanged is final: subclasses in the input
 *  must not get one added (the class would fail to load). */
public class LibFinalActivity extends Activity {
    @Override
    public final void onWindowFocusChanged(boolean hasFocus) {
        Out.p("LibFinalActivity.onWindowFocusChanged " + hasFocus);
    }
}
