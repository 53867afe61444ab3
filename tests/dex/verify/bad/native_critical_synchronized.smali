# rule: a @CriticalNative method is not synchronized (Verify)
# expect: critical native methods cannot be synchronized
.class public LBadNativeCriticalSynchronized;
.super Ljava/lang/Object;

.method public static synchronized native f()V
    .annotation build Ldalvik/annotation/optimization/CriticalNative;
    .end annotation
.end method
