package android.app;
public class Activity { public void onWindowFocusChanged(boolean b) {} }
