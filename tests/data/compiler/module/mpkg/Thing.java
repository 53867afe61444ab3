package mpkg;

public class Thing {
    public String name() {
        return getClass().getModule().getName() + "/" + Thing.class.getSimpleName();
    }
}
