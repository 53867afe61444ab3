package android.app.servertransaction;

/** Stub (hidden, API 28+): "launch an activity"; the runtime matches its class name. */
public class LaunchActivityItem extends ClientTransactionItem {
    private final Runnable launch;

    // ---- stub helper, not Android API: the launch to run ----
    public LaunchActivityItem(Runnable launch) {
        this.launch = launch;
    }

    @Override
    public void execute() {
        launch.run();
    }
}
