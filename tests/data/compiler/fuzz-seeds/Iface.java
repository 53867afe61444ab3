package s;
public interface Iface { void run(); default void twice() { run(); run(); } }
