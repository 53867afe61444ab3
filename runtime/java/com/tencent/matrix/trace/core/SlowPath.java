package com.tencent.matrix.trace.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A method the writers (AppMethodBeat.i/o, ThreadRing) call now and then, not per event:
 * the value says how often. The per-event check (tests/runtime/hotpath, tc-hotpath) follows
 * every call of i() and o() into the runtime's classes and stops at these; what they call
 * may be a native call. Class retention: in the class file, not at run time.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@interface SlowPath {
    String value();
}
