# Nested synchronized blocks; the outer lock released through an alias made by
# move-object after monitor-enter (ART copies a register's lock depths with
# move-object; a copy made before the lock carries none). Each handler rethrows; the
# inner handler's rethrow is covered by the outer catch-all at depth 1.
.class public LGoodSyncNestedAlias;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;Ljava/lang/Object;)V
    .registers 5
    monitor-enter v3
    move-object v0, v3
    :try_outer
    monitor-enter v4
    :try_inner
    invoke-virtual {v4}, Ljava/lang/Object;->notify()V
    monitor-exit v4
    :try_inner_end
    .catchall {:try_inner .. :try_inner_end} :hi
    monitor-exit v0
    return-void
    :hi
    move-exception v1
    :try_h
    monitor-exit v4
    throw v1
    :ho
    move-exception v1
    monitor-exit v3
    :try_outer_end
    .catchall {:try_outer .. :try_inner} :ho
    .catchall {:try_h .. :try_outer_end} :ho
    throw v1
.end method
