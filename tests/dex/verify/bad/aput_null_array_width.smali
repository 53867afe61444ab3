# rule: constant widths: aput-byte into a null array still needs a byte value (VerifyAPut on a
# null array checks the value against the instruction's type)
# expect: v2 is a constant 0..32767, expected byte
.class public LBadAputNullArrayWidth;
.super Ljava/lang/Object;

.method public static f()V
    .registers 3
    const/4 v0, 0
    const/4 v1, 0
    const/16 v2, 200
    aput-byte v2, v0, v1
    return-void
.end method
