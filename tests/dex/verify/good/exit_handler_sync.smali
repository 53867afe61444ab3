# The exit handler added to a method with d8's synchronized block: d8's own try (already
# a catch-all) is left alone, the new catch-all covers the rest, including d8's rethrow
# after the handler's monitor-exit (monitor depth 0 there, as everywhere it covers).
# d8's range is split around the exit probe, which no try covers.
.class public LGoodExitHandlerSync;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 4
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    :pre_start
    monitor-enter v3
    :pre_end
    .catchall {:pre_start .. :pre_end} :exit
    :try_start
    invoke-virtual {v3}, Ljava/lang/Object;->notify()V
    monitor-exit v3
    :try_split
    .catchall {:try_start .. :try_split} :h
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-void
    :h
    move-exception v1
    monitor-exit v3
    :try_end
    .catchall {:h .. :try_end} :h
    :rethrow_start
    throw v1
    :rethrow_end
    .catchall {:rethrow_start .. :rethrow_end} :exit
    :exit
    move-exception v0
    const/16 v2, 0x2a
    invoke-static/range {v2 .. v2}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    throw v0
.end method
