# The instrumenter's probes: at entry "const/16 v0, #id; invoke-static {v0}, i(I)V" in a
# dead register, and before each return in a register other than the returned one,
# with branches to the return moved to the probe.
.class public LGoodProbes;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/String;Z)Ljava/lang/String;
    .registers 4
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    if-eqz v3, :other
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-object v2
    :other
    const-string v1, "no"
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-object v1
.end method

.method public static g(J)J
    .registers 4
    const v0, 0xfffff
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    const/16 v1, 0x2b
    invoke-static/range {v1 .. v1}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-wide v2
.end method
