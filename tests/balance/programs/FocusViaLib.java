/*@expect activity_found_through_classpath
  Activities found through classes that are not part of the input but on --classpath
  (LibActivity) or are one of Matrix's roots (androidx AppCompatActivity): FocusViaLib gets the
  method added (LibActivity's own, not instrumented, prints); Compat's own method is traced with
  at(). A class that is no Activity gets no at() in its onWindowFocusChanged(Z)V.

thread s:FocusViaLib
i FocusViaLib.run()V
  at FocusViaLib.onWindowFocusChanged(Z)V FocusViaLib true
  i FocusViaLib$Compat.onWindowFocusChanged(Z)V
  at FocusViaLib$Compat.onWindowFocusChanged(Z)V FocusViaLib$Compat false
  o FocusViaLib$Compat.onWindowFocusChanged(Z)V
  i FocusViaLib$NotActivity.onWindowFocusChanged(Z)V
  o FocusViaLib$NotActivity.onWindowFocusChanged(Z)V
o FocusViaLib.run()V
*/
import androidx.appcompat.app.AppCompatActivity;

public class FocusViaLib extends LibActivity {
    static class Compat extends AppCompatActivity {
        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            super.onWindowFocusChanged(hasFocus);
            Out.p("Compat.onWindowFocusChanged " + hasFocus);
        }
    }

    static class NotActivity {
        public void onWindowFocusChanged(boolean hasFocus) {
            Out.p("NotActivity.onWindowFocusChanged " + hasFocus);
        }
    }

    public static void run() {
        new FocusViaLib().onWindowFocusChanged(true);
        new Compat().onWindowFocusChanged(false);
        new NotActivity().onWindowFocusChanged(true);
    }
}
