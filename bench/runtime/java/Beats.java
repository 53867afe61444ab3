import com.tencent.matrix.trace.core.AppMethodBeat;

/*
 * What the workload calls at method entry and exit. run.sh makes three
 * copies of Workload.java, each calling one of these, so that the untraced,
 * peer-traced and ours-traced programs run in the same JVM, in turn, under
 * the same conditions (this machine may be shared). Each call is a direct
 * static call the JIT inlines: nothing, or exactly the recorder's i/o.
 */
final class BeatNone {
    static void i(int id) {}
    static void o(int id) {}
}

final class BeatPeer {
    static void i(int id) { MatrixBeat.i(id); }
    static void o(int id) { MatrixBeat.o(id); }
}

final class BeatOurs {
    static void i(int id) { AppMethodBeat.i(id); }
    static void o(int id) { AppMethodBeat.o(id); }
}
