# ART accepts a throwing instruction with a monitor held when no try covers it (it only
# asks for a catch-all inside a try): here a probe split out of d8's synchronized try.
# tc-dexverify --strict-monitors rejects this shape (bad/strict_lock_probe_no_try.smali).
.class public LGoodLockProbeNoTry;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 3
    monitor-enter v2
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->notify()V
    monitor-exit v2
    return-void
    :h
    move-exception v1
    monitor-exit v2
    :try_end
    .catchall {:try_start .. :try_end} :h
    throw v1
.end method
