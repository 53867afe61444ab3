/*@expect activity_focus_traced
  An Activity (a direct subclass of the android.app.Activity stub) with a traced
  onWindowFocusChanged: at(this, hasFocus) comes right after its i(); when the method throws,
  it still leaves by o(). Looping's method loops back to its first instruction: i and at run
  once per call, not once per iteration.

thread s:FocusTraced
i FocusTraced.run()V
  i FocusTraced.onWindowFocusChanged(Z)V
  at FocusTraced.onWindowFocusChanged(Z)V FocusTraced true
  o FocusTraced.onWindowFocusChanged(Z)V
  i FocusTraced.onWindowFocusChanged(Z)V
  at FocusTraced.onWindowFocusChanged(Z)V FocusTraced false
  o FocusTraced.onWindowFocusChanged(Z)V
  i FocusTraced.onWindowFocusChanged(Z)V
  at FocusTraced.onWindowFocusChanged(Z)V FocusTraced true
  o FocusTraced.onWindowFocusChanged(Z)V
  i FocusTraced$Looping.onWindowFocusChanged(Z)V
  at FocusTraced$Looping.onWindowFocusChanged(Z)V FocusTraced$Looping true
    i FocusTraced$Looping.tick()V
    o FocusTraced$Looping.tick()V
    i FocusTraced$Looping.tick()V
    o FocusTraced$Looping.tick()V
  o FocusTraced$Looping.onWindowFocusChanged(Z)V
o FocusTraced.run()V
*/
import android.app.Activity;

public class FocusTraced extends Activity {
    int changes;

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        changes++;
        if (changes == 3) {
            throw new IllegalStateException("third focus change refused");
        }
        Out.p(getClass().getName() + ": FocusTraced.onWindowFocusChanged " + hasFocus);
    }

    static class Looping extends Activity {
        int n;

        void tick() {
            Out.p("Looping.tick " + n);
        }

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            while (true) {
                if (++n > 2) {
                    return;
                }
                tick();
            }
        }
    }

    public static void run() {
        FocusTraced a = new FocusTraced();
        a.onWindowFocusChanged(true);
        a.onWindowFocusChanged(false);
        try {
            a.onWindowFocusChanged(true);
        } catch (IllegalStateException e) {
            Out.p("caught " + e.getMessage());
        }
        new Looping().onWindowFocusChanged(true);
    }
}
