# ART's monitor-enter peepholes make aliases it cannot see otherwise: a move-object just
# before monitor-enter copies the lock to its destination (javac/dx's `synchronized (x)`
# keeps x in a second register and exits through it), and two const-class of one type
# before it lock both registers (`synchronized (X.class)`). Each method exits through the
# alias; without the peepholes that monitor-exit would not release the innermost lock.
.class public LGoodSyncAliasPeephole;
.super Ljava/lang/Object;

.method public static copy(Ljava/lang/Object;)V
    .registers 2
    move-object v0, p0
    monitor-enter p0
    monitor-exit v0
    return-void
.end method

.method public static classes()V
    .registers 2
    const-class v0, LGoodSyncAliasPeephole;
    const-class v1, LGoodSyncAliasPeephole;
    monitor-enter v1
    monitor-exit v0
    return-void
.end method
