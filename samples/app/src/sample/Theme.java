package sample;

import android.app.Activity;

/** Styling helpers, called while creating and drawing screens. */
final class Theme {
    private Theme() {}

    static void apply(Activity a) {
        Work.spin(5);
        Log.d("theme " + a.getClass().getSimpleName());
    }

    static int measure(String text) {
        int w = 0;
        for (int i = 0; i < text.length(); i++)
            w += Character.isDigit(text.charAt(i)) ? 6 : 8;
        return w;
    }
}
