# ART's lock alias rule at a join: one path holds the lock through v1 and its copy v0,
# the other through v1 only (v0 overwritten); v0's levels differ, but v1 still holds
# them in the stored line, so v0 is dropped and the exit through v1 is fine.
.class public LGoodSyncAliasJoin;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;Z)V
    .registers 5
    monitor-enter v3
    move-object v0, v3
    :try_start
    if-eqz v4, :j
    const/4 v0, 0
    :j
    invoke-virtual {v3}, Ljava/lang/Object;->notify()V
    monitor-exit v3
    return-void
    :h
    move-exception v2
    monitor-exit v3
    :try_end
    .catchall {:try_start .. :try_end} :h
    throw v2
.end method
