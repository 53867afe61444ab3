# rule (LOCKING, soft in ART): returning with a monitor held
# expect: LOCKING: return with 1 monitor(s) held
.class public LBadLockingReturnHeld;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 1
    monitor-enter v0
    return-void
.end method
