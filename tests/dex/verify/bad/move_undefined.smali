# rule: undefined registers may not even be copied (CopyRegister1; conflicts may)
# expect: v1 is undefined, expected a 32-bit non-reference value (move)
.class public LBadMoveUndefined;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    move v0, v1
    return-void
.end method
