# A catch of java/lang/Throwable counts as a catch-all for the monitor rule.
.class public LGoodSyncThrowable;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 3
    monitor-enter v2
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->notify()V
    monitor-exit v2
    return-void
    :h
    move-exception v1
    monitor-exit v2
    :try_end
    .catch Ljava/lang/Throwable; {:try_start .. :try_end} :h
    throw v1
.end method
