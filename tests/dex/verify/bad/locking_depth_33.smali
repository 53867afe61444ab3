# rule: at most 32 monitors are held at once (PushMonitor: kMaxMonitorStackDepth, LOCKING)
# expect: LOCKING: monitor stack deeper than 32
.class public LBadLockingDepth33;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 1
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    monitor-enter p0
    return-void
.end method
