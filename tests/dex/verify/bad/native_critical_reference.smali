# rule: a @CriticalNative method has no reference in its signature (Verify)
# expect: critical native methods must not have references as arguments or return type
.class public LBadNativeCriticalReference;
.super Ljava/lang/Object;

.method public static native f(ILjava/lang/String;)I
    .annotation build Ldalvik/annotation/optimization/CriticalNative;
    .end annotation
.end method
