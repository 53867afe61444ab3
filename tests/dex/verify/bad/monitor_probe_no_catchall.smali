# rule: a throwing instruction in a try while a monitor is held needs a catch-all (or
# Throwable) handler. Instrumenter bug: the probe inside the locked region is covered by
# a try whose handler list lost d8's catch-all
# expect: expected to be within a catch-all for an instruction where a monitor is held
.class public LBadMonitorProbeNoCatchall;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 3
    monitor-enter v2
    :try_start
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :h
    monitor-exit v2
    return-void
    :h
    move-exception v1
    monitor-exit v2
    throw v1
.end method
