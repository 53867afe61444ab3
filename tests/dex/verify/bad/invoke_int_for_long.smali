# rule: invoke arguments match the callee's proto by category (a long needs a pair)
# expect: v0/v1 is not a long pair
.class public LBadInvokeIntForLong;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v0, 1
    const/4 v1, 2
    invoke-static {v0, v1}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    return-void
.end method
