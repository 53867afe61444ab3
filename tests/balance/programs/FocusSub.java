/*@expect activity_subclass_of_activity_subclass
  A subclass of an Activity subclass: FocusSub lacks the method and gets one, whose super call
  runs FocusTraced's traced method (i, at with this = the FocusSub, o) before FocusSub's own
  at(); FocusSub.Deeper overrides it again (traced), calling super.

thread s:FocusSub
i FocusSub.run()V
  i FocusTraced.onWindowFocusChanged(Z)V
  at FocusTraced.onWindowFocusChanged(Z)V FocusSub true
  o FocusTraced.onWindowFocusChanged(Z)V
  at FocusSub.onWindowFocusChanged(Z)V FocusSub true
  i FocusSub$Deeper.onWindowFocusChanged(Z)V
  at FocusSub$Deeper.onWindowFocusChanged(Z)V FocusSub$Deeper false
    i FocusTraced.onWindowFocusChanged(Z)V
    at FocusTraced.onWindowFocusChanged(Z)V FocusSub$Deeper false
    o FocusTraced.onWindowFocusChanged(Z)V
    at FocusSub.onWindowFocusChanged(Z)V FocusSub$Deeper false
  o FocusSub$Deeper.onWindowFocusChanged(Z)V
o FocusSub.run()V
*/
public class FocusSub extends FocusTraced {
    static class Deeper extends FocusSub {
        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            super.onWindowFocusChanged(hasFocus);
            Out.p("Deeper.onWindowFocusChanged " + hasFocus);
        }
    }

    public static void run() {
        new FocusSub().onWindowFocusChanged(true);
        new Deeper().onWindowFocusChanged(false);
    }
}
