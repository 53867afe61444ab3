# d8's synchronized block (SynchronizedHelper.casListeners in the real corpus): one try
# from after monitor-enter to the handler's own monitor-exit, catch-all; the returns come
# after the monitor-exits; monitor-exit does not throw, so the handler may cover its own.
.class public LGoodSyncD8;
.super Ljava/lang/Object;

.field private x:I

.method public f(Ljava/lang/Object;)I
    .registers 4
    monitor-enter v3
    :try_start
    iget v0, v2, LGoodSyncD8;->x:I
    add-int/lit8 v0, v0, 1
    iput v0, v2, LGoodSyncD8;->x:I
    monitor-exit v3
    return v0
    :h
    move-exception v1
    monitor-exit v3
    :try_end
    .catchall {:try_start .. :try_end} :h
    throw v1
.end method
