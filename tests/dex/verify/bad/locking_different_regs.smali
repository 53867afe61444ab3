# rule (LOCKING): paths that locked different registers join; no other register holds
# either lock level, so the monitor cannot be tracked (ART: "mismatched stack depths for
# register")
# expect: LOCKING: v0 holds different monitors on paths meeting at
.class public LBadLockingDifferentRegs;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;Ljava/lang/Object;Z)V
    .registers 3
    if-eqz v2, :b
    monitor-enter v0
    goto :j
    :b
    monitor-enter v1
    :j
    monitor-exit v0
    return-void
.end method
