package com.tencent.matrix.trace.core;

/* The probe class the cases call, empty. */
public class AppMethodBeat {
	public static void i(int id) {}

	public static void o(int id) {}
}
