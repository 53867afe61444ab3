package com.example.app;

/* Stands in for Android's generated R class: never traced, copied as it is. */
public final class R {
    public static final class string {
        public static final int app_name = 0x7f010001;

        static String name() {
            return String.valueOf(app_name);
        }
    }

    static String all() {
        return string.name();
    }
}
