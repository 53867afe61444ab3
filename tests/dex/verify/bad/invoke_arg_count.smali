# rule: an invoke passes exactly the argument words of the callee's proto
# expect: 1 argument registers, the callee's proto needs 2
.class public LBadInvokeArgCount;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v0, 1
    invoke-static {v0}, Ljava/lang/Math;->max(II)I
    return-void
.end method
