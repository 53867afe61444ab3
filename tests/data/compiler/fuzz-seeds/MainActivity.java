package s;
import android.app.Activity;
import android.os.Bundle;
public class MainActivity extends Activity {
  private int n;
  protected void onCreate(Bundle b) { n = b == null ? 0 : 1; System.out.println(n); }
  public void onWindowFocusChanged(boolean hasFocus) { if (hasFocus) System.out.println("focus"); }
}
