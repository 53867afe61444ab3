/*@expect quirk_no_override_of_final_focus_classpath
  The same with the final onWindowFocusChanged in a class known only through --classpath
  (LibFinalActivity, not instrumented): nothing is added to the input's subclasses, direct or
  not, and they load.

thread s:FocusLibFinal
i FocusLibFinal.run()V
  i FocusLibFinal.other()V
  o FocusLibFinal.other()V
  i FocusLibFinal$Deeper.other()V
  o FocusLibFinal$Deeper.other()V
o FocusLibFinal.run()V
*/
public class FocusLibFinal extends LibFinalActivity {
    void other() {
        Out.p("FocusLibFinal.other in " + getClass().getName());
    }

    static class Deeper extends FocusLibFinal {
        @Override
        void other() {
            Out.p("Deeper.other");
        }
    }

    public static void run() {
        FocusLibFinal a = new FocusLibFinal();
        a.onWindowFocusChanged(true);
        a.other();
        Deeper d = new Deeper();
        d.onWindowFocusChanged(false);
        d.other();
    }
}
