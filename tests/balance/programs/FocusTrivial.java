/*@expect quirk_empty_focus_method_gets_at
  An Activity whose onWindowFocusChanged is trivial (empty, a plain field store, no call, a
  call-free loop back to its first instruction) is not traced by the filters, but still gets
  at(this, hasFocus), once per call (Matrix injected at() only into traced methods, so such
  Activities reported nothing).

thread s:FocusTrivial
i FocusTrivial.run()V
  at FocusTrivial.onWindowFocusChanged(Z)V FocusTrivial true
  at FocusTrivial$Setter.onWindowFocusChanged(Z)V FocusTrivial$Setter true
  at FocusTrivial$Setter.onWindowFocusChanged(Z)V FocusTrivial$Setter false
  at FocusTrivial$NoCall.onWindowFocusChanged(Z)V FocusTrivial$NoCall true
  at FocusTrivial$Loop.onWindowFocusChanged(Z)V FocusTrivial$Loop false
o FocusTrivial.run()V
*/
import android.app.Activity;

public class FocusTrivial extends Activity {
    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
    }

    static class Setter extends Activity {
        boolean focused;

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            focused = hasFocus;
        }
    }

    static class NoCall extends Activity {
        int balance;

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            if (hasFocus) {
                balance++;
            } else {
                balance--;
            }
        }
    }

    static class Loop extends Activity {
        int spins;

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            while (true) {
                if (++spins >= 3) {
                    return;
                }
            }
        }
    }

    public static void run() {
        new FocusTrivial().onWindowFocusChanged(true);
        Setter s = new Setter();
        s.onWindowFocusChanged(true);
        s.onWindowFocusChanged(false);
        NoCall n = new NoCall();
        n.onWindowFocusChanged(true);
        Loop l = new Loop();
        l.onWindowFocusChanged(false);
        Out.p("Setter.focused = " + s.focused + ", NoCall.balance = " + n.balance + ", Loop.spins = " + l.spins);
    }
}
