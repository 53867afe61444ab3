# rule (LOCKING): instrumenter bug: an exit probe placed after d8's monitor-exit but still
# inside d8's synchronized try flows monitor depth 0 into the depth-1 handler
# expect: LOCKING: monitor stack depths 1 and 0 meet at
.class public LBadLockingProbeAfterExit;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 3
    monitor-enter v2
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->notify()V
    monitor-exit v2
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-void
    :h
    move-exception v1
    monitor-exit v2
    :try_end
    .catchall {:try_start .. :try_end} :h
    throw v1
.end method
