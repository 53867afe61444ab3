# rule (beyond ART, --strict-monitors): a throwing instruction with a monitor held must be
# inside a try, else a throw leaves the method holding the lock. Instrumenter bug: the
# entry probe of a synchronized block split out of d8's try (ART accepts it:
# good/lock_probe_no_try.smali)
# flags: --strict-monitors
# expect: STRICT: throwing instruction outside any try while a monitor is held
.class public LBadStrictLockProbeNoTry;
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
