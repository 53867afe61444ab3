# rule (LOCKING): paths with different monitor depths join
# expect: LOCKING: monitor stack depths
.class public LBadLockingDepthJoin;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;Z)V
    .registers 2
    if-eqz v1, :j
    monitor-enter v0
    :j
    monitor-exit v0
    return-void
.end method
