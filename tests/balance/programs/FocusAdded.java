/*@expect activity_focus_method_added
  Activities without onWindowFocusChanged(Z)V get one: super.onWindowFocusChanged(z), then
  at(this, z) (the added method has no i/o). Also for an Activity with no code at all, one with
  an overload onWindowFocusChanged(int) only, and a concrete subclass of an abstract Activity
  (the abstract class is skipped: nothing is added there). Called through an Activity reference,
  the added method is the one dispatched to.

thread s:FocusAdded
i FocusAdded.run()V
  at FocusAdded.onWindowFocusChanged(Z)V FocusAdded true
  at FocusAdded.onWindowFocusChanged(Z)V FocusAdded false
  at FocusAdded$Empty.onWindowFocusChanged(Z)V FocusAdded$Empty true
  i FocusAdded$Overload.onWindowFocusChanged(I)V
  o FocusAdded$Overload.onWindowFocusChanged(I)V
  at FocusAdded$Overload.onWindowFocusChanged(Z)V FocusAdded$Overload true
  at FocusAdded$Concrete.onWindowFocusChanged(Z)V FocusAdded$Concrete false
o FocusAdded.run()V
*/
import android.app.Activity;

public class FocusAdded extends Activity {
    void resume() {
        Out.p("FocusAdded.resume " + getClass().getName());
    }

    static class Empty extends Activity {
    }

    static class Overload extends Activity {
        public void onWindowFocusChanged(int level) {
            Out.p("Overload.onWindowFocusChanged(int) " + level);
        }
    }

    abstract static class Abstract extends Activity {
        void helper() {
            Out.p("never traced: Abstract is abstract");
        }
    }

    static class Concrete extends Abstract {
    }

    public static void run() {
        FocusAdded a = new FocusAdded();
        a.onWindowFocusChanged(true);
        Activity viaBase = a;
        viaBase.onWindowFocusChanged(false);
        new Empty().onWindowFocusChanged(true);
        Overload o = new Overload();
        o.onWindowFocusChanged(2);
        o.onWindowFocusChanged(true);
        Concrete c = new Concrete();
        c.helper();
        c.onWindowFocusChanged(false);
    }
}
