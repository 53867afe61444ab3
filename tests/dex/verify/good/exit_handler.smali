# The instrumenter's exceptional exit: a trailing catch-all handler
# "move-exception vE; const vS, #id; invoke-static/range {vS..vS}, o(I)V; throw vE"
# covering the original code (with its own typed handler kept in the same list), not
# the probes nor itself; vE and vS clobber registers the original code used.
.class public LGoodExitHandler;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 3
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    move-result v0
    div-int/lit8 v0, v0, 0x3
    :try_end
    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :typed
    .catchall {:try_start .. :try_end} :exit
    const/16 v1, 0x2a
    invoke-static {v1}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return v0
    :typed
    move-exception v1
    :try2_start
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    move-result v0
    :try2_end
    .catchall {:try2_start .. :try2_end} :exit
    const/16 v1, 0x2a
    invoke-static {v1}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return v0
    :exit
    move-exception v0
    const/16 v1, 0x2a
    invoke-static/range {v1 .. v1}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    throw v0
.end method
