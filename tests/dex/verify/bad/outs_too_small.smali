# rule: outs_size is at least the argument words of every invoke (ART: "invalid
# argument count (1) exceeds outsSize (0)"); smali computes outs_size, so the test
# patches it in the method that starts with the marker const
# patch: outs=0
# expect: invoke passes 1 argument words, outs_size is 0
.class public LBadOutsTooSmall;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    return-void
.end method
