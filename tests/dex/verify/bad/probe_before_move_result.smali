# rule: instrumenter bug: a probe between an invoke and its move-result; the result
# register then holds the probe's (void) result
# expect: move-result after a call that returns void
.class public LBadProbeBeforeMoveResult;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 2
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    move-result v0
    return v0
.end method
