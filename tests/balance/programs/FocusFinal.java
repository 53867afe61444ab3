/*@expect quirk_no_override_of_final_focus
  A base Activity in the input declaring onWindowFocusChanged final: its subclass gets no
  method added (a JVM refuses to load a class overriding a final method: Matrix added one) and
  still loads; the final method itself is traced and gets at(). The same below an abstract
  Activity with a final method (abstract classes are skipped: that method has neither i/o nor
  at(), and nothing is added to the concrete subclass).

thread s:FocusFinal
i FocusFinal.run()V
  i FocusFinal.onWindowFocusChanged(Z)V
  at FocusFinal.onWindowFocusChanged(Z)V FocusFinal true
  o FocusFinal.onWindowFocusChanged(Z)V
  i FocusFinal.onWindowFocusChanged(Z)V
  at FocusFinal.onWindowFocusChanged(Z)V FocusFinal$Sub false
  o FocusFinal.onWindowFocusChanged(Z)V
  i FocusFinal$Sub.other()V
  o FocusFinal$Sub.other()V
  i FocusFinal$AfterAbstract.other()V
  o FocusFinal$AfterAbstract.other()V
o FocusFinal.run()V
*/
import android.app.Activity;

public class FocusFinal extends Activity {
    @Override
    public final void onWindowFocusChanged(boolean hasFocus) {
        Out.p("FocusFinal.onWindowFocusChanged " + hasFocus + " in " + getClass().getName());
    }

    static class Sub extends FocusFinal {
        void other() {
            Out.p("Sub.other");
        }
    }

    abstract static class AbstractFinal extends Activity {
        @Override
        public final void onWindowFocusChanged(boolean hasFocus) {
            Out.p("AbstractFinal.onWindowFocusChanged " + hasFocus + " in " + getClass().getName());
        }
    }

    static class AfterAbstract extends AbstractFinal {
        void other() {
            Out.p("AfterAbstract.other");
        }
    }

    public static void run() {
        new FocusFinal().onWindowFocusChanged(true);
        Sub s = new Sub();
        s.onWindowFocusChanged(false);
        s.other();
        AfterAbstract aa = new AfterAbstract();
        aa.onWindowFocusChanged(true);
        aa.other();
    }
}
