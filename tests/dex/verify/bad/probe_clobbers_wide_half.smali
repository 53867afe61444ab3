# rule: instrumenter bug: the exit probe's scratch register is the high half of a live
# long (the returned pair), so return-wide reads a broken pair
# expect: v2/v3 is not a long pair
.class public LBadProbeClobbersWideHalf;
.super Ljava/lang/Object;

.method public static f(J)J
    .registers 4
    const/16 v3, 0x2a
    invoke-static {v3}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-wide v2
.end method
