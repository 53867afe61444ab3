package com.tencent.matrix.trace.core;

/**
 * The probe class for the types oracle: empty, so that instrumented classes link and
 * verify. oracles.sh renames the package and class to the --probe-class it is given.
 */
public class AppMethodBeat {
	public static void i(int id) {
	}

	public static void o(int id) {
	}

	public static void at(android.app.Activity activity, boolean hasFocus) {
	}
}
