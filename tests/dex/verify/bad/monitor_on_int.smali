# rule: monitor-enter needs a reference
# expect: v0 is int, expected a reference
.class public LBadMonitorOnInt;
.super Ljava/lang/Object;

.method public static f(I)V
    .registers 1
    monitor-enter v0
    monitor-exit v0
    return-void
.end method
