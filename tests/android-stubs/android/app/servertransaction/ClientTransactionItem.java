package android.app.servertransaction;

/** Stub (hidden, API 28+): one request of a transaction. */
public abstract class ClientTransactionItem {
    // ---- stub helper, not Android API: what the framework's execute() does here ----
    public abstract void execute();
}
