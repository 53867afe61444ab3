/*@expect synchronized_methods_and_blocks
  synchronized methods (static and instance) and blocks, left normally, by a return inside the
  block and by exceptions; every monitor is released afterwards (the output says so). The static initializer
  (new Object() twice) runs in the scenario's thread, before run().

thread s:Sync
i Sync.<clinit>()V
o Sync.<clinit>()V
i Sync.run()V
  i Sync.syncMethod(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.syncMethod(I)I
  i Sync.syncMethod(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.syncMethod(I)I
  i Sync.syncStatic(I)V
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.syncStatic(I)V
  i Sync.block(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.block(I)I
  i Sync.block(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.block(I)I
  i Sync.nestedBlocks(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.nestedBlocks(I)I
  i Sync.nestedBlocks(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.nestedBlocks(I)I
  i Sync.caughtInBlock(I)I
    i Sync.work(I)I
    o Sync.work(I)I
  o Sync.caughtInBlock(I)I
o Sync.run()V
*/
public class Sync {
    static final Object LOCK = new Object();
    static final Object LOCK2 = new Object();

    public static void run() {
        Sync s = new Sync();
        Out.p("syncMethod(1) = " + s.syncMethod(1));
        try {
            s.syncMethod(-1);
        } catch (IllegalArgumentException e) {
            Out.p("syncMethod(-1) threw " + e.getMessage() + ", holds lock: " + Thread.holdsLock(s));
        }
        try {
            syncStatic(-2);
        } catch (IllegalArgumentException e) {
            Out.p("syncStatic(-2) threw " + e.getMessage() + ", holds lock: " + Thread.holdsLock(Sync.class));
        }
        Out.p("block(3) = " + block(3));
        try {
            block(-3);
        } catch (IllegalArgumentException e) {
            Out.p("block(-3) threw " + e.getMessage() + ", holds lock: " + Thread.holdsLock(LOCK));
        }
        Out.p("nestedBlocks(4) = " + nestedBlocks(4));
        try {
            nestedBlocks(-4);
        } catch (IllegalArgumentException e) {
            Out.p("nestedBlocks(-4) threw " + e.getMessage() + ", holds locks: " + Thread.holdsLock(LOCK)
                    + " " + Thread.holdsLock(LOCK2));
        }
        Out.p("caughtInBlock(-5) = " + caughtInBlock(-5));
    }

    static int work(int x) {
        if (x < 0) {
            throw new IllegalArgumentException("negative " + x);
        }
        return Math.addExact(x, 10);
    }

    synchronized int syncMethod(int x) {
        return work(x) + 1;
    }

    static synchronized void syncStatic(int x) {
        Out.p("syncStatic got " + work(x));
    }

    static int block(int x) {
        int r;
        synchronized (LOCK) {
            r = work(x);
        }
        return r * 2;
    }

    static int nestedBlocks(int x) {
        synchronized (LOCK) {
            synchronized (LOCK2) {
                if (x > 100) {
                    return 0;
                }
                return work(x);
            }
        }
    }

    static int caughtInBlock(int x) {
        synchronized (LOCK) {
            try {
                return work(x);
            } catch (IllegalArgumentException e) {
                return -1;
            }
        }
    }
}
