package android.os;

/** Stub: a thread with a looper. */
public class HandlerThread extends Thread {
    private Looper looper;

    public HandlerThread(String name) {
        super(name);
    }

    public HandlerThread(String name, int priority) {
        super(name);
    }

    @Override
    public void run() {
        Looper.prepare();
        synchronized (this) {
            looper = Looper.myLooper();
            notifyAll();
        }
        Looper.loop();
    }

    public synchronized Looper getLooper() {
        while (isAlive() && looper == null) {
            try {
                wait();
            } catch (InterruptedException e) {
                // as Android: keep waiting
            }
        }
        return looper;
    }

    public boolean quit() {
        Looper l = getLooper();
        if (l != null) {
            l.quit();
            return true;
        }
        return false;
    }
}
