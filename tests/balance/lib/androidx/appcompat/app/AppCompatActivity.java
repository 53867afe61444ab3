package androidx.appcompat.app;

import android.app.Activity;

/** Stub of one of Matrix's Activity roots (the real one extends FragmentActivity). */
public class AppCompatActivity extends Activity {
}
