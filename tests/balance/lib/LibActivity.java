import android.app.Activity;

/** An Activity known to tc-instrument only through --classpath (never instrumented). */
public class LibActivity extends Activity {
    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        Out.p("LibActivity.onWindowFocusChanged " + hasFocus);
    }
}
