# rule: a @CriticalNative method is static (Verify: "critical native methods must be static")
# expect: critical native methods must be static
.class public LBadNativeCriticalInstance;
.super Ljava/lang/Object;

.method public native f()V
    .annotation build Ldalvik/annotation/optimization/CriticalNative;
    .end annotation
.end method
