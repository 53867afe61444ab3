# rule: instrumenter bug: a probe at the start of a handler, ahead of move-exception
# (move-exception must be the handler's first instruction, never reached by fall-through)
# expect: invalid use of move-exception: reached by fall-through
.class public LBadProbeBeforeMoveException;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 3
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    move-result v0
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :h
    return v0
    :h
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    move-exception v1
    throw v1
.end method
