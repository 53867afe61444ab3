package s;
import android.app.Activity;
public class PlainActivity extends Activity {
  protected void onResume() { System.out.println("resume " + this); }
}
