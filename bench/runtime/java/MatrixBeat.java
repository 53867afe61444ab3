import java.util.concurrent.locks.LockSupport;

/**
 * The peer: a pure-Java recorder written like Matrix's AppMethodBeat
 * (matrix-trace-canary core/AppMethodBeat.java): a static long[1,000,000],
 * a volatile status, a main-thread check, the assertIn guard, wrap at the
 * end, mergeData with the same encoding, checkPileup on the index-record
 * head, sLastIndex, and a clock thread refreshing a volatile time every 5 ms.
 */
public final class MatrixBeat {
    static final int BUFFER_SIZE = 1_000_000;
    static final int METHOD_ID_MAX = 0xFFFFF;
    static final int STATUS_DEFAULT = Integer.MAX_VALUE, STATUS_STARTED = 2, STATUS_READY = 1, STATUS_STOPPED = -1;

    static volatile int status = STATUS_DEFAULT;
    static long[] sBuffer = new long[BUFFER_SIZE];
    static int sIndex, sLastIndex;
    static boolean assertIn;
    static volatile long sCurrentDiffTime;
    static long sDiffTime = System.nanoTime() / 1_000_000L;
    static long sMainThreadId;
    static IndexRecord sIndexRecordHead;

    static final class IndexRecord {
        int index;
        IndexRecord next;
        boolean isValid = true;
    }

    /** realExecute, reduced to what the hot path depends on. */
    public static void start(Thread main) {
        sMainThreadId = main.getId();
        Thread t = new Thread(() -> {
            while (true) {
                sCurrentDiffTime = System.nanoTime() / 1_000_000L - sDiffTime;
                LockSupport.parkNanos(5_000_000L);
            }
        }, "matrix_time_update_thread");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY + 2);
        t.start();
        status = STATUS_STARTED;
    }

    public static void i(int methodId) {
        if (status <= STATUS_STOPPED) {
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        if (status == STATUS_DEFAULT) {
            return; // Matrix lazily starts here; the bench starts explicitly
        }
        long threadId = Thread.currentThread().getId();
        if (threadId == sMainThreadId) {
            if (assertIn) {
                return;
            }
            assertIn = true;
            if (sIndex < BUFFER_SIZE) {
                mergeData(methodId, sIndex, true);
            } else {
                sIndex = 0;
                mergeData(methodId, sIndex, true);
            }
            ++sIndex;
            assertIn = false;
        }
    }

    public static void o(int methodId) {
        if (status <= STATUS_STOPPED) {
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        if (Thread.currentThread().getId() == sMainThreadId) {
            if (sIndex < BUFFER_SIZE) {
                mergeData(methodId, sIndex, false);
            } else {
                sIndex = 0;
                mergeData(methodId, sIndex, false);
            }
            ++sIndex;
        }
    }

    private static void mergeData(int methodId, int index, boolean isIn) {
        try {
            long trueId = 0L;
            if (isIn) {
                trueId |= 1L << 63;
            }
            trueId |= (long) methodId << 43;
            trueId |= sCurrentDiffTime & 0x7FFFFFFFFFFL;
            sBuffer[index] = trueId;
            checkPileup(index);
            sLastIndex = index;
        } catch (Throwable t) {
            System.err.println(t);
        }
    }

    private static void checkPileup(int index) {
        IndexRecord indexRecord = sIndexRecordHead;
        while (indexRecord != null) {
            if (indexRecord.index == index || (indexRecord.index == -1 && sLastIndex == BUFFER_SIZE - 1)) {
                indexRecord.isValid = false;
                sIndexRecordHead = indexRecord = indexRecord.next;
            } else {
                break;
            }
        }
    }
}
