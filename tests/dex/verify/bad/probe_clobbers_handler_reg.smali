# rule: instrumenter bug: a throwing probe inside a try writes a register the handler
# reads; the handler sees the probe's pre-state (v1 an int) joined with a String
# expect: v1 is conflict (merged from different types), expected a reference (the receiver)
.class public LBadProbeClobbersHandlerReg;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 3
    const-string v1, "fallback"
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    move-result v0
    const/16 v1, 0x2a
    invoke-static {v1}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :h
    return v0
    :h
    move-exception v0
    invoke-virtual {v1}, Ljava/lang/String;->length()I
    move-result v0
    return v0
.end method
