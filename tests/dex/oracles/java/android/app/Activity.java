package android.app;

/** Stand-in for the framework's Activity: the probe stubs' at(Activity, boolean) needs the type. */
public class Activity {
	public void onWindowFocusChanged(boolean hasFocus) {
	}
}
