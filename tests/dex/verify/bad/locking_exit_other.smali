# rule (LOCKING): monitor-exit must release the innermost monitor
# expect: LOCKING: monitor-exit v1 does not release the innermost monitor
.class public LBadLockingExitOther;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;Ljava/lang/Object;)V
    .registers 2
    monitor-enter v0
    monitor-exit v1
    return-void
.end method
