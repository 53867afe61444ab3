# rule: a wide argument of a non-range invoke is two consecutive registers
# expect: wide argument 0 in v0 and v2, not a register pair
.class public LBadInvokeWideNotPair;
.super Ljava/lang/Object;

.method public static f(J)V
    .registers 4
    invoke-static {v0, v2}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    return-void
.end method
