# rule: a @FastNative method is not synchronized (Verify: "fast native methods cannot be synchronized")
# expect: fast native methods cannot be synchronized
.class public LBadNativeFastSynchronized;
.super Ljava/lang/Object;

.method public static synchronized native f()V
    .annotation build Ldalvik/annotation/optimization/FastNative;
    .end annotation
.end method
