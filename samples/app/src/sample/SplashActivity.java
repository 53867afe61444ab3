package sample;

import android.app.Activity;

/** The splash screen: it declares onWindowFocusChanged, so tc-instrument adds
 *  AppMethodBeat.at() right after the method's own i(). */
public class SplashActivity extends Activity {
    private boolean shown;

    void create() {
        Theme.apply(this);
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        shown = hasFocus;
        Log.d("splash focus " + shown);
    }
}
