/* The stubs as a named module: a JVM that loads them from the module path (rather than
 * the class path) refuses reflection into their private members unless a package is
 * opened (--add-opens android.stubs/android.os=ALL-UNNAMED), as Android's hidden-API
 * enforcement refuses it to apps. On the class path this file is ignored. */
module android.stubs {
    requires java.management;
    exports android.app;
    exports android.app.servertransaction;
    exports android.content;
    exports android.hardware.display;
    exports android.os;
    exports android.util;
    exports android.view;
}
