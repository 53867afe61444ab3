package android.app.servertransaction;

import java.util.ArrayList;
import java.util.List;

/** Stub (hidden, API 28+): the requests of one EXECUTE_TRANSACTION message. getCallbacks()
 *  is package-private, as on Android 9 and 10 (later releases made it public). */
public class ClientTransaction {
    private List<ClientTransactionItem> mActivityCallbacks;

    public void addCallback(ClientTransactionItem item) {
        if (mActivityCallbacks == null) {
            mActivityCallbacks = new ArrayList<>();
        }
        mActivityCallbacks.add(item);
    }

    List<ClientTransactionItem> getCallbacks() {
        return mActivityCallbacks;
    }

    // ---- stub helper, not Android API ----
    public List<ClientTransactionItem> stubItems() {
        return mActivityCallbacks;
    }
}
