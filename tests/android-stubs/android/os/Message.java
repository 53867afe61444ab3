package android.os;

/** Stub: the fields the runtime and the stub looper use. */
public final class Message {
    public int what;
    public Object obj;
    Runnable callback;
    Handler target;
    long when;
    Message next;

    public static Message obtain() {
        return new Message();
    }

    public Runnable getCallback() {
        return callback;
    }

    @Override
    public String toString() {
        return "{ when=" + when + " what=" + what + " target=" + target + " }";
    }
}
